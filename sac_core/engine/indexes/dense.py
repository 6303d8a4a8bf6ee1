"""Dense retrieval: ``faiss.IndexFlatIP`` over L2-normalised vectors, i.e. exact cosine similarity."""

from __future__ import annotations

import numpy as np

from .ranked import Ranked


class DenseIndex:
    def __init__(self, vectors: np.ndarray) -> None:
        import faiss  # heavy: only when an index is built

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
