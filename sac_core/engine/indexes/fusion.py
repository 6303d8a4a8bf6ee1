"""Hybrid ranking: weighted reciprocal-rank fusion as in the SAC code (paper, Appendix B)::

    score(c) = w / (60 + rank_dense(c)) + (1 - w) / (60 + rank_bm25(c))

Ranks are 1-based within each retriever's top ``depth`` candidates; a chunk absent from one
list gets nothing from it. Ties go to the better dense rank, then the lower chunk index.
"""

from __future__ import annotations

import numpy as np

from .ranked import Ranked

RRF_K = 60


def fuse(dense: Ranked, bm25: Ranked, semantic_weight: float, k: int) -> Ranked:
    """Weighted reciprocal-rank fusion of two rankings (see module docstring)."""
    fused: dict[int, float] = {}
    dense_rank: dict[int, int] = {}
    for rank, cid in enumerate(dense.ids.tolist(), start=1):
        fused[cid] = semantic_weight / (RRF_K + rank)
        dense_rank[cid] = rank
    for rank, cid in enumerate(bm25.ids.tolist(), start=1):
        fused[cid] = fused.get(cid, 0.0) + (1.0 - semantic_weight) / (RRF_K + rank)
    order = sorted(fused, key=lambda c: (-fused[c], dense_rank.get(c, len(dense_rank) + 1), c))[:k]
    return Ranked(np.array(order, dtype=np.int64), np.array([fused[c] for c in order], dtype=np.float32))
