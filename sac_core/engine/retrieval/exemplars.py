"""Clause exemplars: gold passages of a labelled benchmark, found again by their question.

Legal questions come in templates: CUAD asks the same 41 clause questions of every contract, MAUD
the same deal-point questions of every merger agreement, ContractNLI the same 17 hypotheses of every
NDA. A labelled set (LegalBench-RAG-mini's gold spans, or a firm's own clause library) therefore
shows what the answer to a question *looks like* in other documents. Inside the routed document, a
chunk that resembles those answers is likely the answer here too, even when it shares few words
with the question ("governing law" answered by "construed in accordance with the laws of…").

    exemplar(c) = mean of the ``top`` largest cos(c, e) over the pieces e of the gold passages of
                  the bank's questions whose cosine to the query's question is ≥ ``min_similarity``
                  (at most ``questions`` of them, the closest), from documents other than c's own

A document's own labels never score it: exemplars from the same file path are left out, so a bank
made of the evaluated benchmark itself is a leave-one-document-out estimate. Gold passages longer
than ``max_chars`` are cut into pieces of at most that many characters (the chunk size), so a piece
and a chunk are compared at the same scale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..data import Benchmark
from ..embedding import Embedder
from .query import split_query


@dataclass(frozen=True)
class Exemplar:
    """One piece (≤ ``max_chars`` characters) of a gold passage, with the question it answers."""

    question: str
    file_path: str
    text: str


@dataclass(frozen=True)
class ExemplarSettings:
    min_similarity: float = 0.8  # cosine between question parts for a bank question to count
    questions: int = 32  # at most this many bank questions (the closest)
    top: int = 3  # pieces averaged per chunk
    max_chars: int = 500  # pieces of a gold passage (characters)


def _pieces(text: str, max_chars: int) -> list[str]:
    """``text`` cut into pieces of at most ``max_chars`` characters, at whitespace where possible."""
    out: list[str] = []
    rest = text.strip()
    while len(rest) > max_chars:
        cut = rest.rfind(" ", max_chars // 2, max_chars)
        cut = cut if cut > 0 else max_chars
        out.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    if rest:
        out.append(rest)
    return out


def exemplars_of(bench: Benchmark, max_chars: int) -> list[Exemplar]:
    """Every gold span of ``bench`` as exemplar pieces, with its query's question part."""
    out: list[Exemplar] = []
    for q in bench.queries:
        question = split_query(q.text).question
        for span in q.gold:
            text = bench.documents[span.file_path].text[span.start : span.end]
            out.extend(Exemplar(question, span.file_path, piece) for piece in _pieces(text, max_chars))
    return out


class ExemplarBank:
    """Exemplar pieces and their questions, embedded once by ``embedder`` (the chunks' model)."""

    def __init__(
        self,
        exemplars: Sequence[Exemplar],
        embedder: Embedder,
        settings: ExemplarSettings,
        *,
        progress: bool = False,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.settings = settings
        self.questions = sorted({e.question for e in exemplars})
        index = {q: i for i, q in enumerate(self.questions)}
        self.question_of = np.array([index[e.question] for e in exemplars], dtype=np.int64)
        self.file_of = np.array([e.file_path for e in exemplars], dtype=object)
        texts = bank_texts(exemplars)
        vectors = (
            embedder.encode(texts, progress=progress, desc="embedding exemplars", on_progress=on_progress)
            if texts
            else np.zeros((0, 1), dtype=np.float32)
        )
        self.question_vectors, self.vectors = vectors[: len(self.questions)], vectors[len(self.questions) :]

    def __len__(self) -> int:
        return len(self.question_of)

    def matching(self, question_vector: np.ndarray) -> np.ndarray:
        """Bank question ids similar enough to the query's question, closest first."""
        if not self.questions:
            return np.zeros(0, dtype=np.int64)
        sims = self.question_vectors @ question_vector
        order = np.argsort(-sims, kind="stable")[: self.settings.questions]
        return order[sims[order] >= self.settings.min_similarity]

    def scores(self, question_vector: np.ndarray, chunk_vectors: np.ndarray, file_path: str) -> np.ndarray | None:
        """The exemplar score of each chunk (rows of ``chunk_vectors``, all of document ``file_path``),
        or None when no bank question matches (then the signal is left out)."""
        questions = self.matching(question_vector)
        if not len(questions):
            return None
        use = np.isin(self.question_of, questions) & (self.file_of != file_path)
        if not use.any():
            return None
        sims = chunk_vectors @ self.vectors[use].T  # (chunks, pieces)
        top = min(self.settings.top, sims.shape[1])
        best = -np.sort(-sims, axis=1)[:, :top]
        return best.mean(axis=1)


def bank_texts(exemplars: Sequence[Exemplar]) -> list[str]:
    """What a bank embeds: its distinct questions (sorted), then every piece in order."""
    return sorted({e.question for e in exemplars}) + [e.text for e in exemplars]
