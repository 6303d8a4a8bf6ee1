"""A ranker that adds the document-aware signals of :class:`.Signals` to a built chunk index.

Scoring is exact over the whole pool (one matrix-vector product per query version), so routing
and priors see every chunk, not only the index's top candidates. Per query:

1. split the query (``split_query``): the question scores chunks, the reference scores documents;
   the gate (``doc_gate``, :mod:`.gate`) drops the document scores of a query without evidence
   about its document;
2. chunk score = cosine(question, chunk vector) [+ PRF / LLM rewrites, fused by RRF]
   + ``doc_weight`` × document score (:mod:`.documents`);
3. with BM25 in the base index (``semantic_weight < 1``) and/or entities, weighted RRF of the
   rankings: dense ``semantic_weight × (1 - entity_weight)``, BM25 the rest of that,
   entities ``entity_weight``;
4. routing: the chunks of the top ``route_docs`` documents first, and within them those of the
   top ``sections`` sections; the other chunks after them (or not at all, without ``route_fill``);
5. the second stage re-orders the top ``rerank_depth`` (:mod:`.rerank`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..embedding import Embedder
from ..indexes import rrf
from .documents import DocumentScorer
from .entities import EntityIndex
from .expansion import LLMRewriter, prf_vector
from .gate import gate_open, in_doubt
from .pool import Pool
from .query import QueryParts, split_query
from .ranker import ChunkIndex, Hit, Ranker
from .rerank import rerank
from .sections import Section, section_of
from .signal_options import Signals


@dataclass(frozen=True)
class SignalParts:
    """What the signals need beyond the chunk index, built by the caller (see ``experiments.signals``)."""

    documents: DocumentScorer | None = None  # document scores (prior, routing)
    entities: EntityIndex | None = None
    sections: Mapping[str, Sequence[Section]] = field(default_factory=dict)  # per document, in order
    section_vectors: Mapping[str, np.ndarray] = field(default_factory=dict)  # per document, one row per section
    rewriter: LLMRewriter | None = None
    reranker: Embedder | None = None


class DocumentAwareRetriever(Ranker):
    """``base``'s pool and vectors, ranked with ``signals`` (a :class:`.Ranker`). Needs a dense index."""

    pool: Pool
    embedder: Embedder

    def __init__(self, base: ChunkIndex, signals: Signals, parts: SignalParts) -> None:
        if base.dense is None:
            raise ValueError("document-aware signals need a dense index (semantic_weight > 0)")
        self.base, self.signals, self.parts = base, signals, parts
        self.pool, self.embedder = base.pool, base.embedder
        self.vectors = base.dense.vectors()
        paths = parts.documents.paths if parts.documents else tuple(sorted({c.file_path for c in self.pool.chunks}))
        position = {p: i for i, p in enumerate(paths)}
        self.doc_of = np.array([position[c.file_path] for c in self.pool.chunks], dtype=np.int64)
        self.section_id = np.array(
            [
                section_of(parts.sections[c.file_path], c.start) if c.file_path in parts.sections else 0
                for c in self.pool.chunks
            ],
            dtype=np.int64,
        )
        if signals.scores_documents and parts.documents is None:
            raise ValueError("doc_weight / route_docs need a DocumentScorer")
        if signals.entity_weight and parts.entities is None:
            raise ValueError("entity_weight needs an EntityIndex")
        if signals.sections and not parts.section_vectors:
            raise ValueError("sections need section vectors")
        if signals.expansion == "llm" and parts.rewriter is None:
            raise ValueError("expansion 'llm' needs an LLMRewriter")
        if signals.rerank_model and parts.reranker is None:
            raise ValueError("rerank_model needs a second embedder")

    def chunk_vectors(self) -> np.ndarray:
        return self.vectors

    def document_signals(self) -> Signals:
        return self.signals

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        """Top-k hits per query (the parts of a split query are encoded here, cached)."""
        s = self.signals
        parts = [split_query(q) if s.split_query else QueryParts(q, q) for q in queries]
        questions = self.embedder.encode([p.question for p in parts], progress=progress, desc="embedding questions")
        references = (
            self.embedder.encode([p.document for p in parts], progress=False) if s.scores_documents else questions
        )
        out = []
        for query, part, qv, rv in zip(queries, parts, questions, references):
            doc_scores = self._document_scores(part, rv)
            if doc_scores is None and s.doc_gate != "always" and self._only_document_signals:
                # the gate is closed and nothing else re-ranks: exactly the plain index's ranking
                out.append(self.base.search([part.question], k, vectors=qv[None, :])[0])
                continue
            scores, order = self._rank(query, part, qv, doc_scores, max(k, s.rerank_depth if s.rerank_model else k))
            if s.rerank_model:
                order = self._rerank(part.question, order)
            out.append([Hit(self.pool.chunks[int(i)], float(scores[int(i)])) for i in order[:k]])
        return out

    def document_evidence(self, queries: Sequence[str]) -> list[bool]:
        """Per query: whether its document scores act (a document signal is on and the gate is open),
        i.e. whether the query said which document it means. Passage methods work inside the top
        document only then (:mod:`.routed`)."""
        s = self.signals
        if not s.scores_documents or self.parts.documents is None:
            return [False] * len(queries)
        parts = [split_query(q) if s.split_query else QueryParts(q, q) for q in queries]
        if s.doc_gate == "split":  # no document score needed to decide
            return [p.split for p in parts]
        if s.doc_gate == "always":
            return [True] * len(queries)
        vectors = self.embedder.encode([p.document for p in parts], progress=False)
        return [self._document_scores(p, v) is not None for p, v in zip(parts, vectors)]

    def document_doubt(self, query: str) -> tuple[str, str] | None:
        """The best two documents by the query's document scores when they are about equal
        (:func:`.gate.in_doubt`) and the gate lets the scores act; else None."""
        s, docs = self.signals, self.parts.documents
        if docs is None or not s.scores_documents:
            return None
        part = split_query(query) if s.split_query else QueryParts(query, query)
        if s.doc_gate == "split" and not part.split:
            return None  # the gate is closed: no document score acts, nothing to doubt
        scores = self._document_scores(part, self.embedder.encode([part.document], progress=False)[0])
        pair = in_doubt(scores) if scores is not None else None
        return (docs.paths[pair[0]], docs.paths[pair[1]]) if pair else None

    @property
    def _only_document_signals(self) -> bool:
        """No signal beyond the query split and the document scores (prior, routing) is on."""
        s = self.signals
        return not (s.entity_weight or s.sections or s.expansion != "none" or s.rerank_model)

    def _document_scores(self, part: QueryParts, rv: np.ndarray) -> np.ndarray | None:
        """The query's score for every document, or None (no document signal, or the gate closed)."""
        s, docs = self.signals, self.parts.documents
        if docs is None or not s.scores_documents:
            return None
        scores = docs.scores(part.document, rv)
        return scores if gate_open(s.doc_gate, part.split, scores, s.gate_margin) else None

    def _rank(
        self, query: str, part: QueryParts, qv: np.ndarray, doc_scores: np.ndarray | None, depth: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """(final score per chunk, the top ``depth`` chunk ids best first), given the document scores."""
        s = self.signals
        prior = s.doc_weight * doc_scores[self.doc_of] if doc_scores is not None and s.doc_weight else 0.0
        dense = self.vectors @ qv
        if s.expansion == "prf":
            first = np.argpartition(-(dense + prior), min(s.expansion_n, len(dense) - 1))[: s.expansion_n]
            dense = self.vectors @ prf_vector(qv, self.vectors[first])
        score = dense + prior
        if s.expansion == "llm" and self.parts.rewriter is not None:
            rewrites = self.parts.rewriter.rewrites(part.question, s.expansion_n)
            if rewrites:
                extra = self.embedder.encode(rewrites, progress=False)
                score = rrf([score] + [self.vectors @ v + prior for v in extra])
        lists, weights = [score], [self.base.semantic_weight]
        if self.base.bm25 is not None:
            lists.append(self.base.bm25.scores(part.question))
            weights.append(1 - self.base.semantic_weight)
        if s.entity_weight and self.parts.entities is not None:
            found = self.parts.entities.scores(query)
            lists.append(np.where(found > 0, found, -np.inf))
            weights = [w * (1 - s.entity_weight) for w in weights] + [s.entity_weight]
        if len(lists) > 1:
            score = rrf(lists, weights)
        tier = np.zeros(len(score), dtype=np.int64)
        if s.route_docs and doc_scores is not None:
            routed = np.argsort(-doc_scores, kind="stable")[: s.route_docs]
            tier[np.isin(self.doc_of, routed)] = 1
            if s.sections:
                for d in routed:
                    tier[self._top_sections(int(d), qv)] = 2
            if not s.route_fill:
                score = np.where(tier > 0, score, -np.inf)
        candidates = np.flatnonzero(np.isfinite(score))
        if len(candidates) > depth and not s.route_docs:
            candidates = candidates[np.argpartition(-score[candidates], depth - 1)[:depth]]
        order = candidates[np.lexsort((candidates, -score[candidates], -tier[candidates]))]
        return score, order[:depth]

    def _top_sections(self, doc: int, qv: np.ndarray) -> np.ndarray:
        """Chunk ids of document ``doc`` in its top ``sections`` sections for the question."""
        path = self.parts.documents.paths[doc] if self.parts.documents else ""
        vectors = self.parts.section_vectors.get(path)
        mine = np.flatnonzero(self.doc_of == doc)
        if vectors is None or len(vectors) == 0:
            return mine
        best = np.argsort(-(vectors @ qv), kind="stable")[: self.signals.sections]
        return mine[np.isin(self.section_id[mine], best)]

    def _rerank(self, question: str, order: np.ndarray) -> np.ndarray:
        assert self.parts.reranker is not None
        depth = self.signals.rerank_depth
        texts = [self.pool.chunks[int(i)].text for i in order[:depth]]
        chunk_vectors = self.parts.reranker.encode(texts, progress=False)
        query_vector = self.parts.reranker.encode([question], progress=False)[0]
        return rerank(order, chunk_vectors, query_vector, depth, self.signals.rerank_weight)
