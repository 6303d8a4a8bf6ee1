"""Summary-Augmented Chunking (Reuter et al. 2025): every chunk indexed under its document's
summary and its own text (:mod:`sac_core.engine.retrieval.sac`), with the run's summary settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ...engine.retrieval import summary_augmented
from ...engine.summaries import SummaryConfig
from ..config import METHODS, RunConfig
from ..index_store import IndexText
from ..plugins import Preset
from .indexed import IndexMethod

NAME = "sac"


class SAC(IndexMethod):
    name = NAME
    title = "SAC"

    def variant(self, config: RunConfig) -> str:
        """``sac-<provider>-<prompt>-<chars>``, or ``sac-extractive-<chars>`` (no prompt: the summary
        is built from the text itself)."""
        s = config.summary
        if s.provider == "extractive":
            return f"sac-extractive-{s.chars}"
        return f"sac-{s.provider}-{s.prompt_name}-{s.chars}"

    def summaries(self, config: RunConfig) -> SummaryConfig:
        return config.summary

    def index_text(self, config: RunConfig, summaries: Mapping[str, str] | None) -> IndexText:
        if summaries is None:
            raise ValueError("SAC needs document summaries")
        return summary_augmented(summaries)

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        """SAC with the generic and the expert prompt; with the extractive provider the prompt does
        not matter: one entry, "SAC extractive"."""
        generic = base.with_(method=NAME, summary=replace(base.summary, prompt="generic"), options=())
        if base.summary.provider == "extractive":
            return {"sac-generic": Preset("SAC extractive", generic, default=True)}
        expert = generic.with_(summary=replace(base.summary, prompt="expert"))
        return {
            "sac-generic": Preset("SAC generic", generic, default=True),
            "sac-expert": Preset("SAC expert", expert),
        }


SAC_METHOD = METHODS.register(SAC())
