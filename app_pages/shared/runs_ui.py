"""Shared UI (not a page): the "Import a run" panel of Compare. Logic in ``sac_core.dashboard.runs``."""

from __future__ import annotations

import streamlit as st

from sac_core.dashboard import runs, state, views


def _file_key() -> str:
    """The uploader's key: a new one after each import, so the imported file is not offered again."""
    return f"runs_file::{st.session_state.get('runs_file_n', 0)}"


def _file_chosen() -> None:
    """A file chosen: its name becomes the run's name (still editable)."""
    upload = st.session_state.get(_file_key())
    st.session_state["runs_name"] = runs.suggested_name(upload.name) if upload is not None else ""


def import_run_panel(s: state.Settings) -> None:
    """Upload another retriever's run (JSONL or TREC) for the benchmark shown; on success it becomes
    a column choice here, a Review column and a Curves line (folder "imported")."""
    here = runs.imported_here(s)
    label = f"Import a run ({len(here)} imported for this benchmark)" if here else "Import a run"
    if st.session_state.pop("runs_reset", None):  # after an import, before the widgets: an empty form
        st.session_state["runs_name"] = ""
    with st.expander(label, icon=":material/upload_file:", expanded="runs_done" in st.session_state):
        if done := st.session_state.pop("runs_done", None):
            st.success(views.md(done))
        st.caption(
            "A run of your own retriever, ranked best first, one line per query of this benchmark: JSONL "
            '`{"query": …, "snippets": [{"file_path": …, "span": [start, end], "score": …}]}` '
            "(LegalBench-RAG's snippet shape; `query_id` may name the query) or TREC with doc ids "
            "`file_path#start-end`. Every line is checked and scored; nothing is kept unless all of it is valid."
        )
        upload = st.file_uploader("Run file", type=["jsonl", "json", "trec", "txt", "run", "gz"], key=_file_key(),
                                  max_upload_size=runs.MAX_UPLOAD // (1024 * 1024), on_change=_file_chosen)  # fmt: skip
        name = st.text_input("Name", key="runs_name", max_chars=64,
                             help="Letters, digits, '.', '_' or '-'; a name is given once.").strip()  # fmt: skip
        what = f"{views.md(runs.file_label(upload.name, upload.size))} as {views.md(name)}" if upload and name else ""
        if st.button(f"Import and score {what}".strip(), key="runs_import", disabled=not what):
            try:
                with st.spinner("Checking every line and scoring the run …"):
                    done = runs.import_upload(upload.getvalue(), upload.name, name, s)  # type: ignore[union-attr]
            except runs.IMPORT_ERRORS as e:
                st.error(views.md(e))
                return
            st.session_state["runs_added"] = done.key
            st.session_state["runs_file_n"] = st.session_state.get("runs_file_n", 0) + 1
            st.session_state["runs_reset"] = True
            st.session_state["runs_done"] = (
                f"Imported {done.run.name}: {done.run.queries} queries ({done.run.protocol}); it is a column "
                "choice above, a Review column and a Curves line."
            )
            st.rerun()
        if here:
            st.caption(
                "Imported here: " + ", ".join(views.md(f"{r.name} ({r.queries} queries, {r.format})") for r in here)
            )
