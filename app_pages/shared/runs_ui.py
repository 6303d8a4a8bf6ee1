"""Shared UI (not a page): the "Import a run" panel of Compare. Logic in ``sac_core.dashboard.runs``."""

from __future__ import annotations

import streamlit as st

from sac_core.dashboard import runs, state, views

from .resources import LOAD_ERRORS


def import_run_panel(s: state.Settings) -> None:
    """Upload another retriever's run (JSONL or TREC) for the benchmark shown; on success it becomes
    a column choice here, a Review column and a Curves line (folder "imported")."""
    here = runs.imported_here(s)
    label = f"Import a run ({len(here)} imported for this benchmark)" if here else "Import a run"
    with st.expander(label, icon=":material/upload_file:"):
        st.caption(
            "A run of your own retriever, ranked best first, one line per query of this benchmark: JSONL "
            '`{"query": …, "snippets": [{"file_path": …, "span": [start, end], "score": …}]}` '
            "(LegalBench-RAG's snippet shape; `query_id` may name the query) or TREC with doc ids "
            "`file_path#start-end`. Every line is checked; nothing is kept unless all of it is valid."
        )
        upload = st.file_uploader("Run file", type=["jsonl", "json", "trec", "txt", "run", "gz"], key="runs_file",
                                  max_upload_size=runs.MAX_UPLOAD // (1024 * 1024))  # fmt: skip
        name = st.text_input("Name", value=runs.suggested_name(upload.name) if upload else "", key="runs_name",
                             max_chars=64, help="Letters, digits, '.', '_' or '-'; a name is given once.")  # fmt: skip
        if st.button("Import and score", key="runs_import", disabled=upload is None or not name.strip()):
            try:
                with st.spinner("Checking every line and scoring the run …"):
                    done = runs.import_upload(upload.getvalue(), upload.name, name, s)  # type: ignore[union-attr]
            except (runs.RunFileError, runs.RunStoreError, *LOAD_ERRORS) as e:
                st.error(views.md(e))
                return
            st.session_state["runs_added"] = done.key
            st.rerun()
        if here:
            st.caption(
                "Imported here: " + ", ".join(views.md(f"{r.name} ({r.queries} queries, {r.format})") for r in here)
            )
