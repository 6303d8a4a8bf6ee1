"""The Compare page's logic: which indexes are shown side by side, opening their saved indexes (or
the background build that makes them), what building them would cost, and how much of each gold
span every index found. Names the page needs from elsewhere are re-exported (``import X as X``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..engine.data import Benchmark, Span
from ..engine.data import Query as Query
from ..engine.embedding import Embedder as Embedder
from ..engine.retrieval import Retriever, as_spans
from ..engine.summaries import CostEstimate, SummaryConfig, estimate_cost
from ..engine.summaries import SummaryError as SummaryError
from ..engine.summaries import load_prompt as load_prompt
from ..experiments import Column, ColumnResult, RunConfig, default_columns
from ..experiments import Workspace as Workspace
from ..experiments.index_store import document_summaries, load_retriever
from .builds import BuildJob
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


class NotBuilt(LookupError):
    """A column's saved index is missing or stale: it has to be built first."""


def open_column(
    bench: Benchmark, column: Column, data_dir: Path, cache_dir: Path, embedder: Embedder, api_key: str | None = None
) -> tuple[Retriever, dict[str, str]]:
    """The column's retriever from its fresh saved index, and its summaries ({} for a baseline);
    raises :class:`NotBuilt` when the index is missing or stale (never builds: that is a job)."""
    config = column.config
    summaries = document_summaries(bench, config, data_dir, cache_dir, api_key, progress=False)
    retriever = load_retriever(bench, config, cache_dir, embedder, summaries)
    if retriever is None:
        raise NotBuilt(column.name)
    return retriever, summaries or {}


def index_job(column: Column, data_dir: Path, cache_dir: Path) -> BuildJob:
    """The background build that makes ``column``'s saved index."""
    return BuildJob("index", Path(data_dir), Path(cache_dir), column.config, f"{column.name} ({column.config.variant})")
