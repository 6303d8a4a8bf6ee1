"""The README's and the documentation site's generated parts (``sac docs``): results tables and
figures from ``results/`` (:mod:`.catalogue` declares them), a page per plug-in option set, per CLI
command and per sweep folder, and the site's navigation; written, or checked against the checkout."""

from .results import DocsError
from .site import Site, generate, stale, write

__all__ = ["DocsError", "Site", "generate", "stale", "write"]
