"""The retrieval pool: every chunk of every benchmark document, with the text it is indexed under.

The method decides that text: :mod:`.baseline` indexes the chunk itself, :mod:`.sac` prepends
its document's summary. The chunk keeps its original span either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..chunking import Chunk, chunk_document
from ..data import Document
from . import baseline, sac

METHODS: tuple[str, ...] = ("baseline", "sac")


@dataclass(frozen=True)
class Pool:
    """Chunks in a fixed order; ``indexed[i]`` is what is embedded and BM25-indexed for ``chunks[i]``."""

    chunks: tuple[Chunk, ...]
    indexed: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.chunks)


def build_pool(
    documents: Mapping[str, Document],
    chunker: str = "rcts",
    chunk_size: int = 500,
    chunk_overlap: int = 0,
    summaries: Mapping[str, str] | None = None,
) -> Pool:
    """Chunk documents (sorted by path, so the order is stable); with ``summaries`` → SAC texts.

    Raises KeyError naming the document when SAC is asked for and a summary is missing.
    """
    chunks: list[Chunk] = []
    indexed: list[str] = []
    for path in sorted(documents):
        doc_chunks = chunk_document(path, documents[path].text, chunker, chunk_size, chunk_overlap)
        chunks.extend(doc_chunks)
        if summaries is None:
            indexed.extend(baseline.indexed_text(c.text) for c in doc_chunks)
        else:
            if path not in summaries:
                raise KeyError(f"no summary for document {path}")
            indexed.extend(sac.augment(c.text, summaries[path]) for c in doc_chunks)
    return Pool(tuple(chunks), tuple(indexed))
