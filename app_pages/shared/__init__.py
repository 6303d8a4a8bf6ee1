"""Shared UI code for the pages (not itself a page). A page imports the modules it uses:
``sidebar`` (settings, style, banner), ``resources`` (the benchmark, the Compare workspace and what
is computed on it), ``caches`` (what the server keeps in memory, one Streamlit cache per kind),
``widgets`` (the query picker), ``answers_ui``, ``runs_ui``, ``frame`` (what wraps every page run).

The Review page's parts (``review_ui``) are imported by that page alone: they load SQLAlchemy, which
no other page needs (half a second on a fresh server before Compare's first chunks).

``settings`` is re-exported for the Review page, which still reads it from here."""

from .sidebar import settings

__all__ = ["settings"]
