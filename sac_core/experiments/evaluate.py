"""The whole experiment: benchmark → (summaries) → pool → indexes → retrieval → metrics."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..engine.data import Benchmark, Span
from ..engine.embedding import Embedder
from ..engine.metrics import mean_by_dataset, score_run
from ..engine.retrieval import Pool, Retriever, as_spans, build_pool
from ..engine.summaries import summarize_documents
from .config import RunConfig


@dataclass
class Evaluation:
    config: RunConfig
    per_query: pd.DataFrame  # one row per (query, k)
    results: pd.DataFrame  # one row per (dataset incl. ALL, k), metrics then config columns
    run: dict[str, list[Span]]  # query id → ranked spans, up to max k
    seconds: dict[str, float] = field(default_factory=dict)  # wall time per stage


def document_summaries(
    bench: Benchmark,
    config: RunConfig,
    data_dir: Path,
    cache_dir: Path,
    api_key: str | None = None,
    progress: bool = True,
) -> dict[str, str] | None:
    """``file_path → summary`` for SAC, ``None`` for the baseline."""
    if config.method != "sac":
        return None
    summary = config.summary.resolved(data_dir)
    texts = {fp: doc.text for fp, doc in bench.documents.items()}
    records = summarize_documents(texts, summary, cache_dir, api_key=api_key, progress=progress)
    return {fp: r.summary for fp, r in records.items()}


def make_pool(bench: Benchmark, config: RunConfig, summaries: dict[str, str] | None) -> Pool:
    return build_pool(bench.documents, config.chunker, config.chunk_size, config.chunk_overlap, summaries)


def run_queries(
    retriever: Retriever,
    bench: Benchmark,
    config: RunConfig,
    progress: bool = False,
) -> tuple[dict[str, list[Span]], pd.DataFrame]:
    """Every benchmark query through ``retriever``: the run (ranked spans up to max k) and its per-query metrics."""
    hits = retriever.search([q.text for q in bench.queries], config.max_k, progress)
    run = {q.query_id: as_spans(h) for q, h in zip(bench.queries, hits)}
    return run, score_run(bench.queries, run, config.ks, config.metric_mode)


def evaluate(
    bench: Benchmark,
    config: RunConfig,
    data_dir: Path,
    cache_dir: Path,
    api_key: str | None = None,
    progress: bool = True,
    embedder: Embedder | None = None,
) -> Evaluation:
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    summaries = document_summaries(bench, config, data_dir, cache_dir, api_key, progress)
    seconds["summaries"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    pool = make_pool(bench, config, summaries)
    embedder = embedder or Embedder(config.model, cache_dir, backend=config.backend)
    retriever = Retriever(pool, embedder, config.semantic_weight, config.fusion_depth, progress)
    seconds["index"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    run, per_query = run_queries(retriever, bench, config, progress)
    seconds["retrieve"] = time.perf_counter() - t0
    results = mean_by_dataset(per_query)
    counts = {"n_queries": len(bench.queries), "n_documents": len(bench.documents), "n_chunks": len(pool)}
    for key, value in {**config.columns(), **counts}.items():
        results[key] = value
    results.insert(1, "variant", results.pop("variant"))
    return Evaluation(config, per_query, results, run, seconds)


def format_results(results: pd.DataFrame, metrics: tuple[str, ...] = ("drm", "precision", "recall")) -> str:
    """A readable table: one row per (dataset, variant, metric), one column per k, in percent."""
    long = results.melt(id_vars=["dataset", "variant", "k"], value_vars=list(metrics), var_name="metric")
    wide = long.pivot_table(index=["dataset", "variant", "metric"], columns="k", values="value", sort=False)
    wide.columns = [f"@{k}" for k in wide.columns]
    return (wide * 100).round(2).to_string()
