"""What every retrieval method returns, and the one interface a method's ranking implements.

A :class:`Hit` is a ranked stretch of a document: ``chunk`` holds its ``file_path``, its characters
``[start, end)`` and that text. Most methods return their index's chunks; a method may also return
tighter or wider spans (a trimmed chunk, an imported run's snippets): the metrics count whatever
span it returns.

:class:`Ranker` requires one member, :meth:`~Ranker.search`. Everything else a caller may want to
know (the pool of chunks, the query model, chunk vectors, the plain chunk index underneath, whether
a query named its document, which two documents it could equally mean, the sentences a passage method read, the chunk a hit was cut from) is
an **optional capability** declared here with its default: a ranker subclasses :class:`Ranker` and
overrides what it can do. Callers ask these members; they never probe a ranker's class or attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from ..chunking import Chunk
from ..data import Query, Span
from ..embedding import Embedder
from ..indexes import BM25Index, DenseIndex
from .pool import Pool
from .signal_options import Signals


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float  # the method's own score: cosine (dense), BM25, a fused rank score, an imported score …


@runtime_checkable
class Ranker(Protocol):
    """Anything that ranks passages of the benchmark's documents for free-text queries (see the
    module docstring: :meth:`search` is required, the other members are optional capabilities)."""

    pool: Pool | None = None  # the chunks it ranks (its index's pool); None: no chunk pool of its own
    embedder: Embedder | None = None  # the model that encodes its queries; None: it uses none

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        """The top ``k`` hits of each query, best first (fewer when the method has fewer)."""
        ...

    def search_queries(self, queries: Sequence[Query], k: int, *, progress: bool = False) -> list[list[Hit]]:
        """:meth:`search` for benchmark queries. A ranker that knows them by id (an imported run)
        overrides it: exact even when two queries share a text. Default: by their text."""
        return self.search([q.text for q in queries], k, progress=progress)

    def chunk_vectors(self) -> np.ndarray | None:
        """One unit vector per chunk of :attr:`pool`, in order; None without a dense chunk index."""
        return None

    def chunk_index(self) -> ChunkIndex | None:
        """The plain chunk index this ranker is (dense, BM25 or both; not a re-ranking on top of one),
        or None. What the document-aware ranking builds on, the Map draws and ``sac separation`` measures."""
        return None

    def document_signals(self) -> Signals | None:
        """The document-aware signals this ranker applies (:mod:`.document_aware`), or None."""
        return None

    def document_evidence(self, queries: Sequence[str]) -> list[bool]:
        """Per query: did it say which document it means (a document-aware gate was open)? Passage
        methods work inside the top document only then. Default: no evidence."""
        return [False] * len(queries)

    def document_doubt(self, query: str) -> tuple[str, str] | None:
        """The two documents ``query`` could equally mean (best first) when its document scores act
        and the best two are about equal (:func:`.gate.in_doubt`); None when it is clear, names no
        document, or the ranker scores no documents (the default)."""
        return None

    def sentences_read(self) -> int:
        """Distinct sentence vectors the passage methods of this ranker's chain asked for (their
        embedding cost: each is embedded once, then read from the cache). Default: none."""
        return 0

    def trimmed_from(self, hit: Hit) -> Chunk | None:
        """The chunk ``hit`` was cut from, when a trimming step of this ranker's chain cut it; else None."""
        return None


class ChunkIndex(Protocol):
    """A plain index over a pool's chunks (:class:`.Retriever`): dense, BM25 or a hybrid of both."""

    pool: Pool
    embedder: Embedder
    semantic_weight: float  # 1 = dense only, 0 = BM25 only
    dense: DenseIndex | None
    bm25: BM25Index | None

    def search(
        self, queries: Sequence[str], k: int, *, progress: bool = False, vectors: np.ndarray | None = None
    ) -> list[list[Hit]]:
        """Top-k hits per query; ``vectors``: the queries' embeddings by :attr:`embedder`, if known."""
        ...


def as_spans(hits: Sequence[Hit]) -> list[Span]:
    return [Span(h.chunk.file_path, h.chunk.start, h.chunk.end) for h in hits]
