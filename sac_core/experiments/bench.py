"""``sac bench``: speed and memory figures of this machine, measured in one run and printed.

(a) raw model encode throughput vs. index build throughput over the same chunks (fresh cache),
    per embedding backend; (b) three-way query latency p50/p95 once warm, the query encoded
    by the model each time (no cache); (c) peak RSS with the three indexes loaded; (d) the warm
    time of a sweep whose cells are cached.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from ..engine.data import Benchmark
from ..engine.embedding import Embedder
from ..engine.retrieval import Retriever, build_pool
from .config import RunConfig
from .sweep import SweepError, load_sweep, run_sweep
from .workspace import Workspace


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def query_latency(workspace: Workspace, n_queries: int, k: int) -> dict[str, float]:
    """Warm three-way latency in ms over benchmark queries, with the model encoding every query."""
    workspace.cache_queries = False
    queries = list(workspace.bench.queries)[:n_queries]
    workspace.search(queries[0].text, k, queries[0])  # warm-up: model and indexes in memory
    times = sorted(workspace.timed_search(q.text, k, q)[1] for q in queries)
    return {"queries": len(times), "p50_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))]}


def encode_vs_build(bench: Benchmark, config: RunConfig, n_chunks: int, backend: str) -> dict[str, float | str]:
    """Chunks/s of the bare model and of building a Retriever (hash, cache write, FAISS) from scratch."""
    pool = build_pool(bench.documents, config.chunker, config.chunk_size, config.chunk_overlap)
    step = max(1, len(pool) // n_chunks)
    sub = replace(pool, chunks=pool.chunks[::step][:n_chunks], indexed=pool.indexed[::step][:n_chunks])
    with tempfile.TemporaryDirectory() as tmp:
        embedder = Embedder(config.model, Path(tmp), backend=backend)
        embedder.encode(list(sub.indexed[:64]), progress=False, cache=False)  # warm-up: threads, allocations
        t0 = time.perf_counter()
        embedder.encode(list(sub.indexed), progress=False, cache=False)
        raw = len(sub) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        Retriever(sub, embedder, 1.0, progress=False)
        build = len(sub) / (time.perf_counter() - t0)
    return {"backend": backend, "chunks": len(sub), "raw_per_s": raw, "build_per_s": build, "ratio": build / raw}


def warm_sweep_seconds(sweep_path: Path, data_dir: Path, cache_dir: Path) -> tuple[int, int, float]:
    """(cached cells, all cells, seconds to rerun the sweep from the cache, skipping uncached cells)."""
    sweep = load_sweep(sweep_path)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        try:
            table = run_sweep(sweep, data_dir, cache_dir, Path(tmp), progress=False, cached_only=True)
        except SweepError:  # no cell is cached yet
            return 0, len(sweep.cells), float("nan")
        return table["cell"].nunique(), len(sweep.cells), time.perf_counter() - t0


def cache_write_cost(
    texts: list[str], model: str, backend: str, every: tuple[int, ...] = (32, 512)
) -> dict[int, float]:
    """Texts/s of embedding ``texts`` into a fresh cache, writing a transaction every ``n`` texts, for
    each ``n`` in ``every`` (the cost of finer resume points). Runs are interleaved twice and the
    faster of each pair kept, so a busy moment of the machine does not decide."""
    rates: dict[int, float] = {}
    for _ in range(2):
        for n in every:
            with tempfile.TemporaryDirectory() as tmp:
                embedder = Embedder(model, Path(tmp), backend=backend, write_every=n)
                embedder.encode(texts[:64], progress=False, cache=False)  # warm-up
                t0 = time.perf_counter()
                embedder.encode(texts, progress=False)
                rates[n] = max(rates.get(n, 0.0), len(texts) / (time.perf_counter() - t0))
    return rates
