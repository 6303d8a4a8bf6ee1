"""Dense index: exact cosine on unit vectors."""

import numpy as np
import pytest

from sac_core.engine.indexes import DenseIndex, search_threads


def test_dense_index_is_cosine_on_unit_vectors():
    vecs = np.eye(3, dtype=np.float32)
    query = np.array([[0.6, 0.8, 0.0]], dtype=np.float32)
    (ranked,) = DenseIndex(vecs).search(query, 5)  # k beyond the pool is cut to its size
    assert ranked.ids.tolist() == [1, 0, 2]
    assert ranked.scores.tolist() == pytest.approx([0.8, 0.6, 0.0])


def test_hnsw_finds_almost_what_the_exact_index_finds_and_survives_a_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(3000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = vectors[rng.choice(len(vectors), 50, replace=False)] + rng.normal(scale=0.3, size=(50, 32)).astype(
        np.float32
    )
    exact = DenseIndex(vectors)
    approx = DenseIndex.hnsw(vectors, m=16, ef_search=64)
    assert (exact.kind, approx.kind) == ("flat", "hnsw")
    hits = [set(a.ids) & set(e.ids) for a, e in zip(approx.search(queries, 10), exact.search(queries, 10))]
    assert sum(len(h) for h in hits) / (50 * 10) >= 0.9
    approx.save(tmp_path / "h.faiss")
    loaded = DenseIndex.load(tmp_path / "h.faiss")
    assert loaded.kind == "hnsw" and len(loaded) == 3000
    assert [r.ids.tolist() for r in loaded.search(queries[:3], 5)] == [
        r.ids.tolist() for r in approx.search(queries[:3], 5)
    ]
    assert np.allclose(exact.vectors(), vectors)


def test_search_threads_sets_faiss_openmp_threads_for_the_process():
    import faiss

    before = faiss.omp_get_max_threads()
    try:
        search_threads(1)
        assert faiss.omp_get_max_threads() == 1
    finally:
        faiss.omp_set_num_threads(before)
