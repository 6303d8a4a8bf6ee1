"""Within-document ranking: once the document is chosen, rank its chunks with signals that were
too noisy (or too costly) over the whole pool.

Over the pool, BM25 on chunks hurts (the same clause words occur in every contract); inside one
document the words that set a clause apart from the document's other clauses are exactly the ones
BM25 weighs up, with IDF counted within the document. Two more signals: the best sentence of the
chunk (a 500-character chunk mixes clauses; its best sentence says more than its average,
:mod:`.sentences`) and the chunk's neighbours (a clause's heading sits in the chunk before it).
Each signal is z-normalised over the document's chunks and added with its weight:

    score(c) = z(cos(q, c)) + bm25_weight · z(BM25(q, c)) + sentence_weight · z(max_s cos(q, s))
               + neighbour_weight · (z-score of the chunk before + of the chunk after) / 2

The idea is the hybrid lexical + dense ranking of KG-CiteRAG and Rainbow RAG's second stage,
applied after routing (the SAC paper's two-level outlook): the document's chunks ranked this way
come first, then the wrapped ranker's other hits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..embedding import Embedder
from .exemplars import ExemplarBank
from .pool import Pool
from .ranker import Hit
from .routed import Refinable, Routing, fill, zscore
from .sentences import SentenceIndex


@dataclass(frozen=True)
class WithinDocumentWeights:
    """Dimensionless weights of the within-document signals (see the module docstring)."""

    bm25: float = 0.25
    sentence: float = 0.0
    neighbour: float = 0.0
    sentence_depth: int = 16  # chunks (the best by cosine) whose sentences are embedded and scored
    exemplar: float = 0.0  # weight of z(exemplar score), :mod:`.exemplars`


def within_document_scores(
    dense: np.ndarray,
    bm25: np.ndarray,
    weights: WithinDocumentWeights,
    sentence_best: np.ndarray | None = None,
    exemplar: np.ndarray | None = None,
) -> np.ndarray:
    """The score of each chunk of one document, in document order (``dense``, ``bm25``: per chunk;
    ``sentence_best``: the best sentence cosine per chunk, NaN where not scored; ``exemplar``: the
    chunk's likeness to gold passages of the same question elsewhere, None when none matched)."""
    score = zscore(dense) + weights.bm25 * zscore(bm25)
    if exemplar is not None and weights.exemplar:
        score = score + weights.exemplar * zscore(exemplar)
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


class WithinDocumentRanker:
    """``inner``'s ranking with the routed document's chunks re-ranked first (a :class:`.Ranker`)."""

    def __init__(
        self,
        inner: Refinable,
        weights: WithinDocumentWeights,
        *,
        split: bool,
        sentences: SentenceIndex | None = None,
        exemplars: ExemplarBank | None = None,
    ) -> None:
        if weights.sentence and sentences is None:
            raise ValueError("a sentence weight needs the document sentences")
        if weights.exemplar and exemplars is None:
            raise ValueError("an exemplar weight needs an exemplar bank")
        self.inner, self.weights, self.sentences, self.exemplars = inner, weights, sentences, exemplars
        self.routing = Routing(inner, split=split)

    @property
    def pool(self) -> Pool:  # the inner ranker's pool: the same chunks
        return self.inner.pool

    @property
    def embedder(self) -> Embedder:
        return self.inner.embedder

    @property
    def vectors(self) -> np.ndarray:
        return self.routing.vectors

    def document_evidence(self, queries: Sequence[str]) -> list[bool]:
        return self.routing.evidence(queries)

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
        score = within_document_scores(dense, bm25, self.weights, best, exemplar)
        order = np.argsort(-score, kind="stable")
        return ids[order], score[order]
