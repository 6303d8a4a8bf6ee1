"""What every retrieval method returns, and the one interface a method's ranking implements.

A :class:`Hit` is a ranked stretch of a document: ``chunk`` holds its ``file_path``, its characters
``[start, end)`` and that text. Most methods return their index's chunks; a method may also return
tighter or wider spans (a trimmed chunk, an imported run's snippets): the metrics count whatever
span it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..chunking import Chunk
from ..data import Span


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float  # the method's own score: cosine (dense), BM25, a fused rank score, an imported score …


class Ranker(Protocol):
    """Anything that ranks passages of the benchmark's documents for free-text queries."""

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        """The top ``k`` hits of each query, best first (fewer when the method has fewer)."""
        ...


def as_spans(hits: Sequence[Hit]) -> list[Span]:
    return [Span(h.chunk.file_path, h.chunk.start, h.chunk.end) for h in hits]
