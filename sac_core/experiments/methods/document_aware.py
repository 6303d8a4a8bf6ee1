"""The document-aware stage ``doc``: its options are the engine's
:class:`~sac_core.engine.retrieval.Signals` (``doc.split_query``, ``doc.doc_weight``, …), applied on
top of its method's chunk index (the method must have a dense index: baseline or SAC).

What the signals need is built here. The document representation ``summary`` uses the run's
summary settings (provider, prompt) at ``doc_chars`` characters, also on a baseline index;
section summaries are ``lead`` text (offline) or come from the OpenAI-compatible provider (cached
like document summaries); LLM rewrites use the summary settings' model and base URL. Vectors come
from the run's embedder (cached).

The named settings (presets) were chosen on LegalBench-RAG-mini (``sweeps/methods-lbr-mini.toml``)
and then run unchanged on the paper protocol and a held-out folder (README "Beyond SAC").
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace

from ...engine.embedding import Embedder
from ...engine.retrieval import ChunkIndex, DocumentAwareRetriever, SignalParts, Signals
from ...engine.retrieval.documents import DocumentScorer, representations
from ...engine.retrieval.entities import EntityIndex
from ...engine.retrieval.expansion import LLMRewriter
from ...engine.retrieval.sections import lead_summary, split_sections
from ...engine.summaries import SummaryConfig, summarize_documents
from ..config import DOC, STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
from . import baseline, sac

# Chosen on lbr-mini only (sweeps/methods-lbr-mini.toml, highest precision + recall - DRM, means
# over k): split query, document prior of weight 8 from the 300-character summary plus 0.125 ×
# max-normalised BM25 over the document's text, over the plain (baseline) chunk index. Reads no
# file name or title. Gated by the split (issue 24, sweeps/gate-lbr-mini.toml): a query that names
# no document is ranked plainly, never worse than the baseline.
DOCUMENT_AWARE = Signals(split_query=True, doc_weight=8.0, doc_bm25=0.125, doc_gate="split")
# The same, the reference's rare words also looked up in file names (issue 34, sweeps/names-lbr-mini.toml,
# both wordings of lbr-mini): every weight from 0.25 to 2 gives the same best figures, 0.125 less; 1 is
# the middle of that plateau. Reported also on a copy whose documents are named by ids (`sac idnames`).
DOCUMENT_AWARE_NAMES = replace(DOCUMENT_AWARE, doc_names=1.0)
SAC_PRIOR = Signals(doc_weight=2.0, doc_bm25=0.25)  # the same document prior on top of SAC, no split


def document_summary_config(config: RunConfig) -> SummaryConfig:
    """The summaries a document prior embeds: the run's provider and prompt at ``doc_chars``."""
    return replace(config.summary, chars=config.signals.doc_chars)


def signal_parts(config: RunConfig, ctx: OpenContext, retriever: ChunkIndex) -> SignalParts:
    """Everything ``config.signals`` need beyond the chunk index, built (or read from the caches)."""
    s = config.signals
    texts = {fp: doc.text for fp, doc in ctx.bench.documents.items()}
    paths = sorted(texts)
    embedder = ctx.embedders.get(config.model, config.backend)
    documents = None
    if s.scores_documents:
        summaries = ctx.summaries(document_summary_config(config)) if s.doc_repr == "summary" else None
        vectors = embedder.encode(representations(texts, s.doc_repr, summaries), progress=False)
        documents = DocumentScorer(paths, vectors, [texts[p] for p in paths], s.doc_bm25, s.doc_names)
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
            records = summarize_documents(section_texts, llm, ctx.cache_dir, api_key=ctx.api_key, progress=False)
            summaries_by_key = {key: r.summary for key, r in records.items()}
        else:
            summaries_by_key = {
                f"{fp}#{i}": lead_summary(texts[fp], sec, s.section_chars)
                for fp in paths
                for i, sec in enumerate(sections[fp])
            }
        for fp in paths:
            keys = [f"{fp}#{i}" for i in range(len(sections[fp]))]
            section_vectors[fp] = embedder.encode([summaries_by_key[key] for key in keys], progress=False)
    rewriter = None
    if s.expansion == "llm":
        key = ctx.api_key or os.environ.get("OPENAI_API_KEY")
        base_url = config.summary.base_url or os.environ.get("OPENAI_BASE_URL")
        rewriter = LLMRewriter(ctx.cache_dir, key, config.summary.model, base_url)
    reranker = Embedder(s.rerank_model, ctx.cache_dir, backend="torch") if s.rerank_model else None
    return SignalParts(documents, entities, sections, section_vectors, rewriter, reranker)


class DocumentAware(Stage[RunConfig]):
    """Query split, document prior and routing, entities, sections, expansion and reranking
    (:class:`~sac_core.engine.retrieval.DocumentAwareRetriever`), switched on by its options."""

    name = DOC
    title = "Document-aware retrieval"
    Options = Signals
    order = 10.0  # first: it re-ranks the method's chunk index (the passage stages work on its routing)

    def active(self, config: RunConfig) -> bool:
        return config.signals.active

    def label(self, config: RunConfig) -> str:
        return config.signals.label

    def summaries(self, config: RunConfig) -> SummaryConfig | None:
        return document_summary_config(config) if config.signals.uses_summaries else None

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        base = opened.ranker.chunk_index()
        if base is None:
            raise ValueError(f"document-aware signals need a chunk index; method {config.method!r} has none")
        ranker = DocumentAwareRetriever(base, config.signals, signal_parts(config, ctx, base))
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        plain = base.with_(method=baseline.NAME, options=())
        generic = base.with_(method=sac.NAME, summary=replace(base.summary, prompt="generic"), options=())
        aware = plain.with_options(DOC, DOCUMENT_AWARE)
        return {
            "doc-aware": Preset("Document-aware", aware),
            "doc-aware-names": Preset(
                "Document-aware, reads file names", plain.with_options(DOC, DOCUMENT_AWARE_NAMES)
            ),
            "sac-prior": Preset("SAC + document prior", generic.with_options(DOC, SAC_PRIOR)),
            "doc-aware-route": Preset(
                "Document-aware, routed", aware.with_options(DOC, replace(DOCUMENT_AWARE, route_docs=1))
            ),
            "doc-aware-sections": Preset(
                "Document-aware, sections",
                aware.with_options(DOC, replace(DOCUMENT_AWARE, route_docs=1, sections=3)),
            ),
            "doc-aware-entities": Preset(
                "Document-aware + entities", aware.with_options(DOC, replace(DOCUMENT_AWARE, entity_weight=0.2))
            ),
            "sac-entities": Preset("SAC + entities (RRF)", generic.with_options(DOC, Signals(entity_weight=0.2))),
            "sac-prf": Preset(
                "SAC + PRF expansion", generic.with_options(DOC, Signals(expansion="prf", expansion_n=3))
            ),
        }


DOCUMENT_AWARE_STAGE = STAGES.register(DocumentAware())
