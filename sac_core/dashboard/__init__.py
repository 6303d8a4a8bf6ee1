"""The dashboard's logic, UI-free and tested without Streamlit: one module per page plus shared parts.

A page script in ``app_pages/`` imports its logic from here only (``from sac_core.dashboard import
compare, views``); nothing here imports Streamlit.

- shared: :mod:`.state` (data source, sidebar settings), :mod:`.selection` (URL state),
  :mod:`.registry` (objects shared by every session), :mod:`.views` and :mod:`.highlight` (HTML);
- one per page: :mod:`.compare` (and :mod:`.runs`, its import panel), :mod:`.curves`, :mod:`.tune`, :mod:`.documents`, :mod:`.maps`, :mod:`.review` (a package:
  blind review sessions in a database);
- the server's own machinery: :mod:`.builds` (background builds), :mod:`.browser`,
  :mod:`.screenshots` and :mod:`.timing` (headless Chromium for tests and ``sac bench``).
"""

from . import compare, curves, documents, highlight, maps, registry, review, runs, selection, state, tune, views

__all__ = [
    "compare",
    "curves",
    "documents",
    "highlight",
    "maps",
    "registry",
    "review",
    "runs",
    "selection",
    "state",
    "tune",
    "views",
]
