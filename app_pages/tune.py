"""Tune: chunk size, summaries and the BM25 mix on the pooled corpus, answered at once where computed."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from app_pages.shared import caches, resources, sidebar
from sac_core.dashboard import builds, curves, state, tune, tune_stops, views

s = sidebar.settings()
st.title("Tune: chunk size, summaries and the BM25 mix")
st.caption(
    "The chosen methods (the baseline and SAC to begin with; any method Compare offers can be added, Recommended "
    "among them) on the same pooled corpus as Compare and the sweeps (every chosen dataset, one index). The "
    "sliders stop at the settings that answer at once from results computed before (the committed sweeps, or "
    "settings built here earlier): no embedding. Any other setting is computed on request, below the sliders."
)
bench = resources.benchmark(s)
if not bench.queries:
    st.warning(
        "The selected datasets have no queries (their benchmark files list no tests), so there is nothing to "
        "evaluate. Choose other datasets in the sidebar, or add queries to the benchmark files."
    )
    st.stop()
st.caption(views.md(tune.protocol_line(s.protocol, bench)))  # which protocol: the README's headline is on paper


@st.cache_data(show_spinner=False, max_entries=4)
def _published(stamp: tuple) -> dict[str, tuple]:
    return tune_stops.published_stops(Path(path) for path, _ in stamp)


def _published_stops() -> dict[str, tuple]:
    """The committed sweeps' values of each slider (read again when a results table changes)."""
    sweeps = curves.list_sweeps([curves.results_root(), curves.demo_results_root(s.cache_dir)])
    return _published(tuple((str(f.path), f.results.stat().st_mtime) for f in sweeps if f.results.is_file()))


lookup = resources.tune_lookup(s)
base = s.base_config()
providers = s.source.providers
# The widgets' values live in the session, so each slider can mark its instant stops before it is drawn.
if st.session_state.get("tune_provider") not in providers:
    st.session_state["tune_provider"] = s.provider if s.provider in providers else providers[0]
provider = st.session_state["tune_provider"]
lengths = state.summary_lengths(provider) or tuple(range(50, 601, 10))
st.session_state.setdefault("tune_chunk", 500)
st.session_state.setdefault("tune_weight", 1.0)
if st.session_state.get("tune_chars") not in lengths:  # e.g. 220 from extractive, then the file provider
    wanted = st.session_state.get("tune_chars", 150)
    st.session_state["tune_chars"] = min(lengths, key=lambda n: abs(n - wanted))
st.session_state.setdefault("tune_k", 8)
current = tune.TuneSetting(
    st.session_state["tune_chunk"], provider, st.session_state["tune_chars"], st.session_state["tune_weight"]
)
offered = tune.tune_methods(base)
saved = st.session_state.get("tune_methods", [m for m in tune.default_methods(base) if m in offered])
st.session_state["tune_methods"] = [m for m in saved if m in offered]  # e.g. an imported run since deleted
chosen = st.multiselect("Methods", list(offered), key="tune_methods", format_func=lambda m: offered[m],
                        help="every method Compare offers, at its named setting (Recommended among them)")  # fmt: skip
presets = tune.method_presets(base, provider, chosen)
if not presets:
    st.warning("Choose at least one method.")
    st.stop()

published = _published_stops()
asked: dict[str, list] = st.session_state.setdefault("tune_asked", {})  # values computed on request here
grids = {"chunk_size": tune.CHUNK_SIZES, "chars": lengths, "semantic_weight": tune.WEIGHTS}
instant = {
    field: tune.instant_stops(lookup, bench, base, current, field,
                              tune_stops.candidates(grid, [*published[field], *asked.get(field, [])]), presets)
    for field, grid in grids.items()
}  # fmt: skip
stops = {field: tune_stops.stops(instant[field], getattr(current, field)) for field in grids}

row = st.columns([3, 2, 2, 3])
chunk_size = row[0].select_slider("Chunk size (characters)", stops["chunk_size"], key="tune_chunk")
row[0].caption(tune.instant_caption(stops["chunk_size"], instant["chunk_size"]))
row[1].selectbox(
    "Summary provider", providers, key="tune_provider", format_func=lambda p: sidebar.PROVIDER_LABELS.get(p, p),
    help="file: the LLM summaries of summaries/llm.jsonl (150 and 300 characters); extractive: any length",
)  # fmt: skip
chars = row[2].select_slider("Summary length (characters)", stops["chars"], key="tune_chars")
row[2].caption(tune.instant_caption(stops["chars"], instant["chars"]))
weight = row[3].select_slider("Semantic weight (1 = dense, 0 = BM25)", stops["semantic_weight"], key="tune_weight")
row[3].caption(tune.instant_caption(stops["semantic_weight"], instant["semantic_weight"]))


def _ask_for(setting: tune.TuneSetting) -> None:
    """Before the next run (the button's callback): the sliders set to ``setting``, its build started."""
    for field, key in (("chunk_size", "tune_chunk"), ("chars", "tune_chars"), ("semantic_weight", "tune_weight")):
        st.session_state[key] = getattr(setting, field)
        asked.setdefault(field, []).append(getattr(setting, field))
    st.session_state["tune_build_now"] = True


with st.expander("Another setting: computed on request (its cost first)"):
    other = st.columns(3)
    wanted = tune.TuneSetting(
        int(other[0].number_input("Chunk size (characters)", 50, 5000, int(chunk_size), step=10, key="tune_other_chunk")),
        provider,
        int(other[1].selectbox("Summary length (characters)", lengths, index=lengths.index(chars), key="tune_other_chars")),
        float(other[2].number_input("Semantic weight", 0.0, 1.0, float(weight), step=0.05, key="tune_other_weight")),
    )  # fmt: skip
    todo = {n: c for n, c in wanted.variants(base, presets).items() if lookup.find(c, bench) is None}
    if not todo:
        st.caption(views.md(f"{wanted.label}: computed already, it answers at once (move the sliders to it)."))
    else:
        cost = tune_stops.build_cost(todo, bench, s.cache_dir)
        st.caption(views.md(f"{wanted.label}, for {', '.join(todo)}: {cost.describe()}."))
    st.button("Compute this setting in the background" if todo else "Show this setting", key="tune_other_go",
              on_click=_ask_for, args=(wanted,))  # fmt: skip

row = st.columns([2, 5])
k = row[0].select_slider("k", tune.KS, key="tune_k")
st.session_state["tune_datasets"] = tune.shown_datasets(st.session_state.get("tune_datasets"), bench.datasets)
shown = row[1].multiselect(
    "Queries of (means over these datasets; the index always holds them all)", list(bench.datasets),
    key="tune_datasets",
)  # fmt: skip
if not shown:
    st.warning("Choose at least one dataset whose queries to show.")
    st.stop()

setting = tune.TuneSetting(int(chunk_size), provider, int(chars), float(weight))
variants = setting.variants(base, presets)
found = {name: lookup.find(config, bench) for name, config in variants.items()}
missing = {name: variants[name] for name, hit in found.items() if hit is None}
build_now = bool(st.session_state.pop("tune_build_now", None))  # asked for below the sliders

if missing:
    jobs = tune.cell_jobs(missing, s.source.data_dir, s.cache_dir)
    statuses = [caches.build_manager(s.cache_dir).status(job.key) for job in jobs]
    running = any(status is not None and status.active for status in statuses)
    if builds.index_saved(missing.values(), s.cache_dir):  # e.g. Compare built them: only the queries to embed
        st.info(f"**{views.md(setting.label)}**: its indexes are built (Compare, or a build before); evaluating "
                "every query on them now, in the background.")  # fmt: skip
        resources.build_panel(s, jobs)
        st.stop()
    cost = tune_stops.build_cost(missing, bench, s.cache_dir)
    st.warning(
        f"**{views.md(setting.label)}** is not computed yet for {views.md(', '.join(missing))}: "
        f"{views.md(cost.describe())}. It runs in the background, on the whole pooled corpus, and every session "
        "can use it afterwards."
    )
    if running or build_now or st.button("Build this setting in the background", type="primary", key="tune_build"):
        resources.build_panel(s, jobs)
    st.stop()

table = tune.results(found, shown)
label = setting.label + ("" if set(shown) == set(bench.datasets) else f" · queries of {', '.join(shown)}")
now = st.session_state.get("tune_now")
if now is None or now[0] != label:  # a new answer: the last one becomes "before"
    st.session_state["tune_prev"] = now
    st.session_state["tune_now"] = now = (label, table)
prev = st.session_state.get("tune_prev")
prev_label, prev_table = prev if prev is not None else (None, None)

st.subheader(f"At k = {k}")
st.markdown(f"**Now:** {views.md(label)}  \n**Before:** {views.md(prev_label) if prev_label else '—'}")
sources = {f"{views.md(name)}: {hit.source} ({hit.backend})" for name, hit in found.items() if hit is not None}
st.caption("Answered from saved per-query results, no embedding: " + "; ".join(sorted(sources)) + ".")
diff = tune.diff_table(table, prev_table, int(k))
st.dataframe(
    tune.diff_view(diff, prev_table is not None), hide_index=True, width="stretch",
    column_config={"previous": "before", "new": "now (± half the 95 % interval)", "change": "change"},
)  # fmt: skip
st.caption(
    "DRM: lower is better; precision and recall: higher is better. Macro means over the shown datasets' queries; "
    "± half the 95 % bootstrap interval over queries. A change is called better or worse only when the previous "
    "value lies outside the new one's interval (and it shows at one decimal): otherwise it is within the interval."
)
st.subheader("DRM, precision and recall over k (this setting)")
st.plotly_chart(tune.curves_figure(table), width="stretch")
with st.expander("Table (all k, all metrics)"):
    st.dataframe(tune.full_view(table), hide_index=True, width="stretch")
    st.caption("Percent, ± half the 95 % bootstrap interval over queries.")
