"""Rank a pool's chunks for free-text queries with the configured ranker (dense, BM25 or hybrid)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..embedding import Embedder
from ..indexes import BM25Index, DenseIndex, Ranked, fuse
from .pool import Pool
from .ranker import ChunkIndex, Hit, Ranker


class Retriever(Ranker):
    """Indexes one pool once; ``search`` then answers any number of queries (a :class:`.Ranker`, and
    a :class:`.ChunkIndex`)."""

    pool: Pool
    embedder: Embedder

    def __init__(
        self,
        pool: Pool,
        embedder: Embedder,
        *,
        semantic_weight: float = 1.0,
        fusion_depth: int = 100,
        progress: bool = True,
        on_progress: Callable[[int, int], None] | None = None,
        dense: DenseIndex | None = None,
        make_dense: Callable[[np.ndarray], DenseIndex] = DenseIndex,
    ) -> None:
        """Index ``pool``: embed its texts into a dense index made by ``make_dense`` (exact by
        default; or take ``dense``, built earlier over the same texts, e.g. loaded from disk) when
        ``semantic_weight > 0``, and BM25 when it is < 1."""
        self.pool = pool
        self.embedder = embedder
        self.semantic_weight = semantic_weight
        self.fusion_depth = fusion_depth
        if semantic_weight > 0 and dense is None:
            dense = make_dense(
                embedder.encode(pool.indexed, progress=progress, desc="embedding chunks", on_progress=on_progress)
            )
        self.dense = dense if semantic_weight > 0 else None
        self.bm25 = BM25Index(pool.indexed) if semantic_weight < 1 else None

    def search(
        self,
        queries: Sequence[str],
        k: int,
        *,
        progress: bool = False,
        vectors: np.ndarray | None = None,
    ) -> list[list[Hit]]:
        """Top-k hits per query. ``vectors``: the queries' embeddings, if the caller has them already."""
        depth = k if self.bm25 is None or self.dense is None else max(k, self.fusion_depth)
        dense: list[Ranked | None] = [None] * len(queries)
        if self.dense is not None:
            if vectors is None:
                vectors = self.embedder.encode(list(queries), progress=progress, desc="embedding queries")
            dense = list(self.dense.search(vectors, depth))
        out = []
        for query, d in zip(queries, dense):
            if self.bm25 is None:
                assert d is not None  # no BM25 means a dense index
                ranked = d
            else:
                b = self.bm25.search(query, depth)
                ranked = b if d is None else fuse(d, b, self.semantic_weight, k)
            out.append(self._hits(ranked, k))
        return out

    def chunk_vectors(self) -> np.ndarray | None:
        return None if self.dense is None else self.dense.vectors()

    def chunk_index(self) -> ChunkIndex:
        return self

    def _hits(self, ranked: Ranked, k: int) -> list[Hit]:
        return [Hit(self.pool.chunks[int(i)], float(s)) for i, s in zip(ranked.ids[:k], ranked.scores[:k]) if i >= 0]
