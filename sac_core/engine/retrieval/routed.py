"""What the passage methods share: the ranker they refine, the query's question, and the document
it was routed to.

A passage method (:mod:`.within_document`, :mod:`.small_to_big`, :mod:`.trimming`) wraps a ranker
that has a pool, chunk vectors and an embedder (:class:`.Retriever` or
:class:`.DocumentAwareRetriever`). It acts only on a query that gave **evidence about its
document** (the document-aware ranker's gate was open, :mod:`.gate`): there the top hit's document
is the *routed* document and the method works inside it; on any other query it returns the inner
ranking unchanged (plain ranking is never made worse by a guess).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..embedding import Embedder
from ..indexes import BM25Index
from .pool import Pool
from .query import QueryParts, split_query
from .ranker import Hit


class Refinable(Protocol):
    """A ranker a passage method can wrap."""

    @property
    def pool(self) -> Pool: ...

    @property
    def embedder(self) -> Embedder: ...

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]: ...


def zscore(x: np.ndarray) -> np.ndarray:
    """``(x - mean) / std`` (all zeros when ``x`` is constant or empty)."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return x
    std = float(x.std())
    return (x - x.mean()) / std if std > 0 else np.zeros_like(x)


class Routing:
    """The pool of a wrapped ranker seen document by document, with the per-query facts passage
    methods need: the question (split off the document reference when ``split``), its vector,
    whether the query gave evidence about its document, and each document's BM25 (built on first use)."""

    def __init__(self, inner: Refinable, *, split: bool) -> None:
        self.inner = inner
        self.split = split
        self.chunks = inner.pool.chunks
        self.vectors = chunk_vectors(inner)
        by_doc: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            by_doc.setdefault(c.file_path, []).append(i)
        self.doc_chunks = {fp: np.array(ids, dtype=np.int64) for fp, ids in by_doc.items()}
        self._bm25: dict[str, BM25Index] = {}

    def parts(self, query: str) -> QueryParts:
        return split_query(query) if self.split else QueryParts(query, query)

    def questions(self, queries: Sequence[str]) -> tuple[list[QueryParts], np.ndarray]:
        parts = [self.parts(q) for q in queries]
        return parts, self.inner.embedder.encode([p.question for p in parts], progress=False)

    def evidence(self, queries: Sequence[str]) -> list[bool]:
        """Per query: did it say which document it means? (The inner ranker's gate; a ranker without
        document scores has no evidence.)"""
        ask = getattr(self.inner, "document_evidence", None)
        return list(ask(queries)) if callable(ask) else [False] * len(queries)

    def bm25(self, file_path: str, question: str) -> np.ndarray:
        """BM25 of ``question`` over the chunks of one document (IDF within that document)."""
        if file_path not in self._bm25:
            self._bm25[file_path] = BM25Index([self.chunks[int(i)].text for i in self.doc_chunks[file_path]])
        return self._bm25[file_path].scores(question)


def refinable(ranker: object, what: str) -> Refinable:
    """``ranker`` when a passage method can wrap it (a pool, an embedder, chunk vectors); else a
    ValueError naming ``what`` needs one."""
    if not all(hasattr(ranker, name) for name in ("pool", "embedder", "search")):
        raise ValueError(f"{what} needs a chunk index with an embedder (baseline or SAC), not {type(ranker).__name__}")
    chunk_vectors(ranker)  # type: ignore[arg-type]  # raises when there is no dense index
    return ranker  # type: ignore[return-value]


def chunk_vectors(ranker: Refinable) -> np.ndarray:
    """The wrapped ranker's chunk vectors (one row per pool chunk)."""
    vectors = getattr(ranker, "vectors", None)
    if isinstance(vectors, np.ndarray):
        return vectors
    dense = getattr(ranker, "dense", None)
    if dense is None:
        raise ValueError("passage methods need a dense chunk index (semantic_weight > 0)")
    return np.asarray(dense.vectors())


def fill(first: list[Hit], rest: Sequence[Hit], k: int) -> list[Hit]:
    """``first``, then the hits of ``rest`` that overlap none of them, up to ``k``."""
    out = list(first[:k])
    for h in rest:
        if len(out) >= k:
            break
        c = h.chunk
        if any(o.chunk.file_path == c.file_path and o.chunk.start < c.end and c.start < o.chunk.end for o in out):
            continue
        out.append(h)
    return out


def sentences_read(ranker: object) -> int:
    """Distinct sentence vectors the passage methods in ``ranker``'s chain asked for (their cost in
    embeddings: each is embedded once, then read from the cache)."""
    total, seen = 0, set()
    while ranker is not None:
        index = getattr(ranker, "sentences", None)
        if index is not None and id(index) not in seen:
            seen.add(id(index))
            total += int(getattr(index, "read", 0))
        ranker = getattr(ranker, "inner", None)
    return total
