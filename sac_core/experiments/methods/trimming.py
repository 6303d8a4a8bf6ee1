"""Trimming, or contextual compression (:mod:`sac_core.engine.retrieval.trimming`), as a stage: the
routed document's hits cut to their query-relevant sentences."""

from __future__ import annotations

from collections.abc import Mapping

from ...engine.retrieval.routed import refinable
from ...engine.retrieval.trimming import TrimmingRanker, TrimSettings
from ..config import STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
from ..sentence_store import open_sentences
from . import baseline
from .signals import DOCUMENT_AWARE, split_on

NAME = "trim"


class Trimming(Stage[RunConfig]):
    name = NAME
    order = 40.0  # last: it cuts the hits the stages before it ranked
    title = "Trimming"
    Options = TrimSettings

    def options(self, config: RunConfig) -> TrimSettings:
        return config.plugin_options(NAME, TrimSettings)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        return f"+trim(drop{o.drop:g}@{o.depth})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        sentences = open_sentences(config, ctx, o.max_sentence_chars)
        ranker = TrimmingRanker(refinable(opened.ranker, NAME), o, sentences, split=split_on(config))
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(method=baseline.NAME, options={**DOCUMENT_AWARE, "trim.on": True})
        return {"doc-aware-trim": Preset("Document-aware, trimmed", aware)}


TRIMMING_STAGE = STAGES.register(Trimming())
