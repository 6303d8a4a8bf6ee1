"""Sentences: the small units that passage methods score inside a document.

A document is cut into sentences by ``nupunkt`` (the ALEA Institute's Punkt, trained on legal
text: it keeps "Section 2.1(a)", "U.S." and "Inc." inside a sentence); a sentence longer than
``max_chars`` (legal sentences run to thousands of characters) is cut further by the project's
``rcts`` chunker. Each unit is a span ``[start, end)`` of the document's characters with the
surrounding whitespace left out, in document order.

:class:`SentenceIndex` holds the units of every document of a pool and embeds them on demand
through an embedder whose disk cache is content-addressed (one entry per sentence text), so a
sentence is embedded once whichever query or run needs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np
import nupunkt

from ..chunking import chunk_document

MAX_SENTENCE_CHARS = 400  # a longer sentence is cut by rcts into pieces of at most this many characters


def sentence_spans(text: str, max_chars: int = MAX_SENTENCE_CHARS) -> list[tuple[int, int]]:
    """The sentences of ``text`` as ``[start, end)`` spans (whitespace trimmed, none empty, in order);
    sentences longer than ``max_chars`` characters are cut by ``rcts``."""
    if max_chars <= 0:
        raise ValueError(f"max_chars must be > 0, got {max_chars}")
    out: list[tuple[int, int]] = []
    for start, end in nupunkt.sent_spans(text):
        piece = text[start:end]
        lo, hi = start + len(piece) - len(piece.lstrip()), start + len(piece.rstrip())
        if hi <= lo:
            continue
        if hi - lo <= max_chars:
            out.append((lo, hi))
            continue
        for c in chunk_document("", text[lo:hi], "rcts", max_chars, 0):
            out.append((lo + c.start, lo + c.end))
    return out


class Encoder(Protocol):
    def encode(self, texts: Sequence[str], *, progress: bool = ..., desc: str = ...) -> np.ndarray: ...


class SentenceIndex:
    """The sentences of a pool's documents, split once per document and embedded on demand."""

    def __init__(self, texts: Mapping[str, str], embedder: Encoder, max_chars: int = MAX_SENTENCE_CHARS) -> None:
        self.texts = texts
        self.embedder = embedder
        self.max_chars = max_chars
        self._spans: dict[str, np.ndarray] = {}
        self._vectors: dict[str, dict[int, np.ndarray]] = {}

    def spans(self, file_path: str) -> np.ndarray:
        """``(n, 2)`` int array of the document's sentence spans, in order."""
        if file_path not in self._spans:
            found = sentence_spans(self.texts[file_path], self.max_chars)
            self._spans[file_path] = np.array(found, dtype=np.int64).reshape(-1, 2)
        return self._spans[file_path]

    def text(self, file_path: str, i: int) -> str:
        start, end = self.spans(file_path)[i]
        return self.texts[file_path][int(start) : int(end)]

    def within(self, file_path: str, start: int, end: int) -> np.ndarray:
        """Indices of the sentences that overlap characters ``[start, end)``."""
        spans = self.spans(file_path)
        return np.flatnonzero((spans[:, 0] < end) & (spans[:, 1] > start))

    def vectors(self, file_path: str, which: Sequence[int] | np.ndarray) -> np.ndarray:
        """Unit vectors of sentences ``which`` of the document (``len(which) × dim``), embedding
        those not seen yet (the embedder's cache makes a repeat free)."""
        seen = self._vectors.setdefault(file_path, {})
        wanted = [int(i) for i in which]
        missing = [i for i in dict.fromkeys(wanted) if i not in seen]
        if missing:
            for i, v in zip(missing, self.embedder.encode([self.text(file_path, i) for i in missing], progress=False)):
                seen[i] = v
        if not wanted:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([seen[i] for i in wanted]).astype(np.float32, copy=False)

    @property
    def read(self) -> int:
        """Distinct sentences whose vectors were asked for so far (each embedded at most once)."""
        return sum(len(v) for v in self._vectors.values())

    def all_texts(self) -> list[str]:
        """Every sentence of every document (for precomputing their embeddings)."""
        return [self.text(fp, i) for fp in sorted(self.texts) for i in range(len(self.spans(fp)))]
