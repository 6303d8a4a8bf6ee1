"""``python -m sac_core.cli``: the ``sac`` command."""

import sys

from .main import main

sys.exit(main())
