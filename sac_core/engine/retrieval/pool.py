"""The retrieval pool: every chunk of every benchmark document, with the text it is indexed under.

The method decides that text (``index_text``): the baseline indexes the chunk itself, SAC
(:mod:`.sac`) prepends its document's summary. The chunk keeps its original span either way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..chunking import Chunk, chunk_document
from ..data import Document


@dataclass(frozen=True)
class Pool:
    """Chunks in a fixed order; ``indexed[i]`` is what is embedded and BM25-indexed for ``chunks[i]``."""

    chunks: tuple[Chunk, ...]
    indexed: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.chunks)


def chunk_text(chunk: Chunk) -> str:
    """The plain index text: the chunk itself."""
    return chunk.text


def build_pool(
    documents: Mapping[str, Document],
    *,
    chunker: str,
    chunk_size: int,
    chunk_overlap: int,
    index_text: Callable[[Chunk], str] = chunk_text,
    on_progress: Callable[[int, int], None] | None = None,
) -> Pool:
    """Chunk documents (sorted by path, so the order is stable) with ``chunker`` into ``chunk_size``
    characters that share ``chunk_overlap`` (a run's settings: ``RunConfig`` owns their defaults); each chunk indexed under
    ``index_text(chunk)``. ``on_progress(documents chunked, documents)`` after each document."""
    chunks: list[Chunk] = []
    paths = sorted(documents)
    for done, path in enumerate(paths, start=1):
        chunks.extend(chunk_document(path, documents[path].text, chunker, chunk_size, chunk_overlap))
        if on_progress is not None:
            on_progress(done, len(paths))
    return Pool(tuple(chunks), tuple(index_text(c) for c in chunks))
