"""``sac``, the command line: :func:`main` (the ``sac`` script, ``python -m sac_core.cli``); one
module per group of commands (:mod:`.run`, :mod:`.summaries`, :mod:`.sweeps`, :mod:`.data`,
:mod:`.separation`, :mod:`.review`, :mod:`.tools`), their shared options in :mod:`.options`."""

from .main import main

__all__ = ["main"]
