"""One query, several indexes side by side: the engine behind the dashboard's Compare page and ``sac bench``.

A :class:`Workspace` loads a benchmark once and builds one
:class:`~sac_core.engine.retrieval.Retriever` per column (by default: baseline, SAC with the
generic prompt, SAC with the expert prompt). Columns are data, so more methods can be added
without touching the UI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..engine.data import Benchmark, Query, load_benchmark
from ..engine.embedding import Embedder, shared_embedder
from ..engine.metrics import score_query
from ..engine.retrieval import Hit, Retriever, as_spans
from .config import RunConfig
from .evaluate import document_summaries, make_pool

Progress = Callable[[float, str], None]  # (fraction done 0..1, message)


@dataclass(frozen=True)
class Column:
    name: str
    config: RunConfig


def default_columns(base: RunConfig) -> tuple[Column, ...]:
    """Baseline, SAC generic and SAC expert, all with ``base``'s chunking, model and summary length."""
    return (
        Column("Baseline", base.with_(method="baseline")),
        Column("SAC generic", base.with_(method="sac", summary=replace(base.summary, prompt="generic"))),
        Column("SAC expert", base.with_(method="sac", summary=replace(base.summary, prompt="expert"))),
    )


@dataclass(frozen=True)
class ColumnResult:
    column: Column
    hits: list[Hit]
    gold_document: list[bool]  # per hit: is its document a gold document of the query?
    metrics: dict[str, float] | None  # DRM, precision, recall, ... at k; None for free text
    summaries: dict[str, str]  # summary prepended to each involved document's chunks ({} for baseline)


class Workspace:
    """A benchmark with one retriever per column, built once and then queried many times."""

    def __init__(
        self,
        bench: Benchmark,
        columns: Sequence[Column],
        data_dir: Path,
        cache_dir: Path,
        api_key: str | None = None,
        on_progress: Progress | None = None,
    ) -> None:
        self.bench = bench
        self.columns = tuple(columns)
        self.queries = {q.query_id: q for q in bench.queries}
        self.summaries: dict[str, dict[str, str]] = {}
        self.retrievers: dict[str, Retriever] = {}
        self.embedders: dict[str, Embedder] = {}
        self.cache_queries = True  # False: every search runs the model (for honest latency figures)
        report = on_progress or (lambda fraction, message: None)
        for i, col in enumerate(self.columns):
            cfg = col.config
            share = 1.0 / len(self.columns)
            report(i * share, f"{col.name}: summaries")
            self.summaries[col.name] = document_summaries(bench, cfg, data_dir, cache_dir, api_key, False) or {}
            embedder = shared_embedder(self.embedders, cfg.model, cache_dir, cfg.backend)
            pool = make_pool(bench, cfg, self.summaries[col.name] if cfg.method == "sac" else None)
            report(i * share, f"{col.name}: indexing {len(pool):,} chunks")
            step = lambda done, total, i=i, name=col.name, share=share: report(
                (i + done / max(total, 1)) * share, f"{name}: embedding {done:,}/{total:,} chunks"
            )
            self.retrievers[col.name] = Retriever(pool, embedder, cfg.semantic_weight, cfg.fusion_depth, False, step)
        report(1.0, "ready")

    @classmethod
    def load(
        cls,
        data_dir: Path,
        cache_dir: Path,
        base: RunConfig,
        columns: Sequence[Column] | None = None,
        api_key: str | None = None,
        on_progress: Progress | None = None,
    ) -> Workspace:
        bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
        return cls(bench, columns or default_columns(base), data_dir, cache_dir, api_key, on_progress)

    def search(self, text: str, k: int, query: Query | None = None) -> list[ColumnResult]:
        """Run ``text`` through every column; with a benchmark ``query`` also score it against gold."""
        vectors: dict[int, np.ndarray] = {}  # one query encoding per embedder, shared by its columns
        out = []
        for col in self.columns:
            retriever = self.retrievers[col.name]
            if retriever.dense is not None and id(retriever.embedder) not in vectors:
                vectors[id(retriever.embedder)] = retriever.embedder.encode([text], False, cache=self.cache_queries)
            hits = retriever.search([text], k, vectors=vectors.get(id(retriever.embedder)))[0]
            gold_files = query.gold_files if query else frozenset()
            metrics = score_query(as_spans(hits), query, k, col.config.metric_mode) if query else None
            involved = {h.chunk.file_path for h in hits} | set(gold_files)
            summaries = {fp: s for fp, s in self.summaries[col.name].items() if fp in involved}
            out.append(ColumnResult(col, hits, [h.chunk.file_path in gold_files for h in hits], metrics, summaries))
        return out

    def timed_search(self, text: str, k: int, query: Query | None = None) -> tuple[list[ColumnResult], float]:
        """``search`` and its wall time in milliseconds (for the latency benchmark)."""
        t0 = time.perf_counter()
        results = self.search(text, k, query)
        return results, (time.perf_counter() - t0) * 1000
