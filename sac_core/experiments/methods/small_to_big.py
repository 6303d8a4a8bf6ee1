"""Small-to-big (:mod:`sac_core.engine.retrieval.small_to_big`) as a stage: the routed document's
best sentences, each grown into the passage around it, come first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...engine.retrieval.routed import refinable
from ...engine.retrieval.small_to_big import SmallToBigRanker, SmallToBigSettings
from ..config import STAGES, RunConfig
from ..plugins import OpenContext, Opened, Preset, Stage
from ..sentence_store import open_sentences
from . import baseline
from .document_aware import DOCUMENT_AWARE

NAME = "small_to_big"


@dataclass(frozen=True)
class SmallToBigOptions:
    on: bool = False
    depth: int = 16  # best chunks of the routed document whose sentences are candidates
    sentence_weight: float = 1.0  # weight of z(sentence cosine); 0: no sentence is embedded
    chunk_weight: float = 1.0  # weight of z(cosine of the sentence's chunk)
    bm25_weight: float = 0.25  # weight of z(BM25 of the question over the document's sentences)
    grow: float = 2.0  # a neighbouring sentence joins a passage when its score is at least this (z units)
    max_chars: int = 800  # longest passage (characters)
    per_chunk: bool = False  # one passage per candidate chunk, from its best sentence
    max_sentence_chars: int = 400  # longer sentences are cut (characters)

    def __post_init__(self) -> None:
        if self.depth < 1 or self.max_chars < 1 or self.max_sentence_chars < 1:
            raise ValueError("depth, max_chars and max_sentence_chars must be >= 1")
        if min(self.sentence_weight, self.chunk_weight, self.bm25_weight) < 0:
            raise ValueError("weights must be >= 0")


class SmallToBig(Stage[RunConfig]):
    name = NAME
    Options = SmallToBigOptions

    def options(self, config: RunConfig) -> SmallToBigOptions:
        return config.plugin_options(NAME, SmallToBigOptions)

    def active(self, config: RunConfig) -> bool:
        return self.options(config).on

    def label(self, config: RunConfig) -> str:
        o = self.options(config)
        sentence = "" if o.sentence_weight == 1.0 else f"s×{o.sentence_weight:g},"
        per = ",per-chunk" if o.per_chunk else ""
        return f"+s2b(@{o.depth},{sentence}c×{o.chunk_weight:g},bm25×{o.bm25_weight:g},grow≥{o.grow:g},≤{o.max_chars}{per})"

    def wrap(self, opened: Opened, config: RunConfig, ctx: OpenContext) -> Opened:
        o = self.options(config)
        settings = SmallToBigSettings(
            o.depth, o.sentence_weight, o.chunk_weight, o.bm25_weight, o.grow, o.max_chars, o.per_chunk
        )
        sentences = open_sentences(config, ctx, o.max_sentence_chars, embedded=bool(o.sentence_weight))
        ranker = SmallToBigRanker(refinable(opened.ranker, NAME), settings, sentences, split=config.signals.split_query)
        return Opened(ranker, opened.summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        aware = base.with_(method=baseline.NAME, signals=DOCUMENT_AWARE, options={"small_to_big.on": True})
        return {"doc-aware-s2b": Preset("Document-aware, small-to-big passages", aware)}


SMALL_TO_BIG_STAGE = STAGES.register(SmallToBig())
