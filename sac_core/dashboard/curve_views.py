"""The Curves page's figures and tables: metric-vs-k curves, means over k as bars, and our means
beside the paper's (the results they draw are read and filtered by :mod:`.curves`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..engine.metrics import DEFAULT_KS
from ..experiments import PaperPoint, paper
from ..experiments.methods import BASELINE, SAC_METHOD
from .curves import METRIC_LABELS, METRICS, colors, dataset_order, variant_order
from .text import svg_text


def _line(line: pd.DataFrame, metric: str, variant: str, dataset: str, color: str, *, legend: bool) -> go.Scatter:
    """One cell's curve of ``metric`` over k (its rows sorted by k), in percent."""
    line = line.sort_values("k")
    return go.Scatter(
        x=line["k"],
        y=line[metric] * 100,
        mode="lines+markers",
        name=svg_text(variant),
        legendgroup=variant,
        showlegend=legend,
        line={"color": color},
        text=[f"{svg_text(variant)}<br>{svg_text(dataset)}"] * len(line),
        hovertemplate=f"%{{text}}<br>k=%{{x}}<br>{metric}=%{{y:.1f}}%<extra></extra>",
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


def curves_figure(df: pd.DataFrame, metrics: Sequence[str] = METRICS, refs: Sequence[PaperPoint] = ()) -> go.Figure:
    """One row per metric, one column per dataset, one line per variant (per cell), x = k on a
    log-2 axis, y in percent. ``refs`` at a given k are drawn as labelled black markers."""
    datasets = dataset_order(df["dataset"].tolist()) or ["ALL"]
    variants = variant_order(df["variant"].tolist())
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
                for _, line in sub[sub["variant"] == variant].groupby("cell", sort=False):
                    trace = _line(line, metric, variant, dataset, color[variant], legend=variant not in shown)
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


def means_figure(means: pd.DataFrame, refs: Sequence[PaperPoint] = (), metrics: Sequence[str] = METRICS) -> go.Figure:
    """Grouped bars: each metric's mean over k per variant (one dataset's rows), and the paper's
    means over k as hatched bars labelled as such."""
    variants = variant_order(means["variant"].tolist())
    color = colors(variants)
    labels = [METRIC_LABELS.get(m, m) for m in metrics]
    fig = go.Figure()
    for variant in variants:
        rows = means[means["variant"] == variant]
        values = [rows[m].mean() * 100 for m in metrics]
        fig.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=svg_text(variant),
                marker_color=color[variant],
                text=[f"{v:.1f}" for v in values],
                textposition="outside",
            )
        )
    for method in (SAC_METHOD, BASELINE):
        pts = {p.metric: p for p in refs if p.method == method.name and p.k is None}
        if not pts:
            continue
        values = [pts[m].value * 100 if m in pts else None for m in metrics]
        approx = any(p.approx for p in pts.values())
        sources = "/".join(sorted({p.source for p in pts.values()}))
        what = SAC_METHOD.title if method is SAC_METHOD else BASELINE.name
        fig.add_trace(
            go.Bar(
                x=labels,
                y=values,
                name=f"paper {what}, mean over k ({sources}{', approx.' if approx else ''})",
                marker={
                    "color": "white",
                    "line": {"color": "black", "width": 1.5},
                    "pattern": {"shape": "/" if method is SAC_METHOD else "x"},
                },
                text=[f"{'≈' if approx else ''}{v:.1f}" if v is not None else "" for v in values],
                textposition="outside",
                hovertext=[pts[m].label if m in pts else "" for m in metrics],
                hoverinfo="text",
            )
        )
    fig.update_layout(
        barmode="group",
        yaxis={"ticksuffix": "%", "rangemode": "tozero"},
        height=360,
        margin={"l": 40, "r": 10, "t": 30, "b": 30},
        template="plotly_white",
        legend={"orientation": "h", "y": -0.15},
    )
    return fig


def comparison_table(means: pd.DataFrame, refs: Sequence[PaperPoint], metrics: Sequence[str] = METRICS) -> pd.DataFrame:
    """Ours (each variant's mean over k) and the paper's means over k, in percent: one row per
    source, one column per metric (empty where the paper reports nothing)."""
    rows = []
    for variant in variant_order(means["variant"].tolist()):
        sub = means[means["variant"] == variant]
        rows.append(
            {"source": variant, **{METRIC_LABELS.get(m, m): round(float(sub[m].mean()) * 100, 2) for m in metrics}}
        )
    for method in (SAC_METHOD, BASELINE):
        pts = {p.metric: p for p in refs if p.method == method.name and p.k is None}
        if pts:
            approx = "≈" if any(p.approx for p in pts.values()) else ""
            name = f"paper {SAC_METHOD.title if method is SAC_METHOD else BASELINE.name} {approx}".strip()
            rows.append(
                {
                    "source": name,
                    **{METRIC_LABELS.get(m, m): (round(pts[m].value * 100, 2) if m in pts else None) for m in metrics},
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


def paper_table() -> pd.DataFrame:
    """Every published number used on the page (the paper's baseline has no summary length: ``—``)."""
    return shown_as_text(paper.table())
