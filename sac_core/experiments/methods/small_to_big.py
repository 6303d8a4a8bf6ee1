"""Small-to-big (:mod:`sac_core.engine.retrieval.small_to_big`) as a stage: the routed document's
best sentences, each grown into the passage around it, come first."""

from __future__ import annotations

from collections.abc import Mapping

from ...engine.retrieval.routed import refinable
from ...engine.retrieval.small_to_big import SmallToBigRanker, SmallToBigSettings
from ..config import STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
from ..sentence_store import open_sentences
from . import baseline
from .signals import DOCUMENT_AWARE, split_on

NAME = "small_to_big"


class SmallToBig(Stage[RunConfig]):
    name = NAME
    order = 30.0  # after within-document ranking
    title = "Small-to-big passages"
    Options = SmallToBigSettings

    def options(self, config: RunConfig) -> SmallToBigSettings:
        return config.plugin_options(NAME, SmallToBigSettings)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        sentence = "" if o.sentence_weight == 1.0 else f"s×{o.sentence_weight:g},"
        per = ",per-chunk" if o.per_chunk else ""
        return f"+s2b(@{o.depth},{sentence}c×{o.chunk_weight:g},bm25×{o.bm25_weight:g},grow≥{o.grow:g},≤{o.max_chars}{per})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars, embedded=bool(o.sentence_weight))
        ranker = SmallToBigRanker(refinable(opened.ranker, NAME), o, sentences, split=split_on(config))
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(method=baseline.NAME, options={**DOCUMENT_AWARE, "small_to_big.on": True})
        return {"doc-aware-s2b": Preset("Document-aware, small-to-big passages", aware)}


SMALL_TO_BIG_STAGE = STAGES.register(SmallToBig())
