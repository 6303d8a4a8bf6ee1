"""Trimming, or contextual compression (:mod:`sac_core.engine.retrieval.trimming`), as a stage: the
routed document's hits cut to their query-relevant sentences."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...engine.retrieval.routed import refinable
from ...engine.retrieval.trimming import TrimmingRanker, TrimSettings
from ..config import STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
from ..sentence_store import open_sentences
from . import baseline
from .document_aware import DOCUMENT_AWARE

NAME = "trim"


@dataclass(frozen=True)
class TrimOptions:
    on: bool = False
    drop: float = 0.1  # keep sentences whose cosine is at least the chunk's best minus this
    depth: int = 64  # hits of the routed document trimmed
    max_sentence_chars: int = 400  # longer sentences are cut (characters)

    def __post_init__(self) -> None:
        if self.drop < 0 or self.depth < 1 or self.max_sentence_chars < 1:
            raise ValueError("drop must be >= 0, depth and max_sentence_chars >= 1")


class Trimming(Stage[RunConfig]):
    name = NAME
    Options = TrimOptions

    def options(self, config: RunConfig) -> TrimOptions:
        return config.plugin_options(NAME, TrimOptions)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        return f"+trim(drop{o.drop:g}@{o.depth})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars)
        ranker = TrimmingRanker(
            refinable(opened.ranker, NAME), TrimSettings(o.drop, o.depth), sentences, split=config.signals.split_query
        )
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(method=baseline.NAME, signals=DOCUMENT_AWARE, options={"trim.on": True})
        return {"doc-aware-trim": Preset("Document-aware, trimmed", aware)}


TRIMMING_STAGE = STAGES.register(Trimming())
