"""The dashboard's logic, UI-free and tested without Streamlit: one module per page plus shared parts.

A page script in ``app_pages/`` calls the project only through these modules (``from
sac_core.dashboard import compare, views``; it may name the engine's and experiments' types in
annotations, under ``TYPE_CHECKING``); nothing here imports Streamlit. What the server keeps in
memory is the pages' business: one Streamlit cache per kind, ``app_pages/shared/caches.py``.

- shared: :mod:`.state` (data source, sidebar settings), :mod:`.selection` (URL state),
  :mod:`.views`, :mod:`.text` and :mod:`.highlight` (HTML),
  :mod:`.wording` (one naming and number format: method names, percent, ±, questions first);
- one per page: :mod:`.compare` (and :mod:`.runs`, its import panel; :mod:`.answers`, its answer row; :mod:`.demo_picks`,
  the typical / best / worst queries it and Map offer),
  :mod:`.curves` (and :mod:`.curve_views`, its figures; :mod:`.demo_sweep`, the demo grid it can run), :mod:`.tune`, :mod:`.documents`, :mod:`.maps`, :mod:`.review` (a package:
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
    "builds",
    "compare",
    "curve_views",
    "curves",
    "demo_picks",
    "demo_sweep",
    "documents",
    "errors",
    "highlight",
    "maps",
    "review",
    "runs",
    "selection",
    "state",
    "text",
    "tune",
    "views",
    "wording",
]
