"""``sac bench --parts scale`` (q): the synthetic pools, what an index holds, the extrapolation, the
pool's vectors read from the cache, and the part end to end on the demo at small sizes (nothing timed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sac_core.cli import main
from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import DEFAULT_MODEL, Embedder
from sac_core.engine.embedding.embedder import text_key
from sac_core.engine.indexes import DenseIndex
from sac_core.engine.retrieval import build_pool
from sac_core.experiments import RunConfig
from sac_core.tooling.bench_parts import BenchOptions, bench_parts
from sac_core.tooling.scale import (
    IndexFigures,
    Size,
    bench_scale,
    extrapolate,
    index_bytes,
    measure,
    pool_vectors,
    repeated,
    summary,
)

DEMO = ("demo_nda", "demo_privacy")
BASE = RunConfig(protocol="full", datasets=DEMO, backend="onnx")


def _unit(n: int, d: int, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, d)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_a_synthetic_pool_is_the_vectors_then_noisy_unit_copies_of_them():
    vectors = _unit(50, 384)
    big = repeated(vectors, 3)
    assert big.shape == (150, 384) and big.dtype == np.float32
    assert np.array_equal(big[:50], vectors)
    assert np.allclose(np.linalg.norm(big, axis=1), 1.0, atol=1e-5)
    cosines = np.sum(big[50:100] * vectors, axis=1)
    assert (cosines > 0.95).all() and (cosines < 0.9999).all()  # near copies, never the same vector
    assert not np.array_equal(big[50:100], big[100:150])


def test_an_index_holds_its_vectors_and_hnsw_its_graph_too():
    vectors = _unit(500, 16)
    assert index_bytes(DenseIndex(vectors)) == 500 * 16 * 4
    hnsw = DenseIndex.hnsw(vectors, m=8)
    assert index_bytes(hnsw) >= 500 * 16 * 4 + 500 * 2 * 8 * 4  # at least 2·M links per vector at level 0


def test_measure_builds_both_indexes_and_the_recall_of_the_exact_top_64():
    vectors, queries = _unit(2000, 16), _unit(20, 16, seed=1)
    flat, hnsw, recall = measure(vectors, queries, m=16, ef_search=128)
    assert (flat.kind, hnsw.kind) == ("flat", "hnsw") and flat.vectors == hnsw.vectors == 2000
    assert flat.bytes == 2000 * 16 * 4 < hnsw.bytes
    assert 0.5 < recall <= 1.0 and flat.p50_ms <= flat.p95_ms


def test_the_extrapolation_by_hand():
    def sizes(n: int, flat_ms: float, hnsw_ms: float, build: float) -> tuple[IndexFigures, IndexFigures]:
        return IndexFigures("flat", n, n * 1536, 0.1, flat_ms, flat_ms), IndexFigures(
            "hnsw", n, n * 1800, build, hnsw_ms, hnsw_ms
        )

    n = 1000
    far = extrapolate([sizes(n, 10.0, 0.5, 2.0), sizes(10 * n, 100.0, 1.0, 30.0)], 100 * n)
    assert far.vectors == 100_000 and far.flat_bytes == 100_000 * 1536 and far.hnsw_bytes == 100_000 * 1800
    assert far.flat_ms == pytest.approx(1000.0)  # the line through (1000, 10) and (10000, 100)
    assert far.hnsw_ms == pytest.approx(1.5)  # +0.5 ms per factor 10 of vectors: a line in ln n
    assert far.hnsw_build_s == pytest.approx(30.0 * (100_000 * math.log(100_000)) / (10_000 * math.log(10_000)))
    one = extrapolate([sizes(n, 10.0, 0.5, 2.0)], 10 * n)  # a single size: proportional
    assert one.flat_ms == pytest.approx(100.0) and one.hnsw_ms == pytest.approx(0.5 * math.log(10_000) / math.log(n))


def test_the_summary_is_one_aligned_table_the_extrapolated_row_marked():
    lines = summary([
        Size(1, 269_864, 3000.0, 4.1e8, 40.13, 4.8e8, 90.0, 0.404, 0.9612),
        Size(100, 26_986_400, 300_000.0, 4.1e10, 4012.0, 4.8e10, 90_000.0, 0.9, None),
    ])  # fmt: skip
    assert lines[0].split() == ["size", "vectors", "embedding", "exact:", "memory", "query", "p50", "HNSW:",
                                "memory", "build", "query", "p50", "recall@64"]  # fmt: skip
    assert lines[1].split() == ["1×", "269,864", "50", "min", "0.41", "GB", "40.1", "ms", "0.48", "GB", "90", "s",
                                "0.40", "ms", "0.961"]  # fmt: skip
    assert lines[2].split() == ["100×*", "26,986,400", "83.3", "h", "41.00", "GB", "4,012.0", "ms", "48.00", "GB",
                                "25.0", "h", "0.90", "ms", "–"]  # fmt: skip
    assert len({len(line) for line in lines}) == 1  # right-aligned columns: every line ends at the same place


def test_the_pool_vectors_come_from_the_cache_and_the_texts_not_cached_stand_in(demo_dir, tmp_path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    pool = build_pool(bench.documents, chunker="rcts", chunk_size=500, chunk_overlap=0)
    distinct = list(dict.fromkeys(pool.indexed))
    embedder = Embedder(DEFAULT_MODEL, tmp_path, backend="onnx")  # never loads the model
    written = _unit(len(distinct), 384, seed=2)
    for text, vector in list(zip(distinct, written))[::2]:  # every other text is cached
        embedder.cache.set(text_key(DEFAULT_MODEL, text, "onnx", embedder.weights), vector.tobytes())
    found = pool_vectors(demo_dir, tmp_path, BASE)
    assert found.vectors.shape == (len(pool), 384) and found.texts == len(distinct)
    assert found.cached == len(distinct[::2])
    first = pool.indexed.index(distinct[0])
    assert np.array_equal(found.vectors[first], written[0])
    assert np.allclose(np.linalg.norm(found.vectors, axis=1), 1.0, atol=1e-5)
    assert 0 < len(found.sample) <= len(distinct)
    with pytest.raises(ValueError, match="no vector of the whole benchmark's pool is in the cache"):
        pool_vectors(demo_dir, tmp_path / "empty", BASE)


def test_the_scale_part_is_slow_needs_data_and_takes_its_sizes(monkeypatch, tmp_path, capsys):
    asked: list[BenchOptions] = []
    monkeypatch.setattr("sac_core.cli.tools.run_bench", lambda opts: asked.append(opts) or 0)
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    assert main(["bench", "--parts", "scale", "--scale-factors", "1,2", "--cache-dir", str(tmp_path)]) == 0
    assert asked[0].parts == ("scale",) and asked[0].scale_factors == (1, 2)
    assert "scale" not in bench_parts("all")
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--parts", "scale", "--scale-factors", "3,1", "--cache-dir", str(tmp_path)])
    assert exit_.value.code == 2
    assert "'--scale-factors': '3,1': increasing sizes from 1 to 50" in capsys.readouterr().err


@pytest.mark.slow  # the model encodes the timed sample and the queries
def test_the_scale_part_prints_each_size_and_100x_extrapolated(demo_dir, embed_cache, capsys):
    bench = load_benchmark(demo_dir, DEMO, "full")
    pool = build_pool(bench.documents, chunker="rcts", chunk_size=500, chunk_overlap=0)
    Embedder(DEFAULT_MODEL, embed_cache, backend="onnx").fill(list(pool.indexed), progress=False)
    bench_scale(embed_cache, BASE, demo_dir, (1, 2), n_queries=10)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"(q) the whole benchmark's pool, chunks of 500: {len(pool):,} chunks")
    assert "0 stand in as noisy copies" in lines[0] and "texts/s" in lines[1]
    assert lines[2].startswith(f"(q) 1× ({len(pool):,} vectors): exact (flat)")
    assert lines[3].startswith(f"(q) 2× ({2 * len(pool):,} vectors)") and "recall of the exact top 64" in lines[3]
    assert lines[4].startswith(f"(q) 100× ({100 * len(pool):,} vectors), extrapolated, not measured")
    assert all("(load " in line for line in lines[:4])
    assert lines[5].startswith("(q) in one table") and lines[6].startswith("size")
    assert [line.split()[0] for line in lines[7:]] == ["1×", "2×", "100×*"]
