"""SAC dashboard: why legal RAG retrieves from the wrong document, and how SAC fixes it.

Run: ``make app`` (or ``streamlit run app.py``). UI only; the engine is ``sac_core``.

The page scripts live in ``app_pages/``, deliberately not ``pages/``: Streamlit treats a ``pages/``
folder beside the main script as an old-style multipage app until ``st.navigation`` has run once,
so on a fresh server a deep link such as ``/curves`` would run that page alone (no sidebar
navigation of ours, no page config) and list every file of the folder as a page.

Everything runs in :func:`main`, called only when Streamlit runs this file (``__main__``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # `sac_core` and `app_pages` importable however the app is started
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from app_pages.shared import frame, resources, sidebar  # noqa: E402
from sac_core.dashboard import errors  # noqa: E402


def main() -> None:
    """One run of the dashboard (Streamlit runs this file as ``__main__`` on every rerun)."""
    errors.quiet_logs()
    st.set_page_config(page_title="SAC dashboard", page_icon=":material/balance:", layout="wide")
    resources.load_plugins()  # installed packages' and $SAC_PLUGINS's methods and stages, before any page reads them
    pages = [
        st.Page("app_pages/compare.py", title="Compare", icon=":material/compare_arrows:", default=True),
        st.Page("app_pages/curves.py", title="Curves", icon=":material/show_chart:"),
        st.Page("app_pages/tune.py", title="Tune", icon=":material/tune:"),
        st.Page("app_pages/map.py", title="Map", icon=":material/scatter_plot:"),
        st.Page("app_pages/documents.py", title="Documents", icon=":material/description:"),
        st.Page("app_pages/review.py", title="Review", icon=":material/rate_review:"),
    ]
    page = st.navigation(pages)
    title = page.title
    with frame.timed(title), frame.guarded(title):  # server time for `sac bench`; a failure: a reference, no traceback
        settings = sidebar.sidebar()
        sidebar.style()
        sidebar.banner(settings)
        page.run()


# Not on import: nothing should draw the dashboard outside Streamlit's run (issue 27: thousands of log lines).
if __name__ == "__main__":
    main()
