"""What the dashboard's server records about its own speed when asked (for ``sac bench``, whose
measuring code is :mod:`sac_core.tooling.timing`): the names of the environment variables that
switch it on. ``app_pages/shared/resources.py`` (``timed``) reads them.
"""

from __future__ import annotations

TIMING_ENV = "SAC_TIMING_LOG"  # app.py appends "<page>\t<milliseconds>" per script run to this file
PROFILE_ENV = "SAC_PROFILE_DIR"  # app.py saves each script run's cProfile statistics in this folder
