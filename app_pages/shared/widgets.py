"""Shared UI (not a page): the query picker of Compare and Map (same widgets, same URL state), and
the way other pages open a query there (same tab, same session, same data folder)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from sac_core.dashboard import compare, curves, selection, state, views

from .resources import LOAD_ERRORS, benchmark_of
from .sidebar import data_keys


def pick_query(ws: compare.Workspace) -> tuple[compare.Query | None, str, int]:
    """(benchmark query or None for free text, the text asked, k). The selection comes from the URL
    on a session's first visit, then from this session's widgets, and is written back to the URL."""
    ids = {ds: [q.query_id for q in ws.bench.queries if q.dataset == ds] for ds in ws.bench.datasets}
    ids = {ds: qids for ds, qids in ids.items() if qids}  # datasets with benchmark queries

    # The selection: from the URL on a session's first visit, then from this session (widgets).
    saved = st.session_state.get("cmp_sel")
    if not isinstance(saved, selection.Selection):
        saved = selection.parse_selection(st.query_params.to_dict())
    saved = selection.reconcile(saved, ids)
    st.session_state.setdefault("cmp_text", saved.text)
    st.session_state.setdefault("cmp_k", saved.k)

    if ids:
        if st.session_state.get("cmp_dataset") not in ids:
            st.session_state["cmp_dataset"] = saved.dataset
        top = st.columns([1.2, 5, 1.6])
        dataset = top[0].selectbox("Dataset", list(ids), key="cmp_dataset")
        query_key = f"cmp_query::{dataset}"
        if st.session_state.get(query_key) not in ids[dataset]:
            st.session_state[query_key] = saved.query_id if saved.query_id in ids[dataset] else ids[dataset][0]
        query_id = top[1].selectbox(
            f"Benchmark query ({len(ids[dataset])} in {views.md(dataset)}; type to search)",
            ids[dataset],
            key=query_key,
            format_func=lambda qid: f"{qid} · {ws.queries[qid].text[:160]}",
        )
        k = top[2].slider("k (chunks per index)", selection.K_MIN, selection.K_MAX, key="cmp_k")
        label = "… or type your own question (free text has no gold spans: no ✓/✗ and no metrics)"
        text = st.text_input(label, key="cmp_text", max_chars=selection.MAX_TEXT).strip()
    else:  # documents without a gold file (e.g. from `sac ingest`): free-text questions only
        dataset, query_id = None, None
        top = st.columns([6, 1.6])
        label = "Your question (these documents have no gold spans: no ✓/✗ and no metrics)"
        text = top[0].text_input(label, key="cmp_text", max_chars=selection.MAX_TEXT).strip()
        k = top[1].slider("k (chunks per index)", selection.K_MIN, selection.K_MAX, key="cmp_k")
        if not text:
            st.info(
                f"{len(ws.bench.documents):,} documents, no benchmark questions: type a question above, e.g. "
                "*Which law governs the agreement?* or *How long must confidential information be kept secret?*"
            )
            st.stop()

    chosen = selection.Selection(dataset, query_id, text, int(k))
    st.session_state["cmp_sel"] = chosen
    st.query_params.from_dict(selection.selection_params(chosen))  # a shareable link to this view

    query = None if text or query_id is None else ws.queries[query_id]
    asked = text or (query.text if query is not None else "")
    return query, asked, int(k)


def _select_in_compare(chosen: selection.Selection, protocol_key: str, protocol: str, datasets_key: str,
                       datasets: list[str]) -> None:  # fmt: skip
    """Before the next run (a button's callback): the sidebar's protocol and datasets, then Compare's
    widgets, set to ``chosen``; Compare reads them when it opens."""
    st.session_state[protocol_key] = protocol
    st.session_state[datasets_key] = datasets
    st.session_state["cmp_sel"] = chosen
    st.session_state["cmp_dataset"] = chosen.dataset
    st.session_state[f"cmp_query::{chosen.dataset}"] = chosen.query_id
    st.session_state["cmp_text"] = ""
    st.session_state["cmp_k"] = chosen.k


def open_flipped_in_compare(s: state.Settings, data: curves.SweepData, table: pd.DataFrame, k: int) -> None:
    """A flipped query of a sweep opened on Compare, in this tab and session, when the sidebar's data
    folder is the data the sweep ran on; otherwise a line saying which data the link needs."""
    known = data.protocol in state.PROTOCOLS and set(data.datasets) <= set(s.source.datasets)
    try:
        same = known and data.matches(benchmark_of(s, str(data.protocol), data.datasets))
    except LOAD_ERRORS:
        same = False
    if not same:
        st.caption(
            f"Opening these queries on the Compare page needs the data this sweep ran on ({views.md(data.describe())}); "
            "the data folder in the sidebar holds other data."
        )
        return
    row = st.columns([4, 1])
    rows = list(zip(table["query_id"], table["dataset"]))
    pick = row[0].selectbox("Flipped query", range(len(rows)), key="curves_open_pick",
                            format_func=lambda i: f"{rows[i][0]} ({rows[i][1]})")  # fmt: skip
    query_id, dataset = rows[int(pick)]
    chosen = selection.Selection(str(dataset), str(query_id), "", min(selection.K_MAX, max(selection.K_MIN, k)))
    protocol_key, datasets_key = data_keys(s)
    if row[1].button("Open in Compare", key="curves_open", on_click=_select_in_compare,
                     args=(chosen, protocol_key, str(data.protocol), datasets_key, list(data.datasets))):  # fmt: skip
        st.switch_page("app_pages/compare.py")
