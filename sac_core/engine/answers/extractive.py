"""An offline answerer: the excerpts' sentences that best match the question, quoted with their labels.

No model is asked and nothing leaves the machine: the question (its question part, when it opens
with the document it means: :func:`~sac_core.engine.retrieval.split_query`) and every sentence of
the excerpts are embedded by the page's own embedding model (cached), and the ``sentences`` best
sentences whose cosine reaches ``min_cosine`` are quoted, best first, each followed by its
excerpt's label. When none reaches it, the answer is "Not in the excerpts." So a demo without an
API key still shows what the text says, and which document it says it in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from ..embedding import Embedder
from ..retrieval import split_query
from .excerpts import Excerpt
from .llm import NOT_IN_EXCERPTS
from .types import Answer, cite

# A sentence ends at . ! ? followed by white space and an opening capital, digit, bracket or quote,
# unless the word before the point is a common abbreviation; at a semicolon (legal clauses and list
# items end there); or at a line break.
_ABBREVIATIONS = ("inc", "co", "corp", "ltd", "llc", "no", "nos", "sec", "art", "e.g", "i.e", "u.s", "mr", "ms", "dr")
_END = re.compile(r"(?<=[.!?])\s+(?=[\"“(\[A-Z0-9])|(?<=;)\s+|\n+")
MIN_SENTENCE_CHARS = 25  # shorter pieces (headings, numbering) join the next sentence


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``[start, end)`` in characters of ``text``, covering its non-blank parts."""
    cuts = [0]
    for m in _END.finditer(text):
        before = text[: m.start()].rstrip(".!?;").rsplit(None, 1)
        word = before[-1].lower().strip('("“') if before else ""
        if "\n" not in m.group() and word in _ABBREVIATIONS:
            continue
        cuts.append(m.end())
    cuts.append(len(text))
    spans: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:]):
        piece = text[a:b]
        if not piece.strip():
            continue
        start = a + len(piece) - len(piece.lstrip())
        end = a + len(piece.rstrip())
        if spans and spans[-1][1] - spans[-1][0] < MIN_SENTENCE_CHARS:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


class ExtractiveAnswerer:
    """See the module docstring. ``sentences``: how many are quoted at most; ``min_cosine``: the
    least similarity to the question a quoted sentence needs."""

    name = "extractive"

    def __init__(self, embedder: Embedder, *, sentences: int = 3, min_cosine: float = 0.25) -> None:
        self.embedder = embedder
        self.sentences = sentences
        self.min_cosine = min_cosine

    def answer(
        self, question: str, excerpts: Sequence[Excerpt], *, on_text: Callable[[str], None] | None = None
    ) -> Answer:
        pieces = [(e, e.text[a:b]) for e in excerpts for a, b in split_sentences(e.text)]
        text = NOT_IN_EXCERPTS
        if pieces:
            vectors = self.embedder.encode([split_query(question).question, *(p for _, p in pieces)], False)
            cosines = vectors[1:] @ vectors[0]
            best = [int(i) for i in np.argsort(-cosines, kind="stable")[: self.sentences]]
            kept = [i for i in best if cosines[i] >= self.min_cosine]
            if kept:
                text = "\n".join(f"“{' '.join(pieces[i][1].split())}” [{pieces[i][0].label}]" for i in kept)
        if on_text is not None:
            on_text(text)
        return cite(text, excerpts, self.name)
