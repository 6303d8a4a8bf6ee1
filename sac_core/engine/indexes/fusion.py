"""Reciprocal-rank fusion (Cormack et al., 2009), the one constant ``RRF_K`` for every use.

- :func:`fuse`: two ranked lists (dense and BM25 top candidates), weighted as in the SAC code
  (paper, Appendix B): ``score(c) = w / (60 + rank_dense(c)) + (1 - w) / (60 + rank_bm25(c))``.
  Ranks are 1-based within each retriever's top ``depth`` candidates; a chunk absent from one list
  gets nothing from it. Ties go to the better dense rank, then the lower chunk index.
- :func:`rrf`: any number of full score vectors over the same items (the document-aware ranking).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def rrf(score_lists: Sequence[np.ndarray], weights: Sequence[float] | None = None, *, k: int = RRF_K) -> np.ndarray:
    """Weighted reciprocal-rank fusion of full score vectors over the same items: Σ w / (k + rank),
    rank from 1 by descending score. Items scored ``-inf`` get no share from that list."""
    weights = list(weights) if weights is not None else [1.0] * len(score_lists)
    out = np.zeros(len(score_lists[0]), dtype=np.float64)
    for scores, w in zip(score_lists, weights):
        order = np.argsort(-scores, kind="stable")
        ranks = np.empty(len(scores), dtype=np.float64)
        ranks[order] = np.arange(1, len(scores) + 1)
        share = w / (k + ranks)
        share[~np.isfinite(scores)] = 0.0
        out += share
    return out
