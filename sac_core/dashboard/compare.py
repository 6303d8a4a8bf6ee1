"""The Compare page's logic: which indexes are shown side by side, what building them would cost,
and how much of each gold span every index found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..engine.data import Benchmark, Query, Span
from ..engine.retrieval import as_spans
from ..engine.summaries import CostEstimate, SummaryConfig, estimate_cost

# re-exported for the Compare page
from ..engine.summaries import SummaryError as SummaryError
from ..engine.summaries import load_prompt as load_prompt
from ..experiments import Column, ColumnResult, RunConfig, default_columns
from ..experiments import Workspace as Workspace
from .highlight import covered


def compare_columns(base: RunConfig) -> tuple[Column, ...]:
    """The indexes shown side by side. The extractive provider ignores the prompt, so it gets one
    SAC column instead of two identical ones."""
    if base.summary.provider == "extractive":
        return (
            Column("Baseline", base.with_(method="baseline")),
            Column("SAC extractive", base.with_(method="sac", summary=replace(base.summary, prompt="generic"))),
        )
    return default_columns(base)


def pending_cost(bench: Benchmark, columns: Sequence[Column], data_dir: Path, cache_dir: Path) -> CostEstimate:
    """What building ``columns`` would still request from the ``openai`` provider (cached: free)."""
    texts = {fp: d.text for fp, d in bench.documents.items()}
    docs = tokens_in = tokens_out = 0
    usd = 0.0
    for col in columns:
        cfg = col.config
        if cfg.method != "sac" or cfg.summary.provider != "openai":
            continue
        est = estimate_cost(texts, cfg.summary.resolved(data_dir), cache_dir)
        docs, tokens_in, tokens_out, usd = (
            docs + est.documents,
            tokens_in + est.input_tokens,
            tokens_out + est.output_tokens,
            usd + est.usd,
        )
    return CostEstimate(docs, tokens_in, tokens_out, usd, estimated=True)


def gold_coverage(query: Query, results: Sequence[ColumnResult]) -> list[tuple[Span, dict[str, float]]]:
    """For each gold span: the share of its characters each column's top-k covers (0..1)."""
    return [(g, {r.column.name: covered(g, as_spans(r.hits)) for r in results}) for g in query.gold]


def summary_source(config: SummaryConfig, data_dir: Path) -> str:
    """Where a ``file`` provider reads its summaries, relative to the data directory when inside it."""
    path = config.resolved(data_dir).summary_file
    if path is None:
        return "(no summary file)"
    try:
        return f"{Path(path).relative_to(data_dir)} in the data directory"
    except ValueError:
        return str(path)
