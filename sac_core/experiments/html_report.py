"""A report to share: one self-contained HTML file for people who will not run the app.

Sections: the setting; metric-vs-k curves (plotly, its JavaScript inlined: the file makes no
network request when opened); means over k; LegalBench-RAG's precision@1 / recall@64 per
dataset; DRM, precision and recall at one k per dataset; the significance table; and example
queries that flipped between two methods, with each method's top chunks marked against gold.

Every string from data (variant and dataset names, queries, document text, file names) is
HTML-escaped, and Plotly labels too (Plotly reads a small HTML subset in them).
"""

from __future__ import annotations

import gzip
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.data import Benchmark, Span
from ..engine.metrics import HIGH, LOW
from .cells import SweepFolder
from .report import at_k, lbr_table, mean_over_k, plus_minus, provenance_lines
from .runs import read_run_text
from .significance import flipped_queries

if TYPE_CHECKING:  # imported where used: seconds to import, and `sac --help` stays instant
    import pandas as pd
    import plotly.graph_objects as go

CURVE_METRICS = ("drm", "precision", "recall")
LABELS = {"drm": "DRM", "precision": "precision", "recall": "recall"}
PALETTE = ("#6b7280", "#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777")
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; color: #111; }
h1 { font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.6rem 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; } th { background: #f5f5f5; }
td.text, th.text { text-align: left; }
.note { color: #555; font-size: 0.9rem; }
.query { background: #f8fafc; border-left: 4px solid #2563eb; padding: 0.5rem 0.8rem; margin-top: 1.2rem; }
.cols { display: flex; gap: 1rem; } .cols > div { flex: 1; min-width: 0; }
.hit { border: 1px solid #ddd; border-radius: 4px; padding: 0.4rem; margin: 0.4rem 0; font-size: 0.82rem; }
.hit.gold { border-left: 5px solid #16a34a; } .hit.wrong { border-left: 5px solid #dc2626; }
mark { background: #bbf7d0; }
"""


@dataclass(frozen=True)
class Example:
    """One query that flipped between methods ``a`` and ``b``: its change in ``metric@k`` and each
    method's ranked spans (``spans``: method → top spans)."""

    query_id: str
    metric: str
    k: int
    values: tuple[float, float]
    spans: Mapping[str, Sequence[Span]]


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _svg(text: object) -> str:
    return html.escape(str(text).replace("\n", " "), quote=True)


def _table(frame: pd.DataFrame, *, index: bool = True) -> str:
    """A DataFrame as an escaped HTML table (numbers with two decimals)."""
    return frame.to_html(index=index, escape=True, float_format=lambda v: f"{v:.2f}", na_rep="–", border=0)


def curves_figure(table: pd.DataFrame) -> go.Figure:
    """DRM, precision and recall (%) against k, one column per dataset, one line per variant."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    datasets = sorted(d for d in table["dataset"].unique() if d != "ALL") + (
        ["ALL"] if "ALL" in set(table["dataset"]) else []
    )
    variants = list(dict.fromkeys(table["variant"]))
    fig = make_subplots(
        rows=len(CURVE_METRICS), cols=len(datasets), shared_xaxes=True, shared_yaxes=True,
        column_titles=[_svg(d) for d in datasets], row_titles=[LABELS[m] for m in CURVE_METRICS],
        horizontal_spacing=0.02, vertical_spacing=0.05,
    )  # fmt: skip
    group = ["variant", "cell"] if "cell" in table.columns else ["variant"]
    for r, metric in enumerate(CURVE_METRICS, start=1):
        for c, dataset in enumerate(datasets, start=1):
            sub = table[table["dataset"] == dataset]
            for i, variant in enumerate(variants):
                for _, line in sub[sub["variant"] == variant].groupby(group[1:] or ["variant"], sort=False):
                    line = line.sort_values("k")
                    color = PALETTE[i % len(PALETTE)]
                    if f"{metric}{LOW}" in line.columns:  # the 95 % interval, shaded
                        fig.add_trace(
                            go.Scatter(
                                x=[*line["k"], *line["k"][::-1]],
                                y=[*(line[f"{metric}{HIGH}"] * 100), *(line[f"{metric}{LOW}"] * 100)[::-1]],
                                fill="toself", fillcolor=color, opacity=0.15, line={"width": 0},
                                hoverinfo="skip", showlegend=False, legendgroup=str(i),
                            ),
                            row=r, col=c,
                        )  # fmt: skip
                    fig.add_trace(
                        go.Scatter(
                            x=line["k"], y=line[metric] * 100, mode="lines+markers", name=_svg(variant),
                            legendgroup=str(i), showlegend=(r, c) == (1, 1), line={"color": PALETTE[i % len(PALETTE)]},
                        ),
                        row=r, col=c,
                    )  # fmt: skip
    ks = sorted(int(k) for k in table["k"].unique())
    fig.update_xaxes(type="log", tickvals=ks, ticktext=[str(k) for k in ks])
    fig.update_yaxes(ticksuffix="%", rangemode="tozero")
    fig.update_layout(
        height=240 * len(CURVE_METRICS) + 80, template="plotly_white", legend={"orientation": "h", "y": -0.1}
    )
    return fig


def _example_html(example: Example, bench: Benchmark | None, names: Sequence[str]) -> str:
    query = next((q for q in bench.queries if q.query_id == example.query_id), None) if bench else None
    text = query.text if query else example.query_id
    a, b = example.values
    head = (
        f'<div class="query"><b>{esc(example.query_id)}</b>: {esc(text)}<br>'
        f'<span class="note">{esc(LABELS.get(example.metric, example.metric))}@{example.k}: '
        f"{esc(names[0])} {a * 100:.1f} % → {esc(names[1])} {b * 100:.1f} %</span></div>"
    )
    cols = []
    for name in names:
        cards = []
        for rank, span in enumerate(example.spans.get(name, ()), start=1):
            gold_doc = query is not None and span.file_path in query.gold_files
            body = ""
            if bench is not None and span.file_path in bench.documents:
                body = "<br>" + _marked(bench.documents[span.file_path].text, span, query.gold if query else ())
            cards.append(
                f'<div class="hit {"gold" if gold_doc else "wrong"}">#{rank} {"✓" if gold_doc else "✗"} '
                f"{esc(span.file_path)} [{span.start}, {span.end}){body}</div>"
            )
        cols.append(f"<div><b>{esc(name)}</b>{''.join(cards) or '<p>nothing retrieved</p>'}</div>")
    return head + f'<div class="cols">{"".join(cols)}</div>'


def _marked(text: str, span: Span, gold: Sequence[Span], limit: int = 600) -> str:
    """The span's text (at most ``limit`` characters), the parts inside gold spans marked."""
    end = min(span.end, span.start + limit)
    marks = sorted((max(g.start, span.start), min(g.end, end)) for g in gold if g.file_path == span.file_path)
    out, pos = [], span.start
    for s, e in marks:
        if s >= e or e <= pos:
            continue
        s = max(s, pos)
        out.append(esc(text[pos:s]) + f"<mark>{esc(text[s:e])}</mark>")
        pos = e
    out.append(esc(text[pos:end]) + ("…" if end < span.end else ""))
    return "".join(out)


def _significance_html(significance: pd.DataFrame | None, k: int) -> list[str]:
    """The significance section: the paired tests at ``k`` (means in %), or why there are none."""
    sections = ['<h2 id="significance">Significance</h2>']
    if significance is None or significance.empty:
        return [*sections, '<p class="note">No per-query results next to these tables: no significance tests.</p>']
    sig = significance[significance["k"] == k] if "k" in significance.columns else significance
    pair = ("variant_a", "variant_b") if "variant_a" in sig.columns else ("a", "b")
    wanted = (*pair, "metric", "k", "mean_a", "mean_b", "diff", "p_value", "p_holm", "wins", "ties", "losses")
    shown = sig[[c for c in wanted if c in sig.columns]].copy()
    for c in ("mean_a", "mean_b"):
        shown[c] = shown[c] * 100
    if {"diff", "diff_low", "diff_high"} <= set(sig.columns):
        shown["diff"] = [
            f"{d * 100:+.2f} [{lo * 100:+.2f}, {hi * 100:+.2f}]"
            for d, lo, hi in zip(sig["diff"], sig["diff_low"], sig["diff_high"])
        ]
        shown = shown.rename(columns={"diff": "b − a (pts) [95 % interval]"})
    sections.append(
        f'<p class="note">At k = {k}; Fisher\'s randomisation test (paired sign flips, two-sided; p_holm: Holm-'
        "corrected over the family of comparisons); the difference's 95 % interval is a bootstrap over the paired "
        "queries; wins = queries where the second method is better; means in %.</p>"
        + shown.to_html(
            index=False,
            escape=True,
            border=0,
            float_format=lambda v: f"{v:.2f}",
            formatters={"p_value": "{:.4f}".format, "p_holm": "{:.4f}".format},
        )
    )
    return sections


def render(
    table: pd.DataFrame,
    *,
    title: str = "Retrieval report",
    k: int = 8,
    significance: pd.DataFrame | None = None,
    examples: Sequence[Example] = (),
    example_names: Sequence[str] = (),
    bench: Benchmark | None = None,
    notes: Sequence[str] = (),
    per_query: pd.DataFrame | None = None,
) -> str:
    """The report as one HTML document (see the module docstring); ``per_query``: the cells'
    per-query rows, for the intervals of the means over k."""
    figure = curves_figure(table).to_html(full_html=False, include_plotlyjs=True, config={"displaylogo": False})
    sections = [
        f"<h1>{esc(title)}</h1>",
        *[f'<p class="note">{esc(n)}</p>' for n in notes],
        '<h2 id="curves">Curves: DRM, precision and recall against k</h2>',
        *[f'<p class="note">{esc(line[:1].upper() + line[1:])}.</p>' for line in provenance_lines(table)],
        '<p class="note">Per query and k: DRM = share of the top-k chunks from a non-gold document; precision and '
        "recall = characters inside gold spans. Means per dataset; ALL = macro mean over datasets. Every mean "
        "carries its 95 % interval (a seeded bootstrap over queries, 2,000 resamples, stratified by dataset): "
        "shaded bands in the figure, ± half its width in the tables.</p>",
        figure,
        '<h2 id="means">Means over k (ALL datasets, %, ± half the 95 % interval)</h2>',
        _table(plus_minus(mean_over_k(table, per_query=per_query))),
        '<h2 id="lbr">LegalBench-RAG table: precision@1 and recall@64 per dataset (%, ± half the 95 % interval)</h2>',
        _table(lbr_table(table, text=True)),
        f'<h2 id="at-k">Per dataset at k = {k} (%, ± half the 95 % interval)</h2>',
        *[f"<h3>{LABELS[m]}@{k}</h3>" + _table(at_k(table, k, m, text=True)) for m in CURVE_METRICS],
    ]
    sections += _significance_html(significance, k)
    sections.append('<h2 id="examples">Queries that flipped</h2>')
    if examples:
        sections.append(
            f'<p class="note">The queries whose value changed most between {esc(example_names[0])} and '
            f"{esc(example_names[1])}; ✓ a chunk of a gold document, ✗ another document; marked text lies in a "
            "gold span.</p>"
        )
        sections += [_example_html(e, bench, example_names) for e in examples]
    else:
        sections.append('<p class="note">No examples: needs a sweep folder with runs and two variants.</p>')
    body = "\n".join(sections)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>{body}</body></html>\n"
    )


def examples_from_folder(
    folder: Path, table: pd.DataFrame, per_query: pd.DataFrame, a: str, b: str, metric: str = "drm", k: int = 8,
    n: int = 5, shown: int = 3,
) -> list[Example]:  # fmt: skip
    """The ``n`` queries whose ``metric@k`` changed most between variants ``a`` and ``b`` of sweep
    ``folder`` (their first cells in ``table``), with each one's top ``shown`` spans from ``runs/``."""
    cells = {v: table.loc[table["variant"] == v, "cell"].iloc[0] for v in (a, b) if (table["variant"] == v).any()}
    if len(cells) < 2:
        return []
    sub = per_query[per_query["cell"].isin(cells.values())]
    flips = flipped_queries(sub, cells[a], cells[b], metric, k, key="cell").head(n)
    runs = {}
    for variant, cell in cells.items():
        path = SweepFolder(folder).run_path(str(cell))
        runs[variant] = (
            read_run_text(gzip.decompress(path.read_bytes()).decode("utf-8"), path) if path.is_file() else {}
        )
    return [
        Example(str(row["query_id"]), metric, k, (float(row[cells[a]]), float(row[cells[b]])),
                {v: runs[v].get(str(row["query_id"]), [])[:shown] for v in (a, b)})
        for _, row in flips.iterrows()
    ]  # fmt: skip
