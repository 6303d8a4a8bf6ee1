"""A live retriever as a method: ``method = "retriever"``, option ``retriever.factory =
"module:factory"``, for any Python object with ``retrieve(query: str, k: int) -> list[Snippet]``
(e.g. :class:`~sac_core.engine.retrieval.langchain.LangChainRetriever`).

The factory is called once per opening with the keyword arguments it takes among
``documents`` (``file_path → text`` of the benchmark's pool), ``data_dir`` and ``cache_dir``.
Every snippet it returns is checked (:class:`~sac_core.engine.retrieval.RetrieverRanker`).

**Who may name a factory.** Naming ``module:factory`` runs that module's code. The command line and
sweep files may name any; the dashboard offers only the retrievers its operator lists in
``$SAC_RETRIEVERS`` (``name=module:factory,…``), as catalogue entries, so nobody types code into a page.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ...engine.retrieval import RetrieverRanker, make_retriever
from ...engine.retrieval.external import module_source_sha256
from ..config import METHODS, RunConfig
from ..plugins import Method, OpenContext, Opened, Preset
from .imported import documents

NAME = "retriever"
ENV = "SAC_RETRIEVERS"  # name=module:factory,… : the retrievers the dashboard offers
FACTORY = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$")


@dataclass(frozen=True)
class RetrieverOptions:
    factory: str = ""  # module:factory

    def __post_init__(self) -> None:
        if self.factory and not FACTORY.match(self.factory):
            raise ValueError(f"retriever.factory {self.factory!r}: not module:factory")


def operator_retrievers(raw: str | None = None) -> dict[str, str]:
    """``name → module:factory`` from ``$SAC_RETRIEVERS`` (or ``raw``); ValueError names a bad entry."""
    text = os.environ.get(ENV, "") if raw is None else raw
    out: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        label, sep, spec = item.partition("=")
        if not sep or not LABEL.match(label.strip()) or not FACTORY.match(spec.strip()):
            raise ValueError(f"${ENV}: {item!r} is not name=module:factory")
        out[label.strip()] = spec.strip()
    return out


class LiveRetriever(Method[RunConfig]):
    name = NAME
    title = "Retriever"
    Options = RetrieverOptions

    def _factory(self, config: RunConfig) -> str:
        factory = config.plugin_options(NAME, RetrieverOptions).factory
        if not factory:
            raise ValueError("method 'retriever' needs the option retriever.factory (module:factory)")
        return factory

    def variant(self, config: RunConfig) -> str:
        return f"retriever-{config.plugin_options(NAME, RetrieverOptions).factory}"

    def inputs(self, config: RunConfig, ctx: OpenContext) -> Mapping[str, str]:
        """The factory module's source (its SHA-256): an edit of that file makes a new result. What
        that module imports in turn is not covered (a cache of such results is cleared by hand)."""
        return {"factory_source": module_source_sha256(self._factory(config).partition(":")[0])}

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        spec = self._factory(config)
        texts = {fp: doc.text for fp, doc in ctx.bench.documents.items()}
        ctx.say(f"retriever {spec}: calling the factory")
        retriever = make_retriever(spec, {"documents": texts, "data_dir": ctx.data_dir, "cache_dir": ctx.cache_dir})
        return Opened(RetrieverRanker(retriever, documents(ctx), spec))

    def presets(self, base: RunConfig) -> Mapping[str, Preset[RunConfig]]:
        """The operator's retrievers (``$SAC_RETRIEVERS``), nothing else."""
        return {
            f"retriever:{label}": Preset(label, base.with_(method=NAME, options={f"{NAME}.factory": spec}))
            for label, spec in operator_retrievers().items()
        }


LIVE_RETRIEVER = METHODS.register(LiveRetriever())
