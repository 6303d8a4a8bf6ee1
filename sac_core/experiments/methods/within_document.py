"""Within-document ranking (:mod:`sac_core.engine.retrieval.within_document`) as a stage: once the
document-aware ranking has chosen the document, its chunks are re-ranked by dense cosine + BM25
inside the document (+ best sentence, + neighbours) and come first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...engine.retrieval.routed import refinable
from ...engine.retrieval.within_document import WithinDocumentRanker, WithinDocumentWeights
from ..config import STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
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

    def __post_init__(self) -> None:
        if min(self.bm25, self.sentence, self.neighbour) < 0:
            raise ValueError("weights must be >= 0")
        if self.sentence_depth < 1 or self.max_sentence_chars < 1:
            raise ValueError("sentence_depth and max_sentence_chars must be >= 1")


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
        return f"+within({','.join(parts)})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars) if o.sentence else None
        weights = WithinDocumentWeights(o.bm25, o.sentence, o.neighbour, o.sentence_depth)
        ranker = WithinDocumentRanker(
            refinable(opened.ranker, NAME), weights, split=config.signals.split_query, sentences=sentences
        )
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(
            method=baseline.NAME,
            signals=DOCUMENT_AWARE,
            options={"within_doc.on": True, "within_doc.bm25": 0.25, "within_doc.neighbour": 0.25},
        )
        return {"doc-aware-within": Preset("Document-aware, within-document ranking", aware)}


WITHIN_DOCUMENT_STAGE = STAGES.register(WithinDocument())
