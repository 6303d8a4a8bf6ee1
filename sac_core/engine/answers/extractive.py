"""An offline answerer: the excerpts' sentences that best match the question, quoted with their labels.

No model is asked and nothing leaves the machine: the question (its question part, when it opens
with the document it means: :func:`~sac_core.engine.retrieval.split_query`) and every sentence of
the excerpts are embedded by the page's own embedding model (cached), and the ``sentences`` best
sentences whose cosine reaches ``min_cosine`` and that say something (not only names, capitals
and stop words: :func:`~.sources.has_content`) are quoted, best first, one a line, each followed by
its excerpt's label: ``“<the sentence>” [#3]``. A quote is the document's characters exactly
(brackets, ``#``, markup and line breaks included), and the answer says where each quote lies
(:attr:`Answer.quotes`), so "SCHEDULE [1]" in a contract is never read as a citation. When none
reaches the floor, the answer is "Not in the excerpts." So a demo without an API key still shows
what the text says, and which document it says it in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..embedding import Embedder
from ..retrieval import split_query
from ..retrieval.sentences import sentence_spans
from .excerpts import Excerpt
from .llm import NOT_IN_EXCERPTS
from .sources import has_content
from .types import Answer, cite


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
        pieces = [(e, e.text[a:b]) for e in excerpts for a, b in sentence_spans(e.text)]
        kept: list[int] = []
        if pieces:
            vectors = self.embedder.encode([split_query(question).question, *(p for _, p in pieces)], progress=False)
            cosines = vectors[1:] @ vectors[0]
            ranked = [int(i) for i in np.argsort(-cosines, kind="stable")]
            kept = [i for i in ranked if cosines[i] >= self.min_cosine and has_content(pieces[i][1])][: self.sentences]
        lines, quotes, at = [], [], 0
        for i in kept:
            excerpt, sentence = pieces[i]
            quotes.append((at, at + len(sentence) + 2))  # the sentence between its quotation marks
            lines.append(f"“{sentence}” [{excerpt.label}]")
            at += len(lines[-1]) + 1
        text = "\n".join(lines) or NOT_IN_EXCERPTS
        if on_text is not None:
            on_text(text)
        return cite(text, excerpts, self.name, quotes=tuple(quotes))
