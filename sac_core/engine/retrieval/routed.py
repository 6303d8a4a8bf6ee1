"""What the passage methods share: the ranker they refine, the query's question, and the document
it was routed to.

A passage method (:mod:`.within_document`, :mod:`.small_to_big`, :mod:`.trimming`) wraps a ranker
that declares a pool, chunk vectors and an embedder (:class:`.Retriever`,
:class:`.DocumentAwareRetriever` or another passage method; :class:`Refining` holds what they
share). It acts only on a query that gave **evidence about its
document** (the document-aware ranker's gate was open, :mod:`.gate`): there the top hit's document
is the *routed* document and the method works inside it; on any other query it returns the inner
ranking unchanged (plain ranking is never made worse by a guess).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..chunking import Chunk
from ..embedding import Embedder
from ..indexes import BM25Index
from .query import QueryParts, split_query
from .ranker import Hit, Ranker
from .sentences import SentenceIndex


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

    def __init__(self, inner: Ranker, *, split: bool) -> None:
        pool, embedder, vectors = inner.pool, inner.embedder, inner.chunk_vectors()
        if pool is None or embedder is None or vectors is None:
            raise ValueError("passage methods need a dense chunk index with an embedder (baseline or SAC)")
        self.inner = inner
        self.split = split
        self.embedder: Embedder = embedder
        self.chunks = pool.chunks
        self.vectors = vectors
        by_doc: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            by_doc.setdefault(c.file_path, []).append(i)
        self.doc_chunks = {fp: np.array(ids, dtype=np.int64) for fp, ids in by_doc.items()}
        self._bm25: dict[str, BM25Index] = {}

    def parts(self, query: str) -> QueryParts:
        return split_query(query) if self.split else QueryParts(query, query)

    def questions(self, queries: Sequence[str]) -> tuple[list[QueryParts], np.ndarray]:
        parts = [self.parts(q) for q in queries]
        return parts, self.embedder.encode([p.question for p in parts], progress=False)

    def evidence(self, queries: Sequence[str]) -> list[bool]:
        """Per query: did it say which document it means? (The inner ranker's gate; a ranker without
        document scores has no evidence.)"""
        return list(self.inner.document_evidence(queries))

    def bm25(self, file_path: str, question: str) -> np.ndarray:
        """BM25 of ``question`` over the chunks of one document (IDF within that document)."""
        if file_path not in self._bm25:
            self._bm25[file_path] = BM25Index([self.chunks[int(i)].text for i in self.doc_chunks[file_path]])
        return self._bm25[file_path].scores(question)


class Refining(Ranker):
    """What a passage method's ranker shares: it wraps ``inner`` (whose pool, embedder and chunk
    vectors it keeps: the same chunks), passes on ``inner``'s document evidence and trimmed chunks,
    and adds the sentences it read (``sentences``, if any) to those of ``inner``'s chain."""

    def __init__(self, inner: Ranker, *, split: bool, sentences: SentenceIndex | None = None) -> None:
        self.inner, self.sentences = inner, sentences
        self.routing = Routing(inner, split=split)
        self.pool, self.embedder = inner.pool, inner.embedder

    def chunk_vectors(self) -> np.ndarray:
        return self.routing.vectors

    def document_evidence(self, queries: Sequence[str]) -> list[bool]:
        return self.routing.evidence(queries)

    def document_doubt(self, query: str) -> tuple[str, str] | None:
        return self.inner.document_doubt(query)

    def sentences_read(self) -> int:
        return (self.sentences.read if self.sentences is not None else 0) + self.inner.sentences_read()

    def trimmed_from(self, hit: Hit) -> Chunk | None:
        return self.inner.trimmed_from(hit)


def refinable(ranker: Ranker, what: str) -> Ranker:
    """``ranker`` when a passage method can wrap it (it declares a pool, an embedder and chunk
    vectors); else a ValueError naming ``what`` needs one."""
    if ranker.pool is None or ranker.embedder is None:
        raise ValueError(f"{what} needs a chunk index with an embedder (baseline or SAC), not {type(ranker).__name__}")
    if ranker.chunk_vectors() is None:
        raise ValueError("passage methods need a dense chunk index (semantic_weight > 0)")
    return ranker


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
