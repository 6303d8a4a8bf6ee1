"""Shared UI (not a page): the query picker of Compare and Map (same widgets, same URL state), and
the way other pages open a query there (same tab, same session, same data folder)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from sac_core.dashboard import curve_open, curves, demo_picks, selection, state, views, wording

from .resources import benchmark_of
from .sidebar import data_keys

if TYPE_CHECKING:  # names only: pages call the project through sac_core.dashboard
    from sac_core.engine.data import Query
    from sac_core.experiments import Workspace


def pick_query(ws: Workspace, found: demo_picks.Lookup | None = None) -> tuple[Query | None, str, int]:
    """(benchmark query or None for free text, the text asked, k). The selection comes from the URL
    on a session's first visit (without one: the typical query of ``found``, the committed per-query
    results), then from this session's widgets, and is written back to the URL. A results folder
    skipped because a table did not parse is named in a warning."""
    cells = None if found is None else found.cells
    for line in () if found is None else found.skipped:
        st.warning(views.md(line))
    ids = {ds: [q.query_id for q in ws.bench.queries if q.dataset == ds] for ds in ws.bench.datasets}
    ids = {ds: qids for ds, qids in ids.items() if qids}  # datasets with benchmark queries

    # The selection: from the URL on a session's first visit, then from this session (widgets).
    saved = st.session_state.get("cmp_sel")
    if not isinstance(saved, selection.Selection):
        saved = selection.parse_selection(st.query_params.to_dict())
        if cells is not None:
            saved = demo_picks.opening(saved, demo_picks.picks(cells, saved.k))
    saved = selection.reconcile(saved, ids)
    _keep("cmp_text", saved.text)
    _keep("cmp_k", saved.k)

    if ids:
        _keep("cmp_dataset", saved.dataset, valid=ids)
        top = st.columns([1.2, 5, 1.6])
        dataset = top[0].selectbox("Dataset", list(ids), key="cmp_dataset")
        query_key = f"cmp_query::{dataset}"
        _keep(query_key, saved.query_id if saved.query_id in ids[dataset] else ids[dataset][0], valid=ids[dataset])
        query_id = top[1].selectbox(
            f"Benchmark query ({len(ids[dataset])} in {views.md(dataset)}; type to search)",
            ids[dataset],
            key=query_key,
            format_func=lambda qid: wording.query_option(qid, ws.queries[qid].text),  # the question first
        )
        k = top[2].slider("k (chunks per index)", selection.K_MIN, selection.K_MAX, key="cmp_k")
        label = "… or type your own question (free text has no gold spans: no ✓/✗ and no metrics)"
        text = st.text_input(label, key="cmp_text", max_chars=selection.MAX_TEXT).strip()
        if cells is not None:
            _demo_picker(ws, cells, None if text else query_id, int(k))
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


def _demo_picker(ws: Workspace, cells: demo_picks.SweepCells, query_id: str | None, k: int) -> None:
    """A picker of the queries computed from ``cells`` (typical, biggest gain, biggest loss), and what
    the query shown is among them."""
    found = demo_picks.picks(cells, k)
    st.selectbox(  # a plain label: a label is also the box's accessible name, read without Markdown
        "Demo query: typical, biggest gain or biggest loss against the baseline",
        found, index=None, key="cmp_demo", format_func=demo_picks.Pick.label, on_change=_show_pick, args=(ws,),
        placeholder="the queries that show the typical effect, the largest gain and the largest loss",
    )  # fmt: skip
    if labels := demo_picks.describe(query_id, found):
        st.caption(views.md(f"This query is the {'; the '.join(labels)}, in the per-query results of {cells.sweep}."))
    else:
        st.caption(views.md(f"The demo queries come from the per-query results of {cells.sweep}."))


def _show_pick(ws: Workspace) -> None:
    """Before the next run (the picker's callback): the query widgets set to the picked query."""
    pick = st.session_state.get("cmp_demo")
    if pick is not None and pick.query_id in ws.queries:
        dataset = ws.queries[pick.query_id].dataset
        st.session_state["cmp_dataset"] = dataset
        st.session_state[f"cmp_query::{dataset}"] = pick.query_id
        st.session_state["cmp_text"] = ""
    st.session_state["cmp_demo"] = None


def _keep(key: str, default: object, valid: object = None) -> None:
    """Give widget ``key`` its value (this session's, else ``default``; ``default`` too when it is not
    in ``valid``) before it is drawn, every run. A run that stopped before drawing it (a build in
    progress, no dataset chosen) keeps its value on the server while the browser forgets the widget
    and would draw it afresh at its own default (k = 1 instead of 4): a value set here is sent along."""
    value = st.session_state.get(key, default)
    st.session_state[key] = value if valid is None or value in valid else default  # type: ignore[operator]


def _select_in_compare(chosen: selection.Selection, protocol_key: str, protocol: str, datasets_key: str,
                       datasets: list[str]) -> None:  # fmt: skip
    """Before the next run (a button's callback): the sidebar's protocol and datasets, then Compare's
    widgets, set to ``chosen``; Compare reads them when it opens (the next run goes there)."""
    _forget()
    st.session_state["curves_open_go"] = True
    st.session_state[protocol_key] = protocol
    st.session_state[datasets_key] = datasets
    st.session_state["cmp_sel"] = chosen
    st.session_state["cmp_dataset"] = chosen.dataset
    st.session_state[f"cmp_query::{chosen.dataset}"] = chosen.query_id
    st.session_state["cmp_text"] = ""
    st.session_state["cmp_k"] = chosen.k


def open_flipped_in_compare(s: state.Settings, data: curves.SweepData, table: pd.DataFrame, k: int) -> None:
    """A flipped query of a sweep opened on Compare, in this tab and session, when the sidebar's data
    folder is the data the sweep ran on; otherwise a line saying which data the link needs. When
    opening would switch the sidebar's protocol or build indexes first, it asks: what it would do and
    about how long, or the query on the sidebar's smaller protocol instead (issue 45)."""
    if st.session_state.pop("curves_open_go", None):  # a button below was clicked: its callback chose
        st.switch_page("app_pages/compare.py")
    known = data.protocol in state.PROTOCOLS and set(data.datasets) <= set(s.source.datasets)
    try:
        bench = benchmark_of(s, str(data.protocol), data.datasets) if known else None
        same = bench is not None and data.matches(bench)
    except state.LOAD_ERRORS:
        bench, same = None, False
    if not same or bench is None:
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
    protocol, methods = str(data.protocol), st.session_state.get("cmp_methods")
    plan = curve_open.open_plan(s, protocol, data.datasets, bench, methods)
    protocol_key, datasets_key = data_keys(s)
    target = (chosen, protocol_key, protocol, datasets_key, list(data.datasets))
    if plan.ready:
        row[1].button("Open in Compare", key="curves_open", on_click=_select_in_compare, args=target)
        return
    if st.session_state.get("curves_open_ask") != (chosen.query_id, protocol):
        row[1].button("Open in Compare", key="curves_open", on_click=_ask, args=((chosen.query_id, protocol),))
        return
    _ask_first(s, plan, chosen, target, list(data.datasets), methods)


def _ask(what: tuple[str, str]) -> None:
    """Before the next run: ask about opening (query id, protocol) rather than open it."""
    st.session_state["curves_open_ask"] = what


def _forget() -> None:
    st.session_state.pop("curves_open_ask", None)


def _ask_first(s: state.Settings, plan: curve_open.OpenPlan, chosen: selection.Selection, target: tuple,
               datasets: list[str], methods: list[str] | None) -> None:  # fmt: skip
    """The question asked before a costly opening: what it does and its total time, the choice to go
    ahead, to open the query on the sidebar's smaller protocol instead (when it holds it), or not."""
    st.warning(views.md(f"Opening {chosen.query_id} on Compare {plan.describe(s.protocol)}."))
    buttons = st.columns(3)
    cost = f" (about {curve_open.fmt_duration(plan.seconds)})" if plan.missing else ""
    buttons[0].button(f"Build and open on {plan.protocol}{cost}", key="curves_open_build",
                      on_click=_select_in_compare, args=target)  # fmt: skip
    other = curve_open.alternative(s, plan.protocol)
    try:
        there = benchmark_of(s, other, datasets) if other else None
    except state.LOAD_ERRORS:
        there = None
    if other and there is not None and curve_open.holds(there, chosen.query_id):
        alt = curve_open.open_plan(s, other, datasets, there, methods)
        cost = "ready" if not alt.missing else f"about {curve_open.fmt_duration(alt.seconds)}"
        args = (chosen, data_keys(s)[0], other, data_keys(s)[1], datasets)
        buttons[1].button(f"Open on {other} instead ({cost})", key="curves_open_smaller",
                          on_click=_select_in_compare, args=args)  # fmt: skip
        st.caption(views.md(f"On {other}, the query is ranked among that protocol's documents: its ranks can differ "
                            "from this sweep's."))  # fmt: skip
    elif other:
        st.caption(views.md(f"{chosen.query_id} is not among the queries of protocol {other}."))
    buttons[2].button("Cancel", key="curves_open_cancel", on_click=_forget)
