"""Split a document into chunks that keep exact character spans ``[start, end)`` into its text.

- ``rcts``: LangChain's ``RecursiveCharacterTextSplitter`` (the splitter LegalBench-RAG and the
  SAC paper use) with the paper's separators, ``length_function=len``. The library produces chunk
  strings; we recover each chunk's position by searching forward from where the previous chunk
  could at the earliest have started, so ``text[start:end] == chunk`` always holds.
- ``naive``: fixed windows of ``chunk_size`` characters, stepping ``chunk_size - chunk_overlap``.
- ``paragraph``: whole paragraphs (blank-line separated) packed up to ``chunk_size`` characters;
  a longer paragraph is split by ``rcts``. No overlap (Rainbow RAG's paragraph chunking).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from langchain_text_splitters import RecursiveCharacterTextSplitter


_BLANK_LINE = re.compile(r"\n[ \t]*\n")

CHUNKERS: tuple[str, ...] = ("rcts", "naive", "paragraph")
RCTS_SEPARATORS: list[str] = ["\n\n", "\n", "!", "?", ".", ":", ";", ",", " ", ""]


@dataclass(frozen=True)
class Chunk:
    """Characters ``[start, end)`` of document ``file_path``; ``text`` is exactly that slice."""

    file_path: str
    start: int
    end: int
    text: str


def chunk_document(file_path: str, text: str, chunker: str, chunk_size: int, chunk_overlap: int) -> list[Chunk]:
    if chunk_size <= 0 or not 0 <= chunk_overlap < chunk_size:
        raise ValueError(f"need chunk_size > 0 and 0 <= chunk_overlap < chunk_size, got {chunk_size}, {chunk_overlap}")
    if chunker == "naive":
        step = chunk_size - chunk_overlap
        return [
            Chunk(file_path, s, min(s + chunk_size, len(text)), text[s : s + chunk_size])
            for s in range(0, len(text), step)
            if s == 0 or s + chunk_overlap < len(text)  # no window made only of the previous overlap
        ]
    if chunker == "rcts":
        pieces = _rcts(chunk_size, chunk_overlap).split_text(text)
        return _locate(file_path, text, pieces, chunk_overlap)
    if chunker == "paragraph":
        return _paragraphs(file_path, text, chunk_size)
    raise ValueError(f"unknown chunker {chunker!r}; choose one of {', '.join(CHUNKERS)}")


def _paragraphs(file_path: str, text: str, chunk_size: int) -> list[Chunk]:
    """Consecutive paragraphs while they fit in ``chunk_size`` characters (a chunk spans the blank
    lines between them); an oversized paragraph becomes ``rcts`` chunks of its own."""
    spans: list[tuple[int, int]] = []  # paragraphs as [start, end), whitespace trimmed
    position = 0
    for gap in [*_BLANK_LINE.finditer(text), None]:
        end = gap.start() if gap else len(text)
        piece = text[position:end]
        if piece.strip():
            start = position + len(piece) - len(piece.lstrip())
            spans.append((start, position + len(piece.rstrip())))
        position = gap.end() if gap else len(text)
    chunks: list[Chunk] = []
    current: tuple[int, int] | None = None
    for start, end in spans:
        if current is not None and end - current[0] <= chunk_size:
            current = (current[0], end)
            continue
        if current is not None:
            chunks.append(Chunk(file_path, current[0], current[1], text[current[0] : current[1]]))
            current = None
        if end - start <= chunk_size:
            current = (start, end)
        else:
            pieces = _rcts(chunk_size, 0).split_text(text[start:end])
            chunks += [
                Chunk(file_path, c.start + start, c.end + start, c.text)
                for c in _locate(file_path, text[start:end], pieces, 0)
            ]
    if current is not None:
        chunks.append(Chunk(file_path, current[0], current[1], text[current[0] : current[1]]))
    return chunks


@lru_cache(maxsize=16)
def _rcts(chunk_size: int, chunk_overlap: int) -> RecursiveCharacterTextSplitter:
    from langchain_text_splitters import RecursiveCharacterTextSplitter  # ~0.5 s to import: only when chunking

    return RecursiveCharacterTextSplitter(
        separators=RCTS_SEPARATORS,
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        length_function=len,
        is_separator_regex=False,
    )


def _locate(file_path: str, text: str, pieces: list[str], chunk_overlap: int) -> list[Chunk]:
    """Find each piece in order. A piece begins no earlier than the previous end minus the overlap."""
    chunks: list[Chunk] = []
    prev_start, prev_end = -1, 0
    for piece in pieces:
        start = text.find(piece, max(prev_start + 1, prev_end - chunk_overlap))
        if start < 0:  # cannot happen for a splitter that only cuts and strips; fail loudly if it does
            raise RuntimeError(f"{file_path}: chunk not found in text after offset {prev_end}: {piece[:60]!r}")
        chunks.append(Chunk(file_path, start, start + len(piece), piece))
        prev_start, prev_end = start, start + len(piece)
    return chunks
