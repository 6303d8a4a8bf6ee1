"""The baseline (plain RAG): every chunk is indexed under its own text; dense, BM25 or hybrid."""

from __future__ import annotations

from collections.abc import Mapping

from ..config import METHODS, RunConfig
from ..plugins import Preset
from .indexed import IndexMethod

NAME = "baseline"


class Baseline(IndexMethod):
    name = NAME
    title = "Baseline"

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        plain = base.with_(method=NAME, options=())
        return {
            NAME: Preset("Baseline", plain, default=True),
            "hybrid": Preset("Baseline hybrid (dense + BM25)", plain.with_(semantic_weight=0.5)),
        }


BASELINE = METHODS.register(Baseline(), default=True)
