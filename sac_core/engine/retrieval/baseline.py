"""Baseline (plain RAG): every chunk is indexed under its own text."""

from __future__ import annotations


def indexed_text(chunk_text: str) -> str:
    """What the baseline embeds and BM25-indexes for a chunk: the chunk itself."""
    return chunk_text
