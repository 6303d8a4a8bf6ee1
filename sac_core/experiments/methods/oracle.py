"""The oracle: the best ranking the run's chunks allow, read from the gold spans (a limit, not a method).

``method = "oracle"`` chunks the documents as the run says (``chunker``, ``chunk_size``,
``chunk_overlap``) and ranks them with :class:`~sac_core.engine.retrieval.OracleRanker`: for each
benchmark query the chunks holding gold characters first, then the rest of its gold documents, then
the others. Run beside a method in a sweep file, its DRM is the oracle floor of DRM with these
chunks (zero until a gold document runs out of chunks) and its precision and recall the limits a
perfect router with a perfect within-document ranking reaches. It has no presets: Compare never
offers it (it would show the answer).
"""

from __future__ import annotations

from ...engine.retrieval import OracleRanker, build_pool
from ..config import METHODS, RunConfig
from ..plugins import Method, OpenContext, Opened

NAME = "oracle"


class Oracle(Method[RunConfig]):
    name = NAME
    title = "Oracle (reads the gold spans: the limit with these chunks)"

    def open(self, config: RunConfig, ctx: OpenContext) -> Opened:
        pool = build_pool(
            ctx.bench.documents,
            chunker=config.chunker,
            chunk_size=config.chunk_size,
            chunk_overlap=config.chunk_overlap,
        )
        return Opened(OracleRanker(pool, ctx.bench.queries))


ORACLE = METHODS.register(Oracle())
