"""Shared UI (not a page): the query picker of Compare and Map (same widgets, same URL state)."""

from __future__ import annotations

import streamlit as st

from sac_core.dashboard import compare, selection, views


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
