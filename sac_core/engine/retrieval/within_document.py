"""Within-document ranking: once the document is chosen, rank its chunks with signals that were
too noisy (or too costly) over the whole pool.

Over the pool, BM25 on chunks hurts (the same clause words occur in every contract); inside one
document the words that set a clause apart from the document's other clauses are exactly the ones
BM25 weighs up, with IDF counted within the document. Two more signals: the best sentence of the
chunk (a 500-character chunk mixes clauses; its best sentence says more than its average,
:mod:`.sentences`) and the chunk's neighbours (a clause's heading sits in the chunk before it).
Each signal is z-normalised over the document's chunks and added with its weight:

    score(c) = z(cos(q, c)) + bm25_weight · z(BM25(q, c)) + sentence_weight · z(max_s cos(q, s))
               + exemplar_weight · z(exemplar(c)) + adapter_weight · z(cos(W·q, c))
               + neighbour_weight · (z-score of the chunk before + of the chunk after) / 2

(``exemplar``: likeness to gold passages of the same question elsewhere, :mod:`.exemplars`; ``W``:
the query adapter learned from those passages, :mod:`.adapter`.)

The idea is the hybrid lexical + dense ranking of KG-CiteRAG and Rainbow RAG's second stage,
applied after routing (the SAC paper's two-level outlook): the document's chunks ranked this way
come first, then the wrapped ranker's other hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .adapter import AdapterSettings, QueryAdapter
from .exemplars import MATCHES, ExemplarBank, ExemplarSettings
from .ranker import Hit, Ranker
from .routed import Refining, fill, zscore
from .sentences import MAX_SENTENCE_CHARS, SentenceIndex


@dataclass(frozen=True)
class WithinDocumentSettings:
    """The within-document ranking's settings (dimensionless weights, see the module docstring), and
    the options of its stage (``within_doc.<field>``); ``exemplar_*`` configure the bank (:mod:`.exemplars`)."""

    on: bool = False  # the stage is switched on (read by the run's configuration)
    bm25: float = 0.25  # weight of z(BM25 of the question over the document's chunks)
    sentence: float = 0.0  # weight of z(best sentence cosine) (embeds sentences)
    neighbour: float = 0.0  # weight of the mean z-score of the chunk before and after
    sentence_depth: int = 16  # chunks (the best by cosine) whose sentences are embedded and scored
    max_sentence_chars: int = MAX_SENTENCE_CHARS  # longer sentences are cut (characters)
    exemplar: float = 0.0  # weight of z(likeness to gold passages of the same question elsewhere)
    exemplar_protocol: str = "lbr-mini"  # the labelled queries of the bank
    exemplar_data: str = field(default="", metadata={"path": True})  # their folder ("" = the run's data folder)
    exemplar_similarity: float = 0.8  # question-part cosine for a bank question to count
    exemplar_questions: int = 32  # at most this many bank questions (the closest)
    exemplar_top: int = 3  # exemplar pieces averaged per chunk
    exemplar_match: str = "question"  # "question": bank questions by cosine ≥ similarity; "family": soft families
    exemplar_families: int = 3  # "family": question families weighed
    exemplar_temperature: float = 0.05  # "family": softmax temperature (cosine units)
    exemplar_words: float = 1.0  # "family": weight of how much a family's wordings resemble the question
    exemplar_answer: float = 1.0  # "family": weight of how much a family's answers resemble the question
    exemplar_paraphrases: bool = False  # "family": three more wordings of each bank question (paraphrases.json)
    adapter: float = 0.0  # weight of z(cos(W·q, c)), W learned from the bank's gold passages (.adapter)
    adapter_epochs: int = 5  # passes of the adapter's training over the bank's documents
    adapter_target: str = "pieces"  # what it learns to rank: "pieces" (gold pieces) or "chunks" (.adapter)

    def __post_init__(self) -> None:
        if min(self.bm25, self.sentence, self.neighbour, self.exemplar, self.adapter) < 0:
            raise ValueError("weights must be >= 0")
        self.adapter_settings()  # its own checks (epochs >= 1, target), raised now rather than when the stage opens
        if self.sentence_depth < 1 or self.max_sentence_chars < 1:
            raise ValueError("sentence_depth and max_sentence_chars must be >= 1")
        if self.exemplar_questions < 1 or self.exemplar_top < 1 or self.exemplar_families < 1:
            raise ValueError("exemplar_questions, exemplar_top and exemplar_families must be >= 1")
        if self.exemplar_match not in MATCHES or self.exemplar_temperature <= 0:
            raise ValueError(f"exemplar_match must be one of {MATCHES}, exemplar_temperature > 0")
        if min(self.exemplar_words, self.exemplar_answer) < 0 or not max(self.exemplar_words, self.exemplar_answer):
            raise ValueError("exemplar_words and exemplar_answer must be >= 0, not both 0")

    def exemplar_settings(self, max_chars: int) -> ExemplarSettings:
        """The bank's settings, its gold passages cut into pieces of ``max_chars`` characters (the chunk size)."""
        return ExemplarSettings(
            self.exemplar_similarity, self.exemplar_questions, self.exemplar_top, max_chars, self.exemplar_match,
            self.exemplar_families, self.exemplar_temperature, self.exemplar_words, self.exemplar_answer,
        )  # fmt: skip

    def adapter_settings(self) -> AdapterSettings:
        """The query adapter's training settings (the others at their defaults)."""
        return AdapterSettings(epochs=self.adapter_epochs, target=self.adapter_target)

    @property
    def reads_bank(self) -> bool:
        """Whether the stage reads a labelled bank: for its exemplars or to train its adapter."""
        return bool(self.exemplar or self.adapter)


def within_document_scores(
    dense: np.ndarray,
    bm25: np.ndarray,
    weights: WithinDocumentSettings,
    sentence_best: np.ndarray | None = None,
    exemplar: np.ndarray | None = None,
    adapted: np.ndarray | None = None,
) -> np.ndarray:
    """The score of each chunk of one document, in document order (``dense``, ``bm25``: per chunk;
    ``sentence_best``: the best sentence cosine per chunk, NaN where not scored; ``exemplar``: the
    chunk's likeness to gold passages of the same question elsewhere, None when none matched;
    ``adapted``: the chunk's cosine to the adapted question)."""
    score = zscore(dense) + weights.bm25 * zscore(bm25)
    if exemplar is not None and weights.exemplar:
        score = score + weights.exemplar * zscore(exemplar)
    if adapted is not None and weights.adapter:
        score = score + weights.adapter * zscore(adapted)
    if sentence_best is not None and weights.sentence:
        known = ~np.isnan(sentence_best)
        z = np.zeros(len(score))
        if known.any():  # chunks whose sentences were not scored get the lowest z of those that were
            z[known] = zscore(sentence_best[known])
            z[~known] = z[known].min()
        score = score + weights.sentence * z
    if weights.neighbour and len(score) > 1:
        before = np.concatenate([[score[0]], score[:-1]])
        after = np.concatenate([score[1:], [score[-1]]])
        score = score + weights.neighbour * (before + after) / 2
    return score


class WithinDocumentRanker(Refining):
    """``inner``'s ranking with the routed document's chunks re-ranked first (a :class:`.Ranker`)."""

    def __init__(
        self,
        inner: Ranker,
        weights: WithinDocumentSettings,
        *,
        split: bool,
        sentences: SentenceIndex | None = None,
        exemplars: ExemplarBank | None = None,
        adapter: QueryAdapter | None = None,
    ) -> None:
        if weights.sentence and sentences is None:
            raise ValueError("a sentence weight needs the document sentences")
        if weights.exemplar and exemplars is None:
            raise ValueError("an exemplar weight needs an exemplar bank")
        if weights.adapter and (adapter is None or exemplars is None):
            raise ValueError("an adapter weight needs the adapter and the bank it was trained on")
        super().__init__(inner, split=split, sentences=sentences)
        self.weights, self.exemplars, self.adapter = weights, exemplars, adapter

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        first = self.inner.search(queries, k, progress=progress)
        evidence = self.routing.evidence(queries)
        parts, qvs = self.routing.questions(queries)
        out = []
        for hits, known, part, qv in zip(first, evidence, parts, qvs):
            if not known or not hits:
                out.append(hits)
                continue
            fp = hits[0].chunk.file_path
            ids, scores = self.rank_document(fp, part.question, qv)
            ranked = [Hit(self.routing.chunks[int(i)], float(s)) for i, s in zip(ids, scores)]
            out.append(fill(ranked[:k], hits, k))
        return out

    def rank_document(self, file_path: str, question: str, qv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(chunk ids of the document best first, their scores)."""
        ids = self.routing.doc_chunks[file_path]
        dense = self.routing.vectors[ids] @ qv
        bm25 = self.routing.bm25(file_path, question)
        best = None
        if self.weights.sentence and self.sentences is not None:
            best = np.full(len(ids), np.nan)
            for j in np.argsort(-dense, kind="stable")[: self.weights.sentence_depth]:
                c = self.routing.chunks[int(ids[j])]
                which = self.sentences.within(file_path, c.start, c.end)
                if len(which):
                    best[j] = float((self.sentences.vectors(file_path, which) @ qv).max())
        exemplar = None
        if self.weights.exemplar and self.exemplars is not None:
            exemplar = self.exemplars.scores(qv, self.routing.vectors[ids], file_path)
        adapted = None
        if self.weights.adapter and self.adapter is not None and self.exemplars is not None:
            adapted = self.routing.vectors[ids] @ self.adapter.adapt(qv, self.exemplars.document_key(file_path))
        score = within_document_scores(dense, bm25, self.weights, best, exemplar, adapted)
        order = np.argsort(-score, kind="stable")
        return ids[order], score[order]
