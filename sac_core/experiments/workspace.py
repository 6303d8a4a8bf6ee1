"""One query, several indexes side by side: the engine behind the dashboard's Compare page and ``sac bench``.

A :class:`Workspace` loads a benchmark once and builds one
:class:`~sac_core.engine.retrieval.Retriever` per column (by default: baseline, SAC with the
generic prompt, SAC with the expert prompt). Columns are data, so more methods can be added
without touching the UI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..engine.data import Benchmark, Query, load_benchmark
from ..engine.embedding import Embedder, shared_embedder
from ..engine.metrics import score_query
from ..engine.retrieval import Hit, Retriever, as_spans
from .config import RunConfig
from .index_store import document_summaries, open_retriever
from .signals import with_signals

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
        retrievers: Mapping[str, Retriever],
        summaries: Mapping[str, Mapping[str, str]],
    ) -> None:
        """Columns over retrievers already opened (``retrievers`` and ``summaries`` by column name;
        a baseline column has no summaries). :meth:`open` opens them."""
        self.bench = bench
        self.columns = tuple(columns)
        self.queries = {q.query_id: q for q in bench.queries}
        self.retrievers = dict(retrievers)
        self.summaries = {name: dict(summaries.get(name, {})) for name in self.retrievers}
        self.cache_queries = True  # False: every search runs the model (for honest latency figures)

    @classmethod
    def open(
        cls,
        bench: Benchmark,
        columns: Sequence[Column],
        data_dir: Path,
        cache_dir: Path,
        api_key: str | None = None,
        on_progress: Progress | None = None,
        save: bool = False,
    ) -> Workspace:
        """One retriever per column: a fresh saved index is loaded (seconds), otherwise the index is
        built (and saved when ``save``)."""
        summaries: dict[str, dict[str, str]] = {}
        retrievers: dict[str, Retriever] = {}
        embedders: dict[str, Embedder] = {}
        report = on_progress or (lambda fraction, message: None)
        for i, col in enumerate(columns):
            cfg = col.config
            share = 1.0 / len(columns)
            report(i * share, f"{col.name}: summaries")
            summaries[col.name] = document_summaries(bench, cfg, data_dir, cache_dir, api_key, False) or {}
            embedder = shared_embedder(embedders, cfg.model, cache_dir, cfg.backend)
            sac = summaries[col.name] if cfg.method == "sac" else None
            report(i * share, f"{col.name}: opening the index")
            step = lambda done, total, i=i, name=col.name, share=share: report(
                (i + done / max(total, 1)) * share, f"{name}: embedding {done:,}/{total:,} chunks"
            )
            retriever = open_retriever(bench, cfg, cache_dir, embedder, sac, False, step, save)
            retrievers[col.name] = with_signals(retriever, bench, cfg, data_dir, cache_dir, embedder, api_key)
        report(1.0, "ready")
        return cls(bench, columns, retrievers, summaries)

    @classmethod
    def load(
        cls,
        data_dir: Path,
        cache_dir: Path,
        base: RunConfig,
        columns: Sequence[Column] | None = None,
        api_key: str | None = None,
        on_progress: Progress | None = None,
        save: bool = False,
    ) -> Workspace:
        bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
        return cls.open(bench, columns or default_columns(base), data_dir, cache_dir, api_key, on_progress, save)

    def search(self, text: str, k: int, query: Query | None = None) -> list[ColumnResult]:
        """Run ``text`` through every column; with a benchmark ``query`` also score it against gold."""
        vectors: dict[tuple[str, str], np.ndarray] = {}  # one query encoding per model and backend
        out = []
        for col in self.columns:
            retriever = self.retrievers[col.name]
            model = (retriever.embedder.model, retriever.embedder.backend)
            if retriever.dense is not None and model not in vectors:
                vectors[model] = retriever.embedder.encode([text], False, cache=self.cache_queries)
            hits = retriever.search([text], k, vectors=vectors.get(model))[0]
            gold_files = query.gold_files if query else frozenset()
            metrics = score_query(as_spans(hits), query, k, col.config.metric_mode) if query else None
            involved = {h.chunk.file_path for h in hits} | set(gold_files)
            summaries = {fp: s for fp, s in self.summaries[col.name].items() if fp in involved}
            out.append(ColumnResult(col, hits, [h.chunk.file_path in gold_files for h in hits], metrics, summaries))
        return out

    def preload_models(self) -> None:
        """Load every column's model in the background (a page calls this once its answer is drawn,
        so the first typed question does not wait seconds for the model, nor the first answer for it)."""
        for embedder in {id(r.embedder): r.embedder for r in self.retrievers.values()}.values():
            embedder.preload()

    def timed_search(self, text: str, k: int, query: Query | None = None) -> tuple[list[ColumnResult], float]:
        """``search`` and its wall time in milliseconds (for the latency benchmark)."""
        t0 = time.perf_counter()
        results = self.search(text, k, query)
        return results, (time.perf_counter() - t0) * 1000
