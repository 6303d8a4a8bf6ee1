import numpy as np
import pytest

from sac_core.engine.indexes import BM25Index, DenseIndex, Ranked, fuse, tokenize


def test_tokenize_lowercases_word_runs():
    assert tokenize("Governing-Law: NEW York, 2021.") == ["governing", "law", "new", "york", "2021"]


def test_dense_index_is_cosine_on_unit_vectors():
    vecs = np.eye(3, dtype=np.float32)
    query = np.array([[0.6, 0.8, 0.0]], dtype=np.float32)
    (ranked,) = DenseIndex(vecs).search(query, 5)  # k beyond the pool is cut to its size
    assert ranked.ids.tolist() == [1, 0, 2]
    assert ranked.scores.tolist() == pytest.approx([0.8, 0.6, 0.0])


def test_bm25_ranks_the_matching_text_first():
    texts = ["the law of delaware", "return within ten days", "governing law new york", "nothing here"]
    index = BM25Index(texts)
    ranked = index.search("Which law governs? New York", 2)
    assert ranked.ids.tolist() == [2, 0]
    assert index.search("zebra", 2).scores.tolist() == [0.0, 0.0]


def test_rank_fusion_by_hand():
    dense = Ranked(np.array([10, 11, 12]), np.zeros(3))
    bm25 = Ranked(np.array([12, 13, 10]), np.zeros(3))
    fused = fuse(dense, bm25, 0.75, 4)
    expected = {
        10: 0.75 / 61 + 0.25 / 63,
        11: 0.75 / 62,
        12: 0.75 / 63 + 0.25 / 61,
        13: 0.25 / 62,
    }
    order = sorted(expected, key=lambda c: -expected[c])
    assert fused.ids.tolist() == order
    assert fused.scores.tolist() == pytest.approx([expected[c] for c in order])
    assert fuse(dense, bm25, 1.0, 3).ids.tolist() == [10, 11, 12]  # w = 1: the dense ranking
    assert fuse(dense, bm25, 0.0, 2).ids.tolist() == [12, 13]  # w = 0: the BM25 ranking
