"""Summary-Augmented Chunking (Reuter et al. 2025, arXiv:2510.06999).

Every chunk is indexed under its document's summary and its own text::

    [document summary] <summary of the chunk's document>
    [content] <chunk text>

the format of the SAC authors' code. The chunk keeps its original span, and ``chunk_size``
counts characters of the document, not of the summary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..chunking import Chunk

SAC_TEMPLATE = "[document summary] {summary}\n[content] {chunk}"


def augment(chunk_text: str, summary: str) -> str:
    """What SAC embeds and BM25-indexes for a chunk of a document with ``summary``."""
    return SAC_TEMPLATE.format(summary=summary, chunk=chunk_text)


def summary_augmented(summaries: Mapping[str, str]) -> Callable[[Chunk], str]:
    """The index text of a chunk under SAC; raises KeyError naming a document without a summary."""

    def index_text(chunk: Chunk) -> str:
        if chunk.file_path not in summaries:
            raise KeyError(f"no summary for document {chunk.file_path}")
        return augment(chunk.text, summaries[chunk.file_path])

    return index_text
