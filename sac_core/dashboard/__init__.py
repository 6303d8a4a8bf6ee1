"""The dashboard's logic, UI-free and tested without Streamlit: one module per page plus shared parts.

A page script in ``app_pages/`` imports its logic from here only (``from sac_core.dashboard import
compare, views``); nothing here imports Streamlit.

- shared: :mod:`.state` (data source, sidebar settings), :mod:`.selection` (URL state),
  :mod:`.registry` (objects shared by every session), :mod:`.views` and :mod:`.highlight` (HTML),
  :mod:`.wording` (one naming and number format: method names, percent, ±, questions first);
- one per page: :mod:`.compare` (and :mod:`.runs`, its import panel; :mod:`.answers`, its answer row; :mod:`.demo_picks`,
  the typical / best / worst queries it and Map offer),
  :mod:`.curves` (and :mod:`.curve_views`, its figures), :mod:`.tune`, :mod:`.documents`, :mod:`.maps`, :mod:`.review` (a package:
  blind review sessions in a database);
- the server's own machinery: :mod:`.builds` (background builds), :mod:`.errors` (a failure's
  reference for the page, its traceback for the log) and :mod:`.timing` (what the server records
  of its own speed for ``sac bench``). Measuring it, driving a browser and taking
  screenshots is :mod:`sac_core.tooling`, outside the product.

The modules are listed here, not imported: ``from sac_core.dashboard import compare, views`` loads
just those, so a tool that needs one name of :mod:`.timing` does not load Plotly and SQLAlchemy.
"""

__all__ = [
    "answers",
    "compare",
    "curve_views",
    "curves",
    "demo_picks",
    "documents",
    "errors",
    "highlight",
    "maps",
    "registry",
    "review",
    "runs",
    "selection",
    "state",
    "tune",
    "views",
    "wording",
]
