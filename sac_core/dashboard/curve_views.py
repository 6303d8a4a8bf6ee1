"""The Curves page's figures and tables: metric-vs-k curves, means over k as bars, and our means
beside the paper's (the results they draw are read and filtered by :mod:`.curves`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..engine.metrics import DEFAULT_KS, HIGH, LOW
from ..experiments import METHODS, PaperPoint, paper
from ..experiments.methods import BASELINE, SAC_METHOD
from .curves import ENTRY, METRIC_LABELS, METRICS, colors, dataset_order, variant_order
from .text import svg_text
from .wording import words

PAPER_PATTERNS = {SAC_METHOD.name: "/", BASELINE.name: "x"}  # the hatching of each reported method's bars


def _band(line: pd.DataFrame, metric: str, variant: str, color: str) -> go.Scatter | None:
    """The 95 % interval of one cell's curve as a shaded band (None when the table has no interval)."""
    low, high = f"{metric}{LOW}", f"{metric}{HIGH}"
    if low not in line.columns or high not in line.columns or line[[low, high]].isna().all().all():
        return None
    line = line.sort_values("k")
    return go.Scatter(
        x=[*line["k"], *line["k"][::-1]],
        y=[*(line[high] * 100), *(line[low] * 100)[::-1]],
        fill="toself",
        fillcolor=color,
        opacity=0.15,
        line={"width": 0},
        hoverinfo="skip",
        legendgroup=variant,
        showlegend=False,
        name="95 % interval",
    )


def _line(
    line: pd.DataFrame, metric: str, variant: str, dataset: str, color: str, *, legend: bool, name: str
) -> go.Scatter:
    """One cell's curve of ``metric`` over k (its rows sorted by k), in percent, named ``name``."""
    line = line.sort_values("k")
    low, high = f"{metric}{LOW}", f"{metric}{HIGH}"
    if low in line.columns and high in line.columns:
        spans = [f"{lo * 100:.1f}–{hi * 100:.1f}" for lo, hi in zip(line[low], line[high])]
        text = [f"{svg_text(name)}<br>{svg_text(dataset)}<br>95 % interval {span}%" for span in spans]
    else:
        text = [f"{svg_text(name)}<br>{svg_text(dataset)}"] * len(line)
    return go.Scatter(
        x=line["k"],
        y=line[metric] * 100,
        mode="lines+markers",
        name=svg_text(name),
        legendgroup=variant,
        showlegend=legend,
        line={"color": color},
        text=text,
        hovertemplate=f"%{{text}}<br>k=%{{x}}<br>{METRIC_LABELS.get(metric, metric)}=%{{y:.1f}}%<extra></extra>",
    )


def _paper_marker(p: PaperPoint, *, legend: bool) -> go.Scatter:
    """A published value at its k: a labelled black cross."""
    return go.Scatter(
        x=[p.k],
        y=[p.value * 100],
        mode="markers+text",
        text=["paper"],
        textposition="top center",
        marker={"symbol": "x", "size": 11, "color": "black"},
        name="paper (reference)",
        legendgroup="paper",
        showlegend=legend,
        hovertext=p.label,
        hoverinfo="text",
    )


def curves_figure(
    df: pd.DataFrame,
    metrics: Sequence[str] = METRICS,
    refs: Sequence[PaperPoint] = (),
    names: Mapping[str, str] | None = None,
) -> go.Figure:
    """One row per metric, one column per dataset, one line per configuration (``df`` keyed by
    :data:`~.curves.ENTRY`; per cell) with its 95 % interval as a shaded band, x = k on a log-2 axis,
    y in percent; a configuration is named by ``names`` (its entry without). ``refs`` at a given k are
    drawn as labelled black markers."""
    names = names or {}
    datasets = dataset_order(df["dataset"].tolist()) or ["ALL"]
    variants = variant_order(df[ENTRY].tolist())
    color = colors(variants)
    fig = make_subplots(
        rows=len(metrics),
        cols=len(datasets),
        shared_xaxes=True,
        shared_yaxes=True,
        column_titles=[svg_text(d) for d in datasets],
        row_titles=[METRIC_LABELS.get(m, m) for m in metrics],
        horizontal_spacing=0.02,
        vertical_spacing=0.05,
    )
    shown: set[str] = set()
    for r, metric in enumerate(metrics, start=1):
        for c, dataset in enumerate(datasets, start=1):
            sub = df[df["dataset"] == dataset]
            for variant in variants:
                for _, line in sub[sub[ENTRY] == variant].groupby("cell", sort=False):
                    band = _band(line, metric, variant, color[variant])
                    if band is not None:
                        fig.add_trace(band, row=r, col=c)
                    trace = _line(line, metric, variant, dataset, color[variant], legend=variant not in shown,
                                  name=names.get(variant, variant))  # fmt: skip
                    fig.add_trace(trace, row=r, col=c)
                    shown.add(variant)
            for p in refs:
                if p.metric == metric and p.dataset == dataset and p.k is not None:
                    fig.add_trace(_paper_marker(p, legend="paper" not in shown), row=r, col=c)
                    shown.add("paper")
    ks = sorted(df["k"].unique().tolist()) or list(DEFAULT_KS)
    fig.update_xaxes(type="log", tickvals=ks, ticktext=[str(k) for k in ks])
    for r in range(1, len(metrics) + 1):
        fig.update_yaxes(ticksuffix="%", rangemode="tozero", row=r, col=1)
    for c in range(1, len(datasets) + 1):
        fig.update_xaxes(title_text="k", row=len(metrics), col=c)
    fig.update_layout(
        height=230 * len(metrics) + 80,
        margin={"l": 50, "r": 30, "t": 40, "b": 40},
        legend={"orientation": "h", "y": -0.12},
        template="plotly_white",
    )
    return fig


def means_figure(
    means: pd.DataFrame,
    refs: Sequence[PaperPoint] = (),
    metrics: Sequence[str] = METRICS,
    names: Mapping[str, str] | None = None,
) -> go.Figure:
    """Grouped bars: each metric's mean over k per configuration (:data:`~.curves.ENTRY`, named by
    ``names``; one dataset's rows), and the paper's means over k as hatched bars labelled as such. A
    label that does not fit above its bar is hidden (hover shows it), never overlapped."""
    names = names or {}
    variants = variant_order(means[ENTRY].tolist())
    color = colors(variants)
    labels = [METRIC_LABELS.get(m, m) for m in metrics]
    fig = go.Figure()
    for variant in variants:
        rows = means[means[ENTRY] == variant]
        values = [rows[m].mean() * 100 for m in metrics]
        bounds = [_interval(rows, m) for m in metrics]
        fig.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=svg_text(names.get(variant, variant)),
                marker_color=color[variant],
                text=[f"{v:.1f}%" for v in values],
                textposition="outside",
                error_y=_error_bars(bounds, values),
            )
        )
    for method, what in paper.REPORTED.items():
        pts = {p.metric: p for p in refs if p.method == method and p.k is None}
        if pts:
            fig.add_trace(_paper_bars(method, what, pts, metrics))
    fig.update_layout(
        barmode="group",
        yaxis={"ticksuffix": "%", "rangemode": "tozero"},
        height=360,
        margin={"l": 40, "r": 10, "t": 30, "b": 30},
        template="plotly_white",
        legend={"orientation": "h", "y": -0.15},
        uniformtext={"minsize": 9, "mode": "hide"},
    )
    return fig


def _paper_bars(method: str, what: str, pts: Mapping[str, PaperPoint], metrics: Sequence[str]) -> go.Bar:
    """The paper's means over k of one reported method as hatched bars, labelled as such."""
    values = [pts[m].value * 100 if m in pts else None for m in metrics]
    approx = any(p.approx for p in pts.values())
    sources = "/".join(sorted({p.source for p in pts.values()}))
    return go.Bar(
        x=[METRIC_LABELS.get(m, m) for m in metrics],
        y=values,
        name=f"paper {what}, mean over k ({sources}{', approx.' if approx else ''})",
        marker={
            "color": "white",
            "line": {"color": "black", "width": 1.5},
            "pattern": {"shape": PAPER_PATTERNS.get(method, ".")},
        },
        text=[f"{'≈' if approx else ''}{v:.1f}%" if v is not None else "" for v in values],
        textposition="outside",
        hovertext=[pts[m].label if m in pts else "" for m in metrics],
        hoverinfo="text",
    )


def _error_bars(bounds: Sequence[tuple[float, float] | None], values: Sequence[float]) -> dict | None:
    """Plotly's asymmetric error bars from 95 % intervals (percent), or None when one is unknown."""
    known = [b for b in bounds if b is not None]
    if len(known) < len(bounds):
        return None
    return {
        "type": "data",
        "symmetric": False,
        "array": [b[1] - v for b, v in zip(known, values)],
        "arrayminus": [v - b[0] for b, v in zip(known, values)],
        "color": "#374151",
        "thickness": 1,
    }


def _interval(rows: pd.DataFrame, metric: str) -> tuple[float, float] | None:
    """A single cell's 95 % interval of ``metric`` in percent (None when unknown or several cells)."""
    low, high = f"{metric}{LOW}", f"{metric}{HIGH}"
    if len(rows) != 1 or low not in rows.columns or pd.isna(rows[low].iloc[0]):
        return None
    return float(rows[low].iloc[0]) * 100, float(rows[high].iloc[0]) * 100


def _pm(rows: pd.DataFrame, metric: str) -> str:
    """A variant's mean over k in percent, ``± half`` its 95 % interval when known."""
    value = float(rows[metric].mean()) * 100
    bounds = _interval(rows, metric)
    return f"{value:.1f}%" if bounds is None else f"{value:.1f}% ± {(bounds[1] - bounds[0]) / 2:.1f}"


def comparison_table(
    means: pd.DataFrame,
    refs: Sequence[PaperPoint],
    metrics: Sequence[str] = METRICS,
    names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Ours (each configuration's mean over k, :data:`~.curves.ENTRY` named by ``names``, ± half its
    95 % interval when known) and the paper's means over k, in percent: one row per source, one column
    per metric (empty where the paper reports nothing)."""
    names = names or {}
    rows: list[dict[str, object]] = []
    for variant in variant_order(means[ENTRY].tolist()):
        sub = means[means[ENTRY] == variant]
        rows.append({"source": names.get(variant, variant), **{METRIC_LABELS.get(m, m): _pm(sub, m) for m in metrics}})
    for method, what in paper.REPORTED.items():
        pts = {p.metric: p for p in refs if p.method == method and p.k is None}
        if pts:
            approx = "≈" if any(p.approx for p in pts.values()) else ""
            name = f"paper {what} {approx}".strip()
            rows.append(
                {
                    "source": name,
                    **{METRIC_LABELS.get(m, m): (f"{pts[m].value * 100:.1f}%" if m in pts else None) for m in metrics},
                }
            )
    return pd.DataFrame(rows, columns=["source", *[METRIC_LABELS.get(m, m) for m in metrics]])


NOT_REPORTED = "—"  # a number the paper does not give (never a literal "None" in a table)


def shown_as_text(table: pd.DataFrame) -> pd.DataFrame:
    """A small table for people: numbers as written (``12.34``, ``150``), gaps as ``—``. Streamlit
    prints a missing value as "None"; a column of text shows exactly what is meant."""

    def cell(value: object) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
            return NOT_REPORTED
        if isinstance(value, float):
            return f"{value:g}" if value == int(value) and abs(value) < 1e6 else f"{value:.2f}"
        return str(value)

    return table.astype(object).map(cell)


PAPER_COLUMNS = {"chunk_size": "chunk size", "summary_chars": "summary length", "semantic_weight": "semantic weight"}


def paper_table() -> pd.DataFrame:
    """Every published number used on the page, for people: methods and metrics by name, values in
    percent with one decimal (``≈`` where read from a figure), the baseline's summary length ``—``."""
    table = paper.table()
    value = [f"{'≈' if approx else ''}{v:.1f}%" for v, approx in zip(table["value_%"], table["approx"])]
    table = table.drop(columns=["value_%", "approx"]).assign(
        method=[METHODS.get(m).title if m in METHODS else m for m in table["method"]],
        metric=[METRIC_LABELS.get(m, m) for m in table["metric"]],
        value=value,
    )
    return shown_as_text(table.rename(columns=PAPER_COLUMNS))


def significance_shown(sig: pd.DataFrame, names: Mapping[str, str]) -> pd.DataFrame:
    """The significance rows for people: methods by name, metrics as words, means in percent (×100,
    shown with one decimal), columns as words; the ids stay in the CSV files."""
    out = sig.copy()
    for col in ("variant_a", "variant_b"):
        if col in out.columns:
            out[col] = [names.get(v, v) for v in out[col]]
    if "metric" in out.columns:
        out["metric"] = [METRIC_LABELS.get(m, m) for m in out["metric"]]
    for col in ("mean_a", "mean_b"):
        if col in out.columns:
            out[col] = out[col] * 100
    return out.rename(columns=lambda c: words(str(c)))


def flips_shown(table: pd.DataFrame, a: str, b: str, names: Mapping[str, str]) -> pd.DataFrame:
    """The flipped queries for people: ``query, dataset``, the two methods by name and ``change``, in
    percent (×100, shown with one decimal) and points."""
    out = table[["query_id", "dataset", a, b, "change"]].copy()
    for col in (a, b, "change"):
        out[col] = out[col] * 100
    return out.rename(columns={"query_id": "query", a: names.get(a, a), b: names.get(b, b)})
