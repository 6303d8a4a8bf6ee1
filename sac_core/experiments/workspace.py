"""One query, several methods side by side: the engine behind the dashboard's Compare page and ``sac bench``.

A :class:`Workspace` loads a benchmark once and opens one method per :class:`~.catalogue.Column`
(by default the catalogue's default columns: baseline, SAC generic, recommended). Columns are data,
so any registered method can be shown without touching the UI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..engine.chunking import Chunk
from ..engine.data import Benchmark, Query, load_benchmark
from ..engine.embedding import Embedder, Embedders
from ..engine.metrics import score_query
from ..engine.retrieval import Hit, Ranker, as_spans
from .catalogue import Column, baseline_column, catalogue_columns
from .config import RunConfig
from .evaluate import open_method
from .plugins import OpenContext

Progress = Callable[[float, str], None]  # (fraction done 0..1, message)


@dataclass(frozen=True)
class ColumnResult:
    """One column's answer to one question: what a page draws, without asking the ranker back."""

    column: Column
    hits: list[Hit]
    gold_document: list[bool]  # per hit: is its document a gold document of the query?
    metrics: dict[str, float] | None  # DRM, precision, recall, ... at k; None for free text
    summaries: dict[str, str]  # summary prepended to each involved document's chunks ({} without summaries)
    trimmed_from: list[Chunk | None]  # per hit: the chunk a trimming stage cut it from (None: not trimmed)
    baseline: bool  # the column the others are measured against (:func:`~.catalogue.baseline_column`)
    doubt: tuple[str, str] | None = None  # two documents the query could equally mean (Ranker.document_doubt)


class Workspace:
    """A benchmark with one ranker per column, opened once and then queried many times."""

    def __init__(
        self,
        bench: Benchmark,
        columns: Sequence[Column],
        rankers: Mapping[str, Ranker],
        summaries: Mapping[str, Mapping[str, str]],
        data_key: str = "",
    ) -> None:
        """Columns over rankers already opened (``rankers`` and ``summaries`` by column name; a
        column without summaries has none). :meth:`open` opens them. ``data_key`` identifies the
        data they were opened on for a cache that keeps their results (default: the benchmark's
        content digest; the dashboard adds the stamp of the folder's files, see ``source_key``)."""
        self.bench = bench
        self.data_key = data_key or bench.digest
        self.columns = tuple(columns)
        self.queries = {q.query_id: q for q in bench.queries}
        self.retrievers = dict(rankers)
        self.summaries = {name: dict(summaries.get(name, {})) for name in self.retrievers}
        self.cache_queries = True  # False: every search runs the model (for honest latency figures)
        reference = baseline_column(self.columns)
        self.baseline = None if reference is None else reference.name  # the column the others are measured against

    @classmethod
    def open(
        cls,
        bench: Benchmark,
        columns: Sequence[Column],
        data_dir: Path,
        cache_dir: Path,
        *,
        api_key: str | None = None,
        on_progress: Progress | None = None,
        save: bool = False,
        build: bool = True,
    ) -> Workspace:
        """One ranker per column: a fresh saved index is loaded (seconds), otherwise the index is
        built (and saved when ``save``); ``build`` False: raise :class:`~.plugins.NotBuilt` instead."""
        summaries: dict[str, Mapping[str, str]] = {}
        rankers: dict[str, Ranker] = {}
        embedders = Embedders(cache_dir)
        report = on_progress or (lambda fraction, message: None)
        ctx = OpenContext(bench, Path(data_dir), Path(cache_dir), embedders, api_key=api_key, save=save, build=build)
        for i, col in enumerate(columns):
            share = 1.0 / len(columns)
            report(i * share, f"{col.name}: opening")
            step = lambda done, total, i=i, name=col.name, share=share: report(
                (i + done / max(total, 1)) * share, f"{name}: embedding {done:,}/{total:,} chunks"
            )
            opened = open_method(col.config, replace(ctx, on_progress=step))
            rankers[col.name], summaries[col.name] = opened.ranker, opened.summaries
        report(1.0, "ready")
        return cls(bench, columns, rankers, summaries)

    @classmethod
    def load(
        cls,
        data_dir: Path,
        cache_dir: Path,
        base: RunConfig,
        columns: Sequence[Column] | None = None,
        *,
        api_key: str | None = None,
        on_progress: Progress | None = None,
        save: bool = False,
        build: bool = True,
    ) -> Workspace:
        bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
        chosen = columns or catalogue_columns(base)
        return cls.open(
            bench, chosen, data_dir, cache_dir, api_key=api_key, on_progress=on_progress, save=save, build=build
        )

    def search(self, text: str, k: int, query: Query | None = None) -> list[ColumnResult]:
        """Run ``text`` through every column; with a benchmark ``query`` also score it against gold.
        Each result carries what a page shows of it (the chunk each hit was trimmed from, whether it
        is the baseline column), so nothing asks the rankers again."""
        vectors: dict[tuple[str, str], np.ndarray] = {}  # one query encoding per model and backend
        out = []
        for col in self.columns:
            ranker = self.retrievers[col.name]
            index = ranker.chunk_index()
            if index is not None and index.dense is not None:  # a plain dense index: one encoding per model
                model = (index.embedder.model, index.embedder.backend)
                if model not in vectors:
                    vectors[model] = index.embedder.encode([text], progress=False, cache=self.cache_queries)
                hits = index.search([text], k, vectors=vectors[model])[0]
            elif query is not None and query.text == text:
                hits = ranker.search_queries([query], k)[0]  # a run answers a benchmark query by its id
            else:
                hits = ranker.search([text], k)[0]
            gold_files = query.gold_files if query else frozenset()
            metrics = score_query(as_spans(hits), query, k, col.config.metric_mode) if query else None
            involved = {h.chunk.file_path for h in hits} | set(gold_files)
            summaries = {fp: s for fp, s in self.summaries[col.name].items() if fp in involved}
            gold = [h.chunk.file_path in gold_files for h in hits]
            trimmed = [ranker.trimmed_from(h) for h in hits]
            baseline = col.name == self.baseline
            out.append(
                ColumnResult(col, hits, gold, metrics, summaries, trimmed, baseline, ranker.document_doubt(text))
            )
        return out

    def embedders(self) -> list[Embedder]:
        """The distinct embedders the columns' rankers use (a ranker without one adds none)."""
        found = [r.embedder for r in self.retrievers.values()]
        return list({id(e): e for e in found if e is not None}.values())

    def preload_models(self) -> None:
        """Load every column's model in the background (a page calls this once its answer is drawn,
        so the first typed question does not wait seconds for the model, nor the first answer for it)."""
        for embedder in self.embedders():
            embedder.preload()

    def timed_search(self, text: str, k: int, query: Query | None = None) -> tuple[list[ColumnResult], float]:
        """``search`` and its wall time in milliseconds (for the latency benchmark)."""
        t0 = time.perf_counter()
        results = self.search(text, k, query)
        return results, (time.perf_counter() - t0) * 1000
