"""The whole experiment: benchmark → (summaries) → pool → indexes → retrieval → metrics."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..engine.data import Benchmark, Span
from ..engine.embedding import Embedder
from ..engine.metrics import mean_by_dataset, score_run
from ..engine.retrieval import Retriever, as_spans
from .config import RunConfig
from .index_store import document_summaries, open_retriever
from .signals import with_signals


@dataclass
class Evaluation:
    config: RunConfig
    per_query: pd.DataFrame  # one row per (query, k)
    results: pd.DataFrame  # one row per (dataset incl. ALL, k), metrics then config columns
    run: dict[str, list[Span]]  # query id → ranked spans, up to max k
    seconds: dict[str, float] = field(default_factory=dict)  # wall time per stage


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
    save_index: bool = False,
) -> Evaluation:
    """Run ``config`` on ``bench``. A fresh saved index for ``config`` is loaded instead of rebuilt
    (see :mod:`.index_store`); ``save_index`` saves the index this run builds."""
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    summaries = document_summaries(bench, config, data_dir, cache_dir, api_key, progress)
    seconds["summaries"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    embedder = embedder or Embedder(config.model, cache_dir, backend=config.backend)
    retriever = open_retriever(bench, config, cache_dir, embedder, summaries, progress, save=save_index)
    retriever = with_signals(retriever, bench, config, data_dir, cache_dir, embedder, api_key)
    pool = retriever.pool
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
