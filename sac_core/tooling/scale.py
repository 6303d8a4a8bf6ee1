"""``sac bench --parts scale`` (q): what a corpus 10× and 100× larger would cost, on paper.

Measured on this machine: the pool of the whole LegalBench-RAG (every document, chunks of 500
characters: about 270,000 chunks), whose vectors are read from the embedding cache (nothing is
embedded but a small sample timed for the rate; a chunk whose vector is not cached yet stands in as
a noisy copy of a cached one, and the line says how many), then a synthetic pool made by repeating
those vectors with small noise (1×, 3×, 10×). For each size: the exact (FAISS flat) and the HNSW
index's memory, build time and one query's latency (top 64), and HNSW's recall of the exact top 64.
100× (27 million vectors, about 41 GB of float32 alone) does not fit in this machine's 24 GB: it
is extrapolated from the measured sizes (memory and flat search linear in the vectors, HNSW search
linear in their logarithm, HNSW build in n·log n) and printed as such. Every line carries the
machine's load average: the machine is shared, so a figure is only as good as its load.

The (l) figure (HNSW against the exact index on a saved pool) is here too: both are about indexes.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.data import load_benchmark
from ..engine.embedding import Embedder
from ..engine.embedding.embedder import text_key
from ..engine.indexes import DenseIndex, load_index
from ..engine.metrics import DEFAULT_KS
from ..engine.retrieval import build_pool
from ..experiments import RunConfig
from ..experiments.index_store import index_folder
from .bench import ann_figures

SCALE_FACTORS = (1, 3, 10)
NOISE = 0.01  # s.d. added to each coordinate of a copy (384 dims: cosine to its original about 0.98), then renormalised
TOP = 64  # the k of a timed query: LegalBench-RAG's largest
SAMPLE = 300  # chunks embedded to time the embedding rate
EXTRAPOLATED = 100  # the factor printed from the measured ones


def load() -> str:
    """The machine's 1-minute load average, as each line states it."""
    return f"load {os.getloadavg()[0]:.1f}"


@dataclass(frozen=True)
class PoolVectors:
    """The pool's vectors (one per chunk, in pool order), how many distinct texts it has, and how
    many of those were found in the cache (the others stand in as noisy copies of cached ones)."""

    vectors: np.ndarray
    texts: int
    cached: int
    sample: tuple[str, ...]  # chunk texts spread over the pool, to time the embedding rate


def pool_vectors(data_dir: Path, cache_dir: Path, base: RunConfig, *, seed: int = 0) -> PoolVectors:
    """The whole benchmark's chunk vectors from the embedding cache (``base``'s model, backend and
    chunking; protocol ``full``, every dataset of ``base``); none is encoded here."""
    bench = load_benchmark(data_dir, base.datasets, "full")
    pool = build_pool(bench.documents, chunker=base.chunker, chunk_size=base.chunk_size,
                      chunk_overlap=base.chunk_overlap)  # fmt: skip
    embedder = Embedder(base.model, cache_dir, backend=base.backend)  # the model is never loaded
    distinct = list(dict.fromkeys(pool.indexed))
    found: dict[str, np.ndarray] = {}
    for text in distinct:
        raw = embedder.cache.get(text_key(base.model, text, base.backend, embedder.weights))
        if raw is not None:
            found[text] = np.frombuffer(raw, dtype=np.float32)
    if not found:
        raise ValueError(f"(q) no vector of the whole benchmark's pool is in the cache {cache_dir}: "
                         f"run `sac index --protocol full --method baseline` (or its sweep) first")  # fmt: skip
    known = np.stack(list(found.values()))
    rng = np.random.default_rng(seed)
    stand_in = _noisy(known[rng.integers(0, len(known), size=len(distinct) - len(found))], NOISE, rng)
    table = np.concatenate([known, stand_in])  # the cached vectors, then one stand-in per text not cached
    row = dict(zip(found, range(len(found))))
    row.update(zip((t for t in distinct if t not in found), range(len(found), len(table))))
    vectors = table[[row[t] for t in pool.indexed]]
    step = max(1, len(distinct) // SAMPLE)
    return PoolVectors(vectors, len(distinct), len(found), tuple(distinct[::step][:SAMPLE]))


def _noisy(vectors: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """``vectors`` plus Gaussian noise of s.d. ``noise`` per coordinate, each row renormalised."""
    out = vectors + rng.standard_normal(vectors.shape, dtype=np.float32) * np.float32(noise)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def repeated(vectors: np.ndarray, factor: int, *, noise: float = NOISE, seed: int = 0) -> np.ndarray:
    """A synthetic pool ``factor`` times the size: the vectors themselves, then ``factor - 1``
    noisy copies (unit length, float32), made block by block into one array."""
    n = len(vectors)
    out = np.empty((n * factor, vectors.shape[1]), dtype=np.float32)
    out[:n] = vectors
    rng = np.random.default_rng(seed)
    for copy in range(1, factor):
        out[copy * n : (copy + 1) * n] = _noisy(vectors, noise, rng)
    return out


def index_bytes(index: DenseIndex) -> int:
    """Bytes an index holds in memory: its vectors (flat: n × d × 4) and, for HNSW, its graph
    (the neighbour lists, the level of each vector and the offsets into the lists)."""
    n, d = len(index), index.dim
    if index.kind != "hnsw":
        return n * d * 4
    hnsw = index.index.hnsw
    return n * d * 4 + hnsw.neighbors.size() * 4 + hnsw.levels.size() * 4 + hnsw.offsets.size() * 8


@dataclass(frozen=True)
class IndexFigures:
    """One index of one size: vectors, bytes in memory, build seconds, one query's latency (ms)."""

    kind: str
    vectors: int
    bytes: int
    build_s: float
    p50_ms: float
    p95_ms: float


def latency_ms(index: DenseIndex, queries: np.ndarray, k: int = TOP) -> tuple[float, float]:
    """p50 and p95 (ms) of one query at a time, top ``k``."""
    times = []
    for q in queries:
        t0 = time.perf_counter()
        index.search(q[None, :], k)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def measure(
    vectors: np.ndarray, queries: np.ndarray, m: int, ef_search: int
) -> tuple[IndexFigures, IndexFigures, float]:
    """The flat and the HNSW index over ``vectors``, each built, sized and timed (one kept in
    memory at a time), and HNSW's recall of the exact top :data:`TOP` over ``queries``."""
    figures = []
    top: list[set[int]] = []
    recall = float("nan")
    for kind in ("flat", "hnsw"):
        t0 = time.perf_counter()
        index = DenseIndex(vectors) if kind == "flat" else DenseIndex.hnsw(vectors, m, ef_search)
        build_s = time.perf_counter() - t0
        p50, p95 = latency_ms(index, queries)
        found = [set(r.ids.tolist()) for r in index.search(queries, TOP)]
        if kind == "flat":
            top = found
        else:
            recall = float(np.mean([len(e & f) / max(1, len(e)) for e, f in zip(top, found)]))
        figures.append(IndexFigures(kind, len(index), index_bytes(index), build_s, p50, p95))
        del index
    return figures[0], figures[1], recall


@dataclass(frozen=True)
class Extrapolated:
    """Figures for ``vectors`` vectors from measured sizes (see the module docstring for the laws)."""

    vectors: int
    flat_bytes: float
    hnsw_bytes: float
    flat_ms: float
    hnsw_ms: float
    hnsw_build_s: float


def extrapolate(measured: list[tuple[IndexFigures, IndexFigures]], vectors: int) -> Extrapolated:
    """Memory per vector of the largest measured size times ``vectors``; flat latency a line in n
    and HNSW latency a line in ln n through the measured p50s (least squares; proportional from a
    single size); HNSW build time c·n·ln n from the largest size."""
    flat, hnsw = measured[-1]
    ns = np.array([f.vectors for f, _ in measured], dtype=float)
    if len(measured) > 1:
        flat_ms = float(np.polyval(np.polyfit(ns, [f.p50_ms for f, _ in measured], 1), vectors))
        hnsw_ms = float(np.polyval(np.polyfit(np.log(ns), [h.p50_ms for _, h in measured], 1), math.log(vectors)))
    else:
        flat_ms = flat.p50_ms * vectors / flat.vectors
        hnsw_ms = hnsw.p50_ms * math.log(vectors) / math.log(hnsw.vectors)
    n = hnsw.vectors
    return Extrapolated(
        vectors,
        flat.bytes / flat.vectors * vectors,
        hnsw.bytes / hnsw.vectors * vectors,
        flat_ms,
        hnsw_ms,
        hnsw.build_s / (n * math.log(n)) * vectors * math.log(vectors),
    )


def encode_rate(texts: tuple[str, ...], model: str, backend: str, cache_dir: Path) -> float:
    """Texts/s of the bare model over ``texts``: nothing read from or written to the embedding cache
    (``cache_dir`` only lends its ONNX export); model load and warm-up not timed."""
    embedder = Embedder(model, cache_dir, backend=backend)
    embedder.encode(list(texts[:32]), progress=False, cache=False)
    t0 = time.perf_counter()
    embedder.encode(list(texts), progress=False, cache=False)
    return len(texts) / (time.perf_counter() - t0)


def _gb(n: float) -> str:
    return f"{n / 1e9:.2f} GB"


def _hours(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 3 * 3600 else f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class Size:
    """One row of the summary: a size, its embedding seconds and its indexes (``recall`` None when
    extrapolated)."""

    factor: int
    vectors: int
    embed_s: float
    flat_bytes: float
    flat_ms: float
    hnsw_bytes: float
    hnsw_build_s: float
    hnsw_ms: float
    recall: float | None


SUMMARY_HEADER = ("size", "vectors", "embedding", "exact: memory", "query p50", "HNSW: memory", "build",
                  "query p50", f"recall@{TOP}")  # fmt: skip


def summary(sizes: list[Size]) -> list[str]:
    """The sizes as one aligned text table (embedding: one process of the measured rate; query: one
    query, top :data:`TOP`), an extrapolated row marked ``*``."""
    rows = [SUMMARY_HEADER] + [_row(s) for s in sizes]
    widths = [max(len(r[i]) for r in rows) for i in range(len(SUMMARY_HEADER))]
    return ["  ".join(c.ljust(w) if i < 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in rows]  # fmt: skip


def _row(s: Size) -> tuple[str, ...]:
    mark = "*" if s.recall is None else ""
    recall = "–" if s.recall is None else f"{s.recall:.3f}"
    return (f"{s.factor}×{mark}", f"{s.vectors:,}", _hours(s.embed_s), _gb(s.flat_bytes), f"{s.flat_ms:,.1f} ms",
            _gb(s.hnsw_bytes), _hours(s.hnsw_build_s), f"{s.hnsw_ms:.2f} ms", recall)  # fmt: skip


def bench_scale(cache_dir: Path, base: RunConfig, data_dir: Path, factors: tuple[int, ...], n_queries: int) -> None:
    """(q) Print the scale figures: the pool, the embedding time, each size's indexes, 100× on paper."""
    pool = pool_vectors(data_dir, cache_dir, base)
    n, texts = len(pool.vectors), pool.texts
    print(f"(q) the whole benchmark's pool, chunks of {base.chunk_size}: {n:,} chunks, {texts:,} distinct texts, "
          f"{pool.vectors.shape[1]} dimensions; {pool.cached:,} of the texts' vectors read from the cache, "
          f"{texts - pool.cached:,} stand in as noisy copies of them ({load()})")  # fmt: skip
    rate = encode_rate(pool.sample, base.model, base.backend, cache_dir)
    times = ", ".join(f"{f}× {_hours(f * texts / rate)}" for f in (*factors, EXTRAPOLATED))
    print(f"(q) embedding ({base.backend}, this process, {len(pool.sample)} chunks timed): {rate:.1f} texts/s, "
          f"so {times}; with W Ray workers of this speed about 1/W of it ({load()})")  # fmt: skip
    bench = load_benchmark(data_dir, base.datasets, "full")
    step = max(1, len(bench.queries) // n_queries)
    asked = [q.text for q in bench.queries[::step][:n_queries]]
    queries = Embedder(base.model, cache_dir, backend=base.backend).encode(asked, progress=False)
    measured, sizes = [], []
    for factor in factors:
        vectors = pool.vectors if factor == 1 else repeated(pool.vectors, factor)
        flat, hnsw, recall = measure(vectors, queries, base.hnsw_m, base.ef_search)
        del vectors
        measured.append((flat, hnsw))
        sizes.append(Size(factor, flat.vectors, factor * texts / rate, flat.bytes, flat.p50_ms, hnsw.bytes,
                          hnsw.build_s, hnsw.p50_ms, recall))  # fmt: skip
        print(f"(q) {factor}× ({flat.vectors:,} vectors): exact (flat) {_gb(flat.bytes)}, built in {flat.build_s:.1f}s, "
              f"one query top {TOP} p50 {flat.p50_ms:.1f} ms / p95 {flat.p95_ms:.1f} ms; HNSW (M={base.hnsw_m}, "
              f"efConstruction 200, efSearch {base.ef_search}) {_gb(hnsw.bytes)}, built in {hnsw.build_s:.0f}s, "
              f"p50 {hnsw.p50_ms:.2f} ms / p95 {hnsw.p95_ms:.2f} ms, recall of the exact top {TOP} {recall:.3f} "
              f"over {len(queries)} queries ({load()})")  # fmt: skip
    far = extrapolate(measured, EXTRAPOLATED * n)
    print(f"(q) {EXTRAPOLATED}× ({far.vectors:,} vectors), extrapolated, not measured (it does not fit in this "
          f"machine's memory): exact {_gb(far.flat_bytes)}, one query about {far.flat_ms:,.0f} ms; HNSW "
          f"{_gb(far.hnsw_bytes)}, built in about {_hours(far.hnsw_build_s)}, one query about {far.hnsw_ms:.1f} ms")  # fmt: skip
    sizes.append(Size(EXTRAPOLATED, far.vectors, EXTRAPOLATED * texts / rate, far.flat_bytes, far.flat_ms,
                      far.hnsw_bytes, far.hnsw_build_s, far.hnsw_ms, None))  # fmt: skip
    print(f"(q) in one table (embedding: one process at {rate:.1f} texts/s; * extrapolated, the rest measured):")
    print("\n".join(summary(sizes)))


def bench_ann(cache_dir: Path, base: RunConfig, data_dir: Path, protocol: str, method: str) -> None:
    """(l) HNSW against the exact index on a saved pool (default: the paper protocol's SAC generic-150)."""
    bench = load_benchmark(data_dir, base.datasets, protocol)
    config = base.with_(protocol=protocol, method=method)
    saved = load_index(index_folder(cache_dir, config))
    if saved is None or saved.dense is None or saved.dense.kind != "flat":
        raise ValueError(
            f"(l) needs the exact saved index of {config.variant} on {protocol}: "
            f"run `sac index --protocol {protocol}` first"
        )
    queries = Embedder(config.model, cache_dir, backend=config.backend).encode(
        [q.text for q in bench.queries], progress=False
    )
    r = ann_figures(saved.dense, queries, DEFAULT_KS, config.hnsw_m, config.ef_search)
    recall = ", ".join(f"@{k} {v:.3f}" for k, v in r["recall"].items())
    (fp50, fp95), (hp50, hp95) = r["latency"]["flat"], r["latency"]["hnsw"]
    print(
        f"(l) {protocol}, {config.variant}, {r['chunks']:,} chunks: HNSW (M={config.hnsw_m}, efConstruction 200, "
        f"efSearch {config.ef_search}) built in {r['build_s']:.0f}s; recall of the exact top-k over "
        f"{len(bench.queries)} queries {recall}; one query, top 64: exact p50 {fp50:.1f} ms / p95 {fp95:.1f} ms, "
        f"HNSW p50 {hp50:.2f} ms / p95 {hp95:.2f} ms"
    )
