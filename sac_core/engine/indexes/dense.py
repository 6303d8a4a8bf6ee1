"""Dense retrieval: ``faiss.IndexFlatIP`` over L2-normalised vectors, i.e. exact cosine similarity.

An index can be written to and read from a file (``faiss.write_index`` / ``read_index``), so a
built index is loaded in seconds instead of re-read vector by vector from the embedding cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .ranked import Ranked

DENSE_KINDS: tuple[str, ...] = ("auto", "flat", "hnsw")
EF_CONSTRUCTION = 200  # candidates while building an HNSW graph


def search_threads(n: int) -> None:
    """Threads (OpenMP) each faiss search of this process may use. A dashboard server sets 1: it
    searches one question at a time per session, and with several sessions searching at once every
    search started OpenMP workers on the same two cores, which then spun against each other (a 5 ms
    search took 200 ms with six sessions, issue 27). Batch runs keep faiss's default."""
    import faiss

    faiss.omp_set_num_threads(n)


class DenseIndex:
    def __init__(self, vectors: np.ndarray) -> None:
        """Exact search: every vector compared with the query."""
        import faiss  # ~0.3 s to import: only when an index is made or read (`sac --help` stays instant)

        self.index: Any = faiss.IndexFlatIP(vectors.shape[1])
        self.index.add(np.ascontiguousarray(vectors, dtype=np.float32))

    @classmethod
    def hnsw(cls, vectors: np.ndarray, m: int = 32, ef_search: int = 128) -> DenseIndex:
        """Approximate search for large pools: an HNSW graph (``m`` links per vector), inner product;
        a search visits ``ef_search`` candidates (recall against the exact index: ``sac bench``)."""
        import faiss

        index = faiss.IndexHNSWFlat(vectors.shape[1], m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = EF_CONSTRUCTION
        index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        index.hnsw.efSearch = ef_search
        return cls.from_faiss(index)

    @property
    def kind(self) -> str:
        import faiss

        return "hnsw" if isinstance(self.index, faiss.IndexHNSW) else "flat"

    def vectors(self) -> np.ndarray:
        """Every indexed vector, in order (a copy)."""
        return np.asarray(self.index.reconstruct_n(0, len(self)), dtype=np.float32)

    def set_ef_search(self, ef_search: int) -> None:
        if self.kind == "hnsw":
            self.index.hnsw.efSearch = ef_search

    @classmethod
    def from_faiss(cls, index: Any) -> DenseIndex:
        """Wrap an existing FAISS index (flat or approximate) built over unit vectors."""
        self = cls.__new__(cls)
        self.index = index
        return self

    @classmethod
    def load(cls, path: Path) -> DenseIndex:
        import faiss

        return cls.from_faiss(faiss.read_index(str(path)))

    def save(self, path: Path) -> None:
        import faiss

        faiss.write_index(self.index, str(path))

    @property
    def dim(self) -> int:
        return int(self.index.d)

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def search(self, query_vectors: np.ndarray, k: int) -> list[Ranked]:
        k = min(k, len(self))
        if k == 0:
            return [Ranked(np.zeros(0, np.int64), np.zeros(0, np.float32)) for _ in query_vectors]
        scores, ids = self.index.search(np.ascontiguousarray(query_vectors, dtype=np.float32), k)
        return [Ranked(i, s) for i, s in zip(ids, scores)]
