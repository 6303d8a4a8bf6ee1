"""Weighted reciprocal-rank fusion, by hand."""

import numpy as np
import pytest

from sac_core.engine.indexes import Ranked, fuse, rrf


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


def test_rrf_by_hand() -> None:
    fused = rrf([np.array([3.0, 2.0, 1.0]), np.array([-np.inf, 1.0, 2.0])], [0.5, 0.5], k=1)
    # ranks list 1: 1,2,3; list 2: item0 unranked (-inf), item2 rank 1, item1 rank 2
    assert fused.tolist() == pytest.approx([0.5 / 2, 0.5 / 3 + 0.5 / 3, 0.5 / 4 + 0.5 / 2])
