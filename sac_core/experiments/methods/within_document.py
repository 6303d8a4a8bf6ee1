"""Within-document ranking (:mod:`sac_core.engine.retrieval.within_document`) as a stage: once the
document-aware ranking has chosen the document, its chunks are re-ranked by dense cosine + BM25
inside the document (+ best sentence, + neighbours, + likeness to the gold passages other documents
have for the same question: :mod:`sac_core.engine.retrieval.exemplars`) and come first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ...engine.data import load_benchmark
from ...engine.retrieval.exemplars import ExemplarBank, ExemplarSettings, bank_texts, exemplars_of
from ...engine.retrieval.routed import refinable
from ...engine.retrieval.within_document import WithinDocumentRanker, WithinDocumentWeights
from ..config import STAGES, RunConfig
from ..plugins import NotBuilt, OpenContext, Opened, Preset, Stage
from ..sentence_store import open_sentences
from . import baseline
from .document_aware import DOCUMENT_AWARE

NAME = "within_doc"


@dataclass(frozen=True)
class WithinDocumentOptions:
    on: bool = False
    bm25: float = 0.25  # weight of z(BM25 of the question over the document's chunks)
    sentence: float = 0.0  # weight of z(best sentence cosine) (embeds sentences)
    neighbour: float = 0.0  # weight of the mean z-score of the chunk before and after
    sentence_depth: int = 16  # chunks whose sentences are scored (the best by cosine)
    max_sentence_chars: int = 400  # longer sentences are cut (characters)
    exemplar: float = 0.0  # weight of z(likeness to gold passages of the same question elsewhere)
    exemplar_protocol: str = "lbr-mini"  # the labelled queries of the bank
    exemplar_data: str = ""  # their LegalBench-RAG folder ("" = the run's data folder)
    exemplar_similarity: float = 0.8  # question-part cosine for a bank question to count
    exemplar_questions: int = 32  # at most this many bank questions (the closest)
    exemplar_top: int = 3  # exemplar pieces averaged per chunk

    def __post_init__(self) -> None:
        if min(self.bm25, self.sentence, self.neighbour, self.exemplar) < 0:
            raise ValueError("weights must be >= 0")
        if self.sentence_depth < 1 or self.max_sentence_chars < 1:
            raise ValueError("sentence_depth and max_sentence_chars must be >= 1")
        if self.exemplar_questions < 1 or self.exemplar_top < 1:
            raise ValueError("exemplar_questions and exemplar_top must be >= 1")


def open_bank(config: RunConfig, ctx: OpenContext, o: WithinDocumentOptions) -> ExemplarBank:
    """The exemplar bank: the gold passages of ``o.exemplar_protocol``'s queries (read from
    ``o.exemplar_data`` or the run's folder), embedded by the run's model (cached like chunks)."""
    data_dir = Path(o.exemplar_data) if o.exemplar_data else ctx.data_dir
    bank_bench = load_benchmark(data_dir, "all", o.exemplar_protocol)
    if not bank_bench.queries:
        raise ValueError(f"clause exemplars: no labelled {o.exemplar_protocol} queries in {data_dir}")
    settings = ExemplarSettings(o.exemplar_similarity, o.exemplar_questions, o.exemplar_top, config.chunk_size)
    exemplars = exemplars_of(bank_bench, settings.max_chars)
    embedder = ctx.embedders.get(config.model, config.backend)
    if not ctx.build and not ctx.save and not embedder.cached(bank_texts(exemplars)):
        raise NotBuilt("exemplar passages")
    ctx.say(
        f"exemplars: {len(exemplars):,} pieces of the gold passages of {len(bank_bench.queries)} "
        f"{o.exemplar_protocol} queries in {data_dir} (a document's own never score it)"
    )
    return ExemplarBank(exemplars, embedder, settings, progress=ctx.progress, on_progress=ctx.on_progress)


class WithinDocument(Stage[RunConfig]):
    name = NAME
    Options = WithinDocumentOptions

    def options(self, config: RunConfig) -> WithinDocumentOptions:
        return config.plugin_options(NAME, WithinDocumentOptions)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        parts = [f"bm25×{o.bm25:g}"]
        if o.sentence:
            parts.append(f"sent×{o.sentence:g}@{o.sentence_depth}")
        if o.neighbour:
            parts.append(f"nb×{o.neighbour:g}")
        if o.exemplar:
            parts.append(
                f"ex×{o.exemplar:g}:{o.exemplar_protocol}≥{o.exemplar_similarity:g}"
                f"@{o.exemplar_questions}/{o.exemplar_top}"
            )
        return f"+within({','.join(parts)})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars) if o.sentence else None
        weights = WithinDocumentWeights(o.bm25, o.sentence, o.neighbour, o.sentence_depth, o.exemplar)
        bank = open_bank(config, ctx, o) if o.exemplar else None
        ranker = WithinDocumentRanker(
            refinable(opened.ranker, NAME), weights, split=config.signals.split_query, sentences=sentences,
            exemplars=bank,
        )  # fmt: skip
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(
            method=baseline.NAME,
            signals=DOCUMENT_AWARE,
            options={"within_doc.on": True, "within_doc.bm25": 0.25, "within_doc.neighbour": 0.25},
        )
        exemplars = aware.with_(
            options={**dict(aware.options), "within_doc.exemplar": 4.0, "within_doc.exemplar_similarity": 0.9}
        )
        return {
            "doc-aware-within": Preset("Document-aware, within-document ranking", aware),
            "doc-aware-exemplars": Preset("Document-aware, within-document ranking + clause exemplars", exemplars),
        }


WITHIN_DOCUMENT_STAGE = STAGES.register(WithinDocument())
