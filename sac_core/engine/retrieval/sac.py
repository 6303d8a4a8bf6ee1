"""Summary-Augmented Chunking (Reuter et al. 2025, arXiv:2510.06999).

Every chunk is indexed under its document's summary and its own text::

    [document summary] <summary of the chunk's document>
    [content] <chunk text>

the format of the SAC authors' code. The chunk keeps its original span, and ``chunk_size``
counts characters of the document, not of the summary.
"""

from __future__ import annotations

SAC_TEMPLATE = "[document summary] {summary}\n[content] {chunk}"


def augment(chunk_text: str, summary: str) -> str:
    """What SAC embeds and BM25-indexes for a chunk of a document with ``summary``."""
    return SAC_TEMPLATE.format(summary=summary, chunk=chunk_text)
