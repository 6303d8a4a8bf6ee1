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

A document's own labels never score it: exemplars from the same document are left out, so a bank
made of the evaluated benchmark itself is a leave-one-document-out estimate. Given the evaluated
documents' texts' SHA-256 (``documents``), "the same document" is the same text under any name: a
copy filed twice (LegalBench-RAG holds two such pairs) or a bank read from a renamed copy of the
folder (``sac idnames``); without it, the same file path. Gold passages longer
than ``max_chars`` are cut into pieces of at most that many characters (the chunk size), so a piece
and a chunk are compared at the same scale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    document: str = ""  # SHA-256 of its document's text (see the module docstring; "": unknown)


MATCHES: tuple[str, ...] = ("question", "family")


@dataclass(frozen=True)
class ExemplarSettings:
    min_similarity: float = 0.8  # cosine between question parts for a bank question to count
    questions: int = 32  # at most this many bank questions (the closest)
    top: int = 3  # pieces averaged per chunk
    max_chars: int = 500  # pieces of a gold passage (characters)
    match: str = "question"  # "question": by the question's words; "family": soft, by words and answers
    families: int = 3  # "family": the question families weighed (the most likely)
    temperature: float = 0.05  # "family": softmax temperature over family scores (cosine units)
    words: float = 1.0  # "family": weight of the closest wording's cosine in a family's score
    answer: float = 1.0  # "family": weight of the answer likeness in a family's score
    answer_top: int = 5  # "family": a family's answer likeness = mean of its pieces' top cosines to the question


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
            digest = bench.documents[span.file_path].sha256
            out.extend(Exemplar(question, span.file_path, piece, digest) for piece in _pieces(text, max_chars))
    return out


def copies(bank: Benchmark, evaluated: Benchmark) -> list[tuple[str, str]]:
    """(evaluated path, bank path) of every bank document whose text is an evaluated document's under
    another path: the pieces matching by text leaves out beyond matching by path (sorted)."""
    by_text: dict[str, list[str]] = {}
    for path, doc in evaluated.documents.items():
        by_text.setdefault(doc.sha256, []).append(path)
    found = {(own, path) for path, doc in bank.documents.items() for own in by_text.get(doc.sha256, ()) if own != path}
    return sorted(found)


class ExemplarBank:
    """Exemplar pieces and their questions, embedded once by ``embedder`` (the chunks' model).

    ``paraphrases``: other wordings of a bank question (its *family*), for the ``family`` match.
    ``documents``: the evaluated documents' path → SHA-256 of their text; a document's own labels are
    then recognised by its text under any name (by its path when not given)."""

    def __init__(
        self,
        exemplars: Sequence[Exemplar],
        embedder: Embedder,
        settings: ExemplarSettings,
        *,
        paraphrases: Mapping[str, Sequence[str]] | None = None,
        documents: Mapping[str, str] | None = None,
        progress: bool = False,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.settings = settings
        self.questions = sorted({e.question for e in exemplars})
        index = {q: i for i, q in enumerate(self.questions)}
        self.question_of = np.array([index[e.question] for e in exemplars], dtype=np.int64)
        if documents is not None and not all(e.document for e in exemplars):
            raise ValueError("exemplars without their document's SHA-256 cannot be matched by text")
        self.documents = documents
        self.file_of = np.array([e.document if documents is not None else e.file_path for e in exemplars], dtype=object)
        extra = [(index[q], p) for q in self.questions for p in (paraphrases or {}).get(q, ())]
        texts = bank_texts(exemplars, paraphrases)
        vectors = (
            embedder.encode(texts, progress=progress, desc="embedding exemplars", on_progress=on_progress)
            if texts
            else np.zeros((0, 1), dtype=np.float32)
        )
        n_q, n_p = len(self.questions), len(exemplars)
        self.question_vectors, self.vectors = vectors[:n_q], vectors[n_q : n_q + n_p]
        # every wording of every family: the bank question itself, then its paraphrases
        self.phrase_family = np.array([*range(n_q), *(f for f, _ in extra)], dtype=np.int64)
        self.phrase_vectors = np.concatenate([self.question_vectors, vectors[n_q + n_p :]]) if n_q else vectors[:0]

    def __len__(self) -> int:
        return len(self.question_of)

    def bank_key(self, file_path: str, sha256: str) -> str:
        """What the pieces of the bank's own document ``file_path`` (text SHA-256 ``sha256``) are keyed by."""
        return file_path if self.documents is None else sha256

    def document_key(self, file_path: str) -> str:
        """What the bank's pieces of the evaluated document ``file_path`` are keyed by."""
        return file_path if self.documents is None else self.documents.get(file_path, file_path)

    def matching(self, question_vector: np.ndarray) -> np.ndarray:
        """Bank question ids similar enough to the query's question, closest first."""
        if not self.questions:
            return np.zeros(0, dtype=np.int64)
        sims = self.question_vectors @ question_vector
        order = np.argsort(-sims, kind="stable")[: self.settings.questions]
        return order[sims[order] >= self.settings.min_similarity]

    def family_weights(self, question_vector: np.ndarray, file_path: str) -> tuple[np.ndarray, np.ndarray]:
        """(family ids, weights summing to 1) of the ``families`` most likely question families of a
        query: a family's score is ``words`` × its closest wording's cosine to the question plus ``answer`` × the
        mean of its pieces' ``answer_top`` best cosines to the question (pieces of ``file_path`` left
        out), softmax-weighted at ``temperature``."""
        s = self.settings
        words = np.full(len(self.questions), -np.inf)
        np.maximum.at(words, self.phrase_family, self.phrase_vectors @ question_vector)
        other = self.file_of != self.document_key(file_path)
        piece_sims = self.vectors @ question_vector
        answers = np.full(len(self.questions), -np.inf)
        for family in range(len(self.questions)):
            sims = piece_sims[(self.question_of == family) & other]
            if len(sims):
                answers[family] = float(np.sort(sims)[-s.answer_top :].mean())
        score = s.words * words + s.answer * answers
        known = np.flatnonzero(np.isfinite(score))
        top = known[np.argsort(-score[known], kind="stable")[: s.families]]
        if not len(top):
            return top, np.zeros(0)
        z = (score[top] - score[top].max()) / s.temperature
        weights = np.exp(z) / np.exp(z).sum()
        return top, weights

    def scores(self, question_vector: np.ndarray, chunk_vectors: np.ndarray, file_path: str) -> np.ndarray | None:
        """The exemplar score of each chunk (rows of ``chunk_vectors``, all of document ``file_path``),
        or None when no bank question matches (then the signal is left out)."""
        if self.settings.match == "family":
            return self._family_scores(question_vector, chunk_vectors, file_path)
        questions = self.matching(question_vector)
        if not len(questions):
            return None
        use = np.isin(self.question_of, questions) & (self.file_of != self.document_key(file_path))
        if not use.any():
            return None
        sims = chunk_vectors @ self.vectors[use].T  # (chunks, pieces)
        top = min(self.settings.top, sims.shape[1])
        best = -np.sort(-sims, axis=1)[:, :top]
        return best.mean(axis=1)

    def _family_scores(
        self, question_vector: np.ndarray, chunk_vectors: np.ndarray, file_path: str
    ) -> np.ndarray | None:
        """``Σ_f w_f · (mean of the top pieces' cosines of family f)`` per chunk (:meth:`family_weights`)."""
        families, weights = self.family_weights(question_vector, file_path)
        other = self.file_of != self.document_key(file_path)
        out, total = np.zeros(len(chunk_vectors)), 0.0
        for family, weight in zip(families, weights):
            use = (self.question_of == family) & other
            if not use.any():
                continue
            sims = chunk_vectors @ self.vectors[use].T
            top = min(self.settings.top, sims.shape[1])
            out += weight * (-np.sort(-sims, axis=1)[:, :top]).mean(axis=1)
            total += weight
        return out / total if total else None


def bank_texts(exemplars: Sequence[Exemplar], paraphrases: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """What a bank embeds: its distinct questions (sorted), every piece in order, then the
    paraphrases of its questions (in question order)."""
    questions = sorted({e.question for e in exemplars})
    extra = [p for q in questions for p in (paraphrases or {}).get(q, ())]
    return questions + [e.text for e in exemplars] + extra
