"""``sac bench``: speed and memory figures of this machine, measured in one run and printed.

(a) raw model encode throughput vs. index build throughput over the same chunks (fresh cache),
    per embedding backend; (b) three-way query latency p50/p95 once warm, the query encoded
    by the model each time (no cache); (c) peak RSS with the three indexes loaded; (d) the warm
    time of a sweep whose cells are cached; (e) the cost of a cache transaction per batch;
    cold builds of the Compare indexes per backend; peak RSS of a process holding the paper
    protocol's three indexes. The dashboard's own timings are in :mod:`.timing`.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..engine.data import Benchmark
from ..engine.embedding import Embedder, Embedders
from ..engine.indexes import DenseIndex
from ..engine.retrieval import Retriever, build_pool
from ..experiments.catalogue import Column, catalogue, catalogue_columns
from ..experiments.config import RunConfig
from ..experiments.evaluate import evaluate, indexed_chunks, open_method
from ..experiments.executors import EmbedTask, Executor, embed_partition, prefill_embeddings
from ..experiments.methods import baseline, sac
from ..experiments.plugins import OpenContext
from ..experiments.sweep import SweepError, load_sweep, run_sweep
from ..experiments.workspace import Workspace


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def query_latency(workspace: Workspace, n_queries: int, k: int) -> dict[str, float]:
    """Warm three-way latency in ms over benchmark queries, with the model encoding every query."""
    workspace.cache_queries = False
    queries = list(workspace.bench.queries)[:n_queries]
    workspace.search(queries[0].text, k, queries[0])  # warm-up: model and indexes in memory
    times = sorted(workspace.timed_search(q.text, k, q)[1] for q in queries)
    return {"queries": len(times), "p50_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))]}


def new_question_latency(
    data_dir: Path, cache_dir: Path, base: RunConfig, key: str, n_queries: int, k: int
) -> dict[str, float | str]:
    """Server time of a Compare column answering a question it has not seen (ms): the catalogue
    entry ``key`` opened from what is prebuilt (``build`` False: a missing index or precomputed part
    raises :class:`~.plugins.NotBuilt`, nothing is embedded ahead), the model encoding every question
    (no query cache); the questions are the benchmark's first ``n_queries``."""
    entries = catalogue(base)
    if key not in entries:
        raise ValueError(f"no catalogue entry {key!r}; offered: {', '.join(entries)}")
    t0 = time.perf_counter()
    ws = Workspace.load(data_dir, cache_dir, base, (Column(entries[key].title, entries[key].config),), build=False)
    opened_s = time.perf_counter() - t0
    ws.cache_queries = False
    queries = list(ws.bench.queries)[:n_queries]
    ws.search(queries[0].text, k, queries[0])  # warm-up: model, indexes and per-document BM25 in memory
    nonce = time.time_ns()
    times = []
    for i, q in enumerate(queries):
        # a question never asked before: both parts of a split query get a fresh tag, so no vector
        # of it is in the cache and the model encodes it, as for a question typed into Compare
        fresh = q.text.replace(";", f" #{nonce}-{i};", 1) + f" #{nonce}-{i}"
        times.append(ws.timed_search(fresh, k)[1])
    times.sort()
    return {
        "variant": entries[key].config.variant,
        "open_s": opened_s,
        "queries": len(times),
        "p50_ms": statistics.median(times),
        "p95_ms": times[int(0.95 * (len(times) - 1))],
    }


def encode_vs_build(bench: Benchmark, config: RunConfig, n_chunks: int, backend: str) -> dict[str, float | str]:
    """Chunks/s of the bare model and of building a Retriever (hash, cache write, FAISS) from scratch."""
    pool = build_pool(
        bench.documents, chunker=config.chunker, chunk_size=config.chunk_size, chunk_overlap=config.chunk_overlap
    )
    step = max(1, len(pool) // n_chunks)
    sub = replace(pool, chunks=pool.chunks[::step][:n_chunks], indexed=pool.indexed[::step][:n_chunks])
    with tempfile.TemporaryDirectory() as tmp:
        embedder = Embedder(config.model, Path(tmp), backend=backend)
        embedder.encode(list(sub.indexed[:64]), progress=False, cache=False)  # warm-up: threads, allocations
        t0 = time.perf_counter()
        embedder.encode(list(sub.indexed), progress=False, cache=False)
        raw = len(sub) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        Retriever(sub, embedder, progress=False)
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


def cold_build(
    bench: Benchmark, configs: list[RunConfig], data_dir: Path, backend: str, cache_dir: Path | None = None
) -> dict[str, float]:
    """Build and save ``configs``' indexes with ``backend`` into a fresh cache (nothing embedded
    before; summaries from the file or offline providers): seconds, texts embedded, texts/s.
    ``cache_dir``: where to build (default: a temporary folder, removed afterwards)."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(cache_dir) if cache_dir is not None else Path(tmp)
        embedders = Embedders(cache)
        ctx = OpenContext(bench, data_dir, cache, embedders, save=True)
        t0 = time.perf_counter()
        texts = 0
        for config in configs:
            texts += indexed_chunks(open_method(config.with_(backend=backend), ctx).ranker) or 0
        seconds = time.perf_counter() - t0
    return {"seconds": seconds, "texts": texts, "encoded": embedders.encoded, "per_s": embedders.encoded / seconds}


PAPER_MEMORY_SCRIPT = """
import resource, sys, time
from pathlib import Path
from sac_core.experiments import Column, RunConfig, Workspace
from sac_core.tooling.bench import memory_configs
from sac_core.engine.summaries import SummaryConfig
data, cache = Path(sys.argv[1]), Path(sys.argv[2])
base = RunConfig(protocol=sys.argv[3], datasets=tuple(sys.argv[5].split(",")),
                 summary=SummaryConfig(provider="file", chars=150))
columns = [Column(f"{i} {c.variant}", c) for i, c in enumerate(memory_configs(base, sys.argv[4]))]
t0 = time.perf_counter()
ws = Workspace.load(data, cache, base, columns)
seconds = time.perf_counter() - t0
chunks = sum(len(r.pool) for r in ws.retrievers.values())
query = ws.bench.queries[0]
ws.search(query.text, 8, query)  # the model loaded and one query run through all three
print(chunks, round(seconds, 1), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


MEMORY_COLUMNS = ("compare", "baseline-x3")


def memory_configs(base: RunConfig, columns: str) -> list[RunConfig]:
    """The indexes ``loaded_memory`` opens: the three Compare columns, or (``baseline-x3``) the baseline
    index three times (each column loads its own copy from disk): a stand-in of the same size when
    only the baseline index has been built."""
    if columns == "baseline-x3":
        return [base.with_(method=baseline.NAME)] * 3
    return [col.config for col in catalogue_columns(base)]


def loaded_memory(
    data_dir: Path, cache_dir: Path, protocol: str, datasets: tuple[str, ...], columns: str = "compare"
) -> dict[str, float]:
    """Peak RSS (MB) of a fresh process that loads three saved indexes of ``protocol`` over
    ``datasets`` (see :func:`memory_configs`; summaries from the file, 150 characters) and runs one
    query (a separate process, so nothing else this command did is counted)."""
    script = [PAPER_MEMORY_SCRIPT, str(data_dir), str(cache_dir), protocol, columns, ",".join(datasets)]
    out = subprocess.run(
        [sys.executable, "-c", *script],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    chunks, seconds, rss = out.stdout.split()[-3:]
    return {"chunks": int(chunks), "load_s": float(seconds), "peak_rss_mb": float(rss)}


def cell_build_seconds(
    bench: Benchmark, base: RunConfig, data_dir: Path, cache_dir: Path, chunk_size: int
) -> dict[str, float]:
    """What an off-grid Tune stop costs: the baseline and SAC generic-150 cells at ``chunk_size``
    embedded and evaluated on every query, into ``cache_dir`` (give a fresh one for a cold figure):
    seconds, texts embedded, texts/s."""
    cells = (
        base.with_(method=baseline.NAME, chunk_size=chunk_size),
        base.with_(method=sac.NAME, chunk_size=chunk_size),
    )
    embedders = Embedders(cache_dir)
    t0 = time.perf_counter()
    for config in cells:
        evaluate(config, OpenContext(bench, data_dir, cache_dir, embedders))
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "encoded": embedders.encoded, "per_s": embedders.encoded / seconds}


def ann_figures(exact: DenseIndex, queries: np.ndarray, ks: tuple[int, ...], m: int, ef_search: int) -> dict:
    """An HNSW index built over the vectors of an exact one: build seconds, recall@k against the
    exact top-k (the share of the exact top-k chunks the HNSW top-k holds, mean over queries), and
    single-query search latency (ms) of both."""
    vectors = exact.vectors()
    t0 = time.perf_counter()
    approx = DenseIndex.hnsw(vectors, m, ef_search)
    build_s = time.perf_counter() - t0
    top = max(ks)
    found = approx.search(queries, top)
    recall = {}
    for k in ks:
        exact_k = [set(r.ids[:k].tolist()) for r in exact.search(queries, k)]
        recall[k] = float(np.mean([len(e & set(f.ids[:k].tolist())) / k for e, f in zip(exact_k, found)]))
    latency = {}
    for name, index in (("flat", exact), ("hnsw", approx)):
        times = []
        for q in queries:
            t0 = time.perf_counter()
            index.search(q[None, :], top)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        latency[name] = (statistics.median(times), times[int(0.95 * (len(times) - 1))])
    return {"chunks": len(vectors), "build_s": build_s, "recall": recall, "latency": latency}


def timed_embed_partition(task: EmbedTask) -> dict[str, float]:
    """:func:`embed_partition` with its own wall time (per-task figures for the scaling estimate)."""
    t0 = time.perf_counter()
    result = embed_partition(task)
    return {**result, "seconds": time.perf_counter() - t0}


def executor_throughput(texts: list[str], model: str, backend: str, executor: Executor) -> dict[str, float]:
    """Texts/s of embedding ``texts`` into a fresh cache through ``executor`` (local or Ray), the
    start-up included, and the mean per-task rate (texts/s of one task, model load included)."""
    with tempfile.TemporaryDirectory() as tmp:
        by_doc = {f"d{i:05d}": [t] for i, t in enumerate(texts)}
        t0 = time.perf_counter()
        results = prefill_embeddings(by_doc, model, backend, Path(tmp), executor, task=timed_embed_partition)
        seconds = time.perf_counter() - t0
    per_task = [r["texts"] / r["seconds"] for r in results if r["seconds"] > 0]
    return {"per_s": len(texts) / seconds, "seconds": seconds, "tasks": len(results),
            "task_per_s": float(np.mean(per_task)) if per_task else 0.0}  # fmt: skip
