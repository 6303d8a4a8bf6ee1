"""Curves: DRM, precision and recall against k from precomputed sweeps, beside the paper's numbers."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from app_pages.shared import resources, sidebar, widgets
from sac_core.dashboard import curve_entries, curve_views, curves, demo_sweep, state, views
from sac_core.dashboard.curves import paper

if TYPE_CHECKING:  # names only: pages call the project through sac_core.dashboard
    from sac_core.engine.data import Benchmark

s = sidebar.settings()
st.title("Curves: DRM, precision and recall against k")
roots = [curves.results_root(), curves.demo_results_root(s.cache_dir)]


@st.cache_data(show_spinner=False, max_entries=16)
def _csv(path: str, mtime: float) -> pd.DataFrame:
    return curves.read_table(Path(path))


def _read(path: Path) -> pd.DataFrame:
    return _csv(str(path), path.stat().st_mtime)


@st.cache_data(show_spinner=False, max_entries=16)
def _significance_at(path: str, mtime: float) -> pd.DataFrame:
    return curve_entries.load_significance(Path(path))


def _significance(path: Path) -> pd.DataFrame:
    """The sweep's paired tests (empty without a file, or for a file without pairs)."""
    return _significance_at(str(path), path.stat().st_mtime) if path.is_file() else pd.DataFrame()


@st.cache_data(show_spinner=False, max_entries=16)
def _results(_folder: curves.SweepFolder, stamp: tuple) -> pd.DataFrame:
    return curves.load_folder(_folder)


def _load(folder: curves.SweepFolder) -> pd.DataFrame:
    return _results(folder, tuple((str(p), p.stat().st_mtime) for p in folder.tables))


@st.cache_data(show_spinner=False, max_entries=16)
def _means(shown: pd.DataFrame, _per_query: pd.DataFrame | None, stamp: tuple) -> pd.DataFrame:
    """Means over k with their intervals, once per selection (a whole-benchmark sweep: about a second)."""
    return curves.mean_over_k(shown, per_query=_per_query)


def _demo_sweep_button() -> None:
    st.markdown(
        "Or run a small sweep on the demo corpus here (baseline and SAC, chunk 300 and 500; "
        "about a minute the first time):"
    )
    if st.button("Run the demo sweep", key="curves_demo"):
        demo = state.ensure_demo_corpus(s.cache_dir)
        sweep = demo_sweep.demo_grid(demo)
        bar = st.progress(0.0, text="Running the demo sweep …")
        try:
            demo_sweep.run_with_progress(
                sweep,
                demo,
                s.cache_dir,
                curves.demo_results_root(s.cache_dir) / sweep.name,
                resources.progress_callback(bar),
            )
        except state.LOAD_ERRORS as e:
            st.error(f"The demo sweep failed: {views.md(e)}")
            st.stop()
        bar.empty()
        st.rerun()


sweeps = curves.list_sweeps(roots)
if not sweeps:
    st.info(
        f"No sweep results yet: no `<name>/results.csv` under {views.md(roots[0])} (set `{curves.RESULTS_ENV}` to "
        "look elsewhere). Make one with\n\n"
        "```bash\nsac sweep --config sweeps/lbr-mini-grid.toml --data /path/to/legalbench-rag\n```\n\n"
        f"which writes {views.md(roots[0] / 'lbr-mini-grid')} (results.csv, per_query.csv.gz, significance.csv)."
    )
    _demo_sweep_button()
    st.stop()

sweep = st.selectbox(
    "Sweep",
    sweeps,
    index=curves.default_sweep(sweeps, curves.DEMO_SWEEPS if s.source.demo else curves.PREFERRED_SWEEPS),
    key="curves_sweep",
    format_func=lambda f: curves.sweep_label(f, roots[1]),
)
try:
    df = _load(sweep)
except (ValueError, OSError, pd.errors.ParserError) as e:
    st.error(views.md(e))
    st.stop()


def _sweep_bench(data: curves.SweepData) -> Benchmark | None:
    """The folder in use, loaded as the sweep's cells were (None: it has not the sweep's datasets)."""
    if not data.protocol or not data.datasets or not set(data.datasets) <= set(s.source.datasets):
        return None
    try:
        return resources.benchmark_of(s, data.protocol, data.datasets)
    except state.LOAD_ERRORS:
        return None


st.caption(views.md(curves.protocol_note(curves.sweep_data(df))))  # which protocol: not the README's, maybe
for line in curves.provenance(df):
    st.caption(views.md(line))
if problem := curves.data_check(df, _sweep_bench(curves.sweep_data(df))):
    st.warning(f"These figures were {views.md(problem)}: they describe that data, not the benchmark shown elsewhere.")

names = {
    "chunk_size": "Chunk size",
    "summary_chars": "Summary length",
    "semantic_weight": "Semantic weight (BM25 mix)",
    "model": "Embedding model",
}


def _selectors(options: dict[str, list]) -> dict[str, object]:
    """One select box per setting column, in one row; returns the picks."""
    defaults = curves.default_choices(options)
    picks: dict[str, object] = {}
    for cell, (col, values) in zip(st.columns(len(options)), options.items()):
        if not values:
            cell.selectbox(names.get(col, col), ["—"], disabled=True, key=f"curves_sel::{col}")
            continue
        picks[col] = cell.selectbox(
            names.get(col, col),
            values,
            index=values.index(defaults[col]),
            key=f"curves_sel::{sweep.path}::{col}::{values}",
            disabled=len(values) == 1,
            format_func=lambda v, c=col: curves.fmt_value(c, v),
        )
    return picks


choices = _selectors(curves.selector_options(df))
if extra := curves.selector_options(df, choices):  # settings that still vary, e.g. two seeds
    choices |= _selectors(extra)
setting = curve_entries.with_entries(curves.select(df, choices))  # one entry per configuration, never a mean of two
shown_setting = [views.md(views.breakable(f"{names.get(c, c)} {curves.fmt_value(c, v)}")) for c, v in choices.items()]
st.caption("Setting: " + " · ".join(shown_setting))  # the boxes above cut long values (a model's name)
# each on its own row: chips in a column scroll sideways out of sight; here they wrap
all_variants = curves.variant_order(setting[curves.ENTRY].tolist())
method_names = curve_entries.entry_names(setting)  # the catalogue's names, + the setting that differs
variants = st.multiselect(
    "Methods", all_variants, default=all_variants, key=f"curves_var::{sweep.path}::{','.join(all_variants)}",
    format_func=method_names.get, help=views.md("Their ids in the results: " + ", ".join(all_variants)),
)  # fmt: skip
all_datasets = curves.dataset_order(setting["dataset"].tolist())
datasets = st.multiselect(
    "Datasets", all_datasets, default=all_datasets, key=f"curves_ds::{sweep.path}::{','.join(all_datasets)}"
)
shown = curve_entries.pick(setting, variants, datasets)
if shown.empty:
    st.warning("No results for this selection.")
    st.stop()

chunk, chars, weight = choices.get("chunk_size"), choices.get("summary_chars"), choices.get("semantic_weight")
refs_k8 = paper.matching(chunk, chars, weight, k=8)
st.plotly_chart(curve_views.curves_figure(shown, curves.METRICS, refs_k8, method_names), width="stretch")
st.caption(
    "One line per method, its 95 % interval (bootstrap over queries) shaded; x = k on a log-2 axis. "
    "Black ✕ = the paper's SAC DRM at k = 8 per dataset "
    "(≈, read from its figure; other embedding model and protocol), shown when this setting matches "
    "the paper's main one (chunk 500, 150-character summaries, dense)."
)
st.download_button(
    "Download the shown data (CSV)",
    curves.to_csv_bytes(shown),
    key="curves_dl",
    file_name=f"{sweep.name}-selection.csv",
    mime="text/csv",
)

st.subheader("Mean over k, beside the paper")
mean_ds = st.selectbox("Dataset", curves.dataset_order(shown["dataset"].tolist()), key="curves_mean_ds")
per_query = _read(sweep.per_query) if sweep.per_query.is_file() else None
stamp = (str(sweep.per_query), sweep.per_query.stat().st_mtime) if per_query is not None else ()
means = _means(shown[shown["dataset"] == mean_ds], per_query, stamp)
refs_mean = paper.matching(chunk, chars, weight, k=None) if mean_ds == "ALL" else []
st.plotly_chart(curve_views.means_figure(means, refs_mean, names=method_names), width="stretch")
# the table under the bars, the page's whole width: beside them, at 1280 px, it showed DRM alone
table = curve_views.comparison_table(means, refs_mean, names=method_names)
st.dataframe(curve_views.shown_as_text(table), hide_index=True, width="stretch")
ks = ", ".join(sorted(set(",".join(means["ks"]).split(",")), key=int)) if len(means) else "—"
st.caption(
    f"Ours: each metric's mean over the k values of this sweep ({ks}), ± half its 95 % interval (bootstrap "
    "over queries; whiskers on the bars). Paper (hatched bars): Tables 1–2 of "
    "Reuter et al. 2025 — also means over k ∈ {1, 2, 4, …, 64} and over the four LegalBench-RAG datasets, "
    "but with thenlper/gte-large embeddings and the paper's query protocol; the baseline's ≈67 % DRM is "
    "approximate. Compare gaps and trends, not exact values. Paper numbers appear only for the settings "
    "it reports (dataset ALL; chunk 200/500/800 × 150/300 characters; weights 1/0.75/0.5/0.25 at 500/150)."
)
with st.expander("All published numbers used here"):
    st.dataframe(curve_views.paper_table(), hide_index=True, width="stretch")

if sweep.significance.is_file() or sweep.per_query.is_file():
    st.subheader("Significance: which queries flipped")
    try:
        sig = curve_entries.significance_view(_significance(sweep.significance), choices, shown)
    except ValueError as e:  # a file that is no table: said in one line, the flips below still shown
        st.error(views.md(e))
        sig = None
    if sig is not None and sig.empty:
        st.caption("No paired tests in this sweep between the methods shown (a sweep with one method per setting "
                   "has none); the queries that flipped are below.")  # fmt: skip
    elif sig is not None:
        st.caption(
            "Paired sign-flip permutation test per metric and k (two-sided; wins = queries where method b is better)."
        )
        percent = st.column_config.NumberColumn(format="%.1f%%")  # as every other figure of the page
        st.dataframe(
            curve_views.significance_shown(sig, method_names), hide_index=True, width="stretch", height=240,
            column_config={"p-value": st.column_config.NumberColumn(format="%.4f"), "mean of a": percent,
                           "mean of b": percent},
        )  # fmt: skip
    if sweep.per_query.is_file() and len(variants) >= 2:
        pick = st.columns(4)
        a = pick[0].selectbox("Method a", variants, index=0, key="curves_fa", format_func=method_names.get)
        b = pick[1].selectbox("Method b", variants, index=min(1, len(variants) - 1), key="curves_fb",
                              format_func=method_names.get)  # fmt: skip
        metric = pick[2].selectbox(
            "Metric", curves.METRICS, key="curves_fm", format_func=lambda m: curves.METRIC_LABELS.get(m, m)
        )
        k_values = sorted(shown["k"].unique().tolist())
        k = pick[3].selectbox("k", k_values, index=k_values.index(8) if 8 in k_values else 0, key="curves_fk")
        try:
            table = curves.flipped(per_query, shown, a, b, metric, int(k))
        except ValueError as e:
            st.error(views.md(e))
            st.stop()
        st.caption(
            f"{len(table)} queries whose {curves.METRIC_LABELS[metric]}@{k} differs between "
            f"{views.md(method_names[a])} and {views.md(method_names[b])}, biggest change first (change in points)."
        )
        percent = st.column_config.NumberColumn(format="%.1f%%")  # as every other figure of the page
        st.dataframe(curve_views.flips_shown(table, a, b, method_names), hide_index=True, width="stretch", height=300,
                     column_config={method_names[a]: percent, method_names[b]: percent,
                                    "change": st.column_config.NumberColumn(format="%+.1f pts")})  # fmt: skip
        if not table.empty:
            widgets.open_flipped_in_compare(s, curves.sweep_data(df), table, int(k))
