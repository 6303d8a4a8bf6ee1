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

With ``ranked`` (the dashboard's answer row), the answer trusts the ranking as a reader would: it
quotes the best-ranked excerpt that has such a sentence, then the best sentences of that excerpt's
document only. A column that ranks the gold document first then answers from it, and one that ranks
another document first answers from that one: the answer shows the ranking's effect, never a
sentence of a chunk ranked #4 of another contract that happens to sound closer to the question.
``sac answers`` keeps the published setting (all excerpts by similarity alone).
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
    least similarity to the question a quoted sentence needs; ``ranked``: quote the best-ranked
    excerpt that has such a sentence, and only its document."""

    name = "extractive"

    def __init__(
        self, embedder: Embedder, *, sentences: int = 3, min_cosine: float = 0.25, ranked: bool = False
    ) -> None:
        self.embedder = embedder
        self.sentences = sentences
        self.min_cosine = min_cosine
        self.ranked = ranked

    def answer(
        self, question: str, excerpts: Sequence[Excerpt], *, on_text: Callable[[str], None] | None = None
    ) -> Answer:
        pieces = [(e, e.text[a:b]) for e in excerpts for a, b in sentence_spans(e.text)]
        kept: list[int] = []
        if pieces:
            vectors = self.embedder.encode([split_query(question).question, *(p for _, p in pieces)], progress=False)
            cosines = vectors[1:] @ vectors[0]
            ranked = [int(i) for i in np.argsort(-cosines, kind="stable")]
            kept = [i for i in ranked if cosines[i] >= self.min_cosine and has_content(pieces[i][1])]
            if self.ranked and kept:
                kept = _by_rank([p[0] for p in pieces], kept)
            kept = kept[: self.sentences]
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


def _by_rank(excerpt_of: Sequence[Excerpt], kept: Sequence[int]) -> list[int]:
    """Of the sentences ``kept`` (indexes into ``excerpt_of``, the best first), the best one of the
    best-ranked excerpt first (sentences come in excerpt order: the smallest index), then the others
    of that excerpt's document, best first."""
    first = min(kept)
    lead = next(i for i in kept if excerpt_of[i] is excerpt_of[first])
    document = excerpt_of[first].file_path
    return [lead, *(i for i in kept if i != lead and excerpt_of[i].file_path == document)]
