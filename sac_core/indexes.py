"""Three ways to rank the pool's chunks for a query: dense (FAISS), BM25, and their hybrid.

- Dense: ``faiss.IndexFlatIP`` over L2-normalised vectors, i.e. exact cosine similarity.
- BM25: ``bm25s`` (Lucene variant, k1=1.5, b=0.75) over the same indexed texts, tokenised as
  lower-cased ``\\w+`` runs without stemming. bm25s keeps scores in a sparse matrix, so one query
  over 180k chunks takes milliseconds; rank-bm25 loops over every chunk in Python per term.
- Hybrid: weighted reciprocal-rank fusion as in the SAC code (paper, Appendix B)::

      score(c) = w / (60 + rank_dense(c)) + (1 - w) / (60 + rank_bm25(c))

  ranks are 1-based within each retriever's top ``depth`` candidates; a chunk absent from one
  list gets nothing from it. Ties go to the better dense rank, then the lower chunk index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

RRF_K = 60
_TOKEN = re.compile(r"\w+")


@dataclass(frozen=True)
class Ranked:
    """Chunk indexes, best first, with the score each got from its ranker."""

    ids: np.ndarray
    scores: np.ndarray


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class DenseIndex:
    def __init__(self, vectors: np.ndarray) -> None:
        import faiss

        self.index = faiss.IndexFlatIP(vectors.shape[1])
        self.index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def search(self, query_vectors: np.ndarray, k: int) -> list[Ranked]:
        k = min(k, len(self))
        if k == 0:
            return [Ranked(np.zeros(0, np.int64), np.zeros(0, np.float32)) for _ in query_vectors]
        scores, ids = self.index.search(np.ascontiguousarray(query_vectors, dtype=np.float32), k)
        return [Ranked(i, s) for i, s in zip(ids, scores)]


class BM25Index:
    def __init__(self, texts: list[str] | tuple[str, ...]) -> None:
        import bm25s

        self.size = len(texts)
        self.bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        self.bm25.index([tokenize(t) or [""] for t in texts], show_progress=False)

    def __len__(self) -> int:
        return self.size

    def search(self, query: str, k: int) -> Ranked:
        tokens = [t for t in tokenize(query) if t in self.bm25.vocab_dict]
        scores = self.bm25.get_scores(tokens) if tokens else np.zeros(self.size, np.float32)
        k = min(k, self.size)
        top = np.argpartition(-scores, k - 1)[:k] if 0 < k < self.size else np.arange(self.size)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # by score desc, then chunk index
        return Ranked(top.astype(np.int64), scores[top])


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
