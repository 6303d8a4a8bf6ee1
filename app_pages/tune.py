"""Tune: change chunking, summaries and the BM25/semantic weight, rebuild a small subset, compare."""

from __future__ import annotations

from dataclasses import replace

import plotly.express as px
import streamlit as st

from app_pages import shared as ui
from sac_core.dashboard import compare, curves, state, tune, views
from sac_core.dashboard.curves import METRIC_LABELS

s = ui.settings()
st.title("Tune: try a setting on one dataset")
st.caption(
    "Pick a setting and press **Apply**: the indexes are rebuilt for one dataset's queries and the "
    "documents they cite (summaries and embeddings come from the caches when present), and the new "
    "metrics are shown beside the previous setting's."
)
bench = ui.benchmark(s)
if not bench.queries:
    st.warning(
        "The selected datasets have no queries (their benchmark files list no tests), so there is nothing to "
        "evaluate. Choose other datasets in the sidebar, or add queries to the benchmark files."
    )
    st.stop()

with st.form("tune_form"):
    row = st.columns(3)
    dataset = row[0].selectbox("Dataset (subset)", list(bench.datasets), key="tune_dataset")
    chunk_size = row[1].slider("Chunk size (characters)", 100, 1500, 500, step=50, key="tune_chunk")
    overlap = row[2].slider("Chunk overlap (characters)", 0, 300, 0, step=10, key="tune_overlap")
    row = st.columns(3)
    providers = s.source.providers
    provider = row[0].selectbox(
        "Summary provider",
        providers,
        key="tune_provider",
        index=providers.index(s.provider) if s.provider in providers else 0,
        format_func=lambda p: ui.PROVIDER_LABELS.get(p, p),
        help="file: only 150 or 300 characters; extractive: any length",
    )
    chars = row[1].slider(
        "Summary length (characters)",
        50,
        600,
        150,
        step=10,
        key="tune_chars",
        help="The file provider has 150 and 300 only: other lengths snap to the nearer one.",
    )
    weight = row[2].slider("Semantic weight (1 = dense, 0 = BM25)", 0.0, 1.0, 1.0, step=0.05, key="tune_weight")
    k = st.select_slider("k", [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64], value=8, key="tune_k")
    applied = st.form_submit_button("Apply", type="primary")

lengths = state.summary_lengths(provider)
if lengths and chars not in lengths:
    chars = min(lengths, key=lambda n: abs(n - chars))
    st.caption(f"The file provider has {' and '.join(map(str, lengths))}-character summaries: using {chars}.")
setting = tune.TuneSetting(dataset, int(chunk_size), int(overlap), provider, int(chars), float(weight), int(k))

if applied:
    st.session_state["tune_pending"] = setting
pending = st.session_state.get("tune_pending")
if isinstance(pending, tune.TuneSetting):
    if pending.chunk_overlap >= pending.chunk_size:
        st.session_state.pop("tune_pending")
        st.error("The overlap must be smaller than the chunk size.")
        st.stop()
    config = pending.config(s.base_config())
    subset = bench.subset((pending.dataset,))
    ui.confirm_openai(
        replace(s, provider=pending.provider, chars=pending.chars),
        subset,
        compare.compare_columns(config),
        f"tune::{pending}",
    )
    bar = st.progress(0.0, text="Building the indexes …")
    try:
        table = tune.evaluate_setting(
            subset,
            config,
            s.source.data_dir,
            s.cache_dir,
            ui.progress_callback(bar),
            ui.api_key(replace(s, provider=pending.provider)),
        )
    except ui.LOAD_ERRORS as e:
        st.error(f"Could not evaluate this setting: {views.md(e)}")
        table = None
    finally:
        bar.empty()
        st.session_state.pop("tune_pending", None)
    if table is not None:
        st.session_state["tune_prev"] = st.session_state.get("tune_now")
        st.session_state["tune_now"] = (pending, table)

now = st.session_state.get("tune_now")
prev = st.session_state.get("tune_prev")
if now is None:
    st.info("Press **Apply** to evaluate the setting above.")
    st.stop()

now_setting, now_table = now
prev_setting, prev_table = prev if prev is not None else (None, None)
show_k = now_setting.k
st.subheader(f"At k = {show_k}")
st.markdown(
    f"**Now:** {views.md(now_setting.label)}  \n**Before:** {views.md(prev_setting.label) if prev_setting else '—'}"
)

diff = tune.diff_table(now_table, prev_table, show_k)
view = diff.assign(
    metric=diff["metric"].map(lambda m: METRIC_LABELS.get(m, m)),
    previous=(diff["previous"] * 100).round(2),
    new=(diff["new"] * 100).round(2),
    change=(diff["change"] * 100).round(2),
    better=diff["better"].map(lambda b: "" if b is None else ("✓ better" if b else "✗ worse")),
)
if prev_table is None:
    view = view.drop(columns=["previous", "change", "better"])
st.dataframe(
    view,
    hide_index=True,
    width="stretch",
    column_config={
        "previous": st.column_config.NumberColumn("previous %", format="%.2f"),
        "new": st.column_config.NumberColumn("new %", format="%.2f"),
        "change": st.column_config.NumberColumn("change (pts)", format="%+.2f"),
    },
)
st.caption("DRM: lower is better; precision and recall: higher is better. Means over the dataset's queries.")

st.subheader("DRM, precision and recall over k (this setting)")
long = now_table.melt(
    id_vars=["index", "variant", "k"], value_vars=["drm", "precision", "recall"], var_name="metric", value_name="value"
)
long["value"] *= 100
long["metric"] = long["metric"].map(lambda m: METRIC_LABELS.get(m, m))
names = list(dict.fromkeys(long["index"]))
fig = px.line(
    long,
    x="k",
    y="value",
    color="index",
    facet_col="metric",
    markers=True,
    log_x=True,
    labels={"value": "%", "index": "index"},
    template="plotly_white",
    height=320,
    color_discrete_map={n: curves.PALETTE[i % len(curves.PALETTE)] for i, n in enumerate(names)},
)
fig.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
ks = sorted(long["k"].unique().tolist())
fig.update_xaxes(tickvals=ks, ticktext=[str(x) for x in ks])
fig.update_yaxes(matches=None, rangemode="tozero", showticklabels=True)
st.plotly_chart(fig, width="stretch")
with st.expander("Table (all k, all metrics)"):
    st.dataframe(now_table, hide_index=True, width="stretch")
