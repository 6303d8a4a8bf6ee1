"""Build what a run's :class:`~sac_core.engine.retrieval.Signals` need and wrap its retriever.

The document representation ``summary`` uses the run's summary settings (provider, prompt) at
``doc_chars`` characters, also for a baseline run; section summaries are ``lead`` text (offline)
or come from the OpenAI-compatible provider (cached like document summaries); LLM rewrites use
the summary settings' model and base URL. Vectors come from the run's embedder (cached).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ..engine.data import Benchmark
from ..engine.embedding import Embedder
from ..engine.retrieval import Retriever
from ..engine.retrieval.document_aware import DocumentAwareRetriever, SignalParts
from ..engine.retrieval.documents import DocumentScorer, representations
from ..engine.retrieval.entities import EntityIndex
from ..engine.retrieval.expansion import LLMRewriter
from ..engine.retrieval.sections import lead_summary, split_sections
from ..engine.summaries import SummaryConfig, summarize_documents
from .config import RunConfig


def document_summary_config(config: RunConfig) -> SummaryConfig:
    """The summaries a document prior embeds: the run's provider and prompt at ``doc_chars``."""
    return replace(config.summary, chars=config.signals.doc_chars)


def signal_parts(
    bench: Benchmark,
    config: RunConfig,
    data_dir: Path,
    cache_dir: Path,
    embedder: Embedder,
    retriever: Retriever,
    api_key: str | None = None,
) -> SignalParts:
    s = config.signals
    texts = {fp: doc.text for fp, doc in bench.documents.items()}
    paths = sorted(texts)
    documents = None
    if s.scores_documents:
        summaries = None
        if s.doc_repr == "summary":
            summary = document_summary_config(config).resolved(data_dir)
            records = summarize_documents(texts, summary, cache_dir, api_key=api_key, progress=False)
            summaries = {fp: r.summary for fp, r in records.items()}
        vectors = embedder.encode(representations(texts, s.doc_repr, summaries), False)
        documents = DocumentScorer(paths, vectors, [texts[p] for p in paths], s.doc_bm25)
    entities = EntityIndex(texts, retriever.pool.chunks) if s.entity_weight else None
    sections, section_vectors = {}, {}
    if s.sections:
        sections = {fp: split_sections(texts[fp]) for fp in paths}
        section_texts = {
            f"{fp}#{i}": texts[fp][sec.start : sec.end] for fp in paths for i, sec in enumerate(sections[fp])
        }
        if s.section_provider == "openai":
            llm = SummaryConfig(
                provider="openai", chars=s.section_chars, model=config.summary.model, base_url=config.summary.base_url
            )
            records = summarize_documents(section_texts, llm, cache_dir, api_key=api_key, progress=False)
            summaries_by_key = {key: r.summary for key, r in records.items()}
        else:
            summaries_by_key = {
                f"{fp}#{i}": lead_summary(texts[fp], sec, s.section_chars)
                for fp in paths
                for i, sec in enumerate(sections[fp])
            }
        for fp in paths:
            keys = [f"{fp}#{i}" for i in range(len(sections[fp]))]
            section_vectors[fp] = embedder.encode([summaries_by_key[key] for key in keys], False)
    rewriter = None
    if s.expansion == "llm":
        key = api_key or os.environ.get("OPENAI_API_KEY")
        rewriter = LLMRewriter(
            cache_dir, key, config.summary.model, config.summary.base_url or os.environ.get("OPENAI_BASE_URL")
        )
    reranker = Embedder(s.rerank_model, cache_dir, backend="torch") if s.rerank_model else None
    return SignalParts(documents, entities, sections, section_vectors, rewriter, reranker)


def with_signals(
    retriever: Retriever,
    bench: Benchmark,
    config: RunConfig,
    data_dir: Path,
    cache_dir: Path,
    embedder: Embedder,
    api_key: str | None = None,
) -> Retriever:
    """``retriever`` itself when the config has no signals, else a DocumentAwareRetriever over it."""
    if not config.signals.active:
        return retriever
    parts = signal_parts(bench, config, data_dir, cache_dir, embedder, retriever, api_key)
    return DocumentAwareRetriever(retriever, config.signals, parts)
