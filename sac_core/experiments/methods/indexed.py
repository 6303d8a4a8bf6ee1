"""The base of methods that index one text per chunk (dense, BM25 or both) and rank by similarity.

A subclass says which text a chunk is indexed under (:meth:`IndexMethod.index_text`) and which
summaries that text needs; opening it loads the saved index for the configuration when it is fresh
(:mod:`sac_core.experiments.index_store`), else builds it from the embedding cache.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...engine.retrieval import Pool, Retriever, chunk_text
from ..config import RunConfig
from ..index_store import IndexText, build_retriever, check_index, make_pool, open_index
from ..plugins import IndexCheck, Indexer, Method, OpenContext, Opened


class IndexMethod(Method[RunConfig], Indexer[RunConfig]):
    """A chunk index over the texts :meth:`index_text` gives (see the module docstring); it is its
    own :class:`~..plugins.Indexer`."""

    def indexer(self) -> Indexer[RunConfig]:
        return self

    def index_text(self, config: RunConfig, summaries: Mapping[str, str] | None) -> IndexText:
        """The text each chunk is indexed under; ``summaries`` are those :meth:`summaries` asks for."""
        return chunk_text

    def _summaries(self, config: RunConfig, ctx: OpenContext) -> dict[str, str] | None:
        wanted = self.summaries(config)
        return None if wanted is None else ctx.summaries(wanted)

    def pool(self, config: RunConfig, ctx: OpenContext) -> Pool:
        """Every chunk of the benchmark's documents with its index text (nothing embedded)."""
        return make_pool(ctx.bench, config, self.index_text(config, self._summaries(config, ctx)))

    def check(self, config: RunConfig, ctx: OpenContext) -> IndexCheck:
        """Is a fresh saved index there for ``config`` (same documents, summaries, model, settings)?"""
        return check_index(ctx.bench, config, ctx.cache_dir, self._summaries(config, ctx))

    def build(self, config: RunConfig, ctx: OpenContext) -> Retriever:
        """Build the index anew (from the embedding cache where possible), saved when ``ctx.save``."""
        summaries = self._summaries(config, ctx)
        return build_retriever(config, ctx, index_text=self.index_text(config, summaries), summaries=summaries)

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        summaries = self._summaries(config, ctx)
        retriever = open_index(config, ctx, index_text=self.index_text(config, summaries), summaries=summaries)
        return Opened(retriever, summaries or {})
