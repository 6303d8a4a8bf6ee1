"""``sac separation``: how far apart documents lie in each index's embedding space, and how that
relates to DRM over the cells of a committed grid (one number per index, see
:mod:`sac_core.engine.metrics.separation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.data import load_benchmark
from ..engine.embedding import Embedders
from ..engine.metrics import document_silhouette, own_document_share
from ..engine.retrieval import ChunkIndex
from .config import RunConfig
from .plugins import OpenContext
from .sweep import Sweep, cell_id

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

NEIGHBOURS = 10


@dataclass(frozen=True)
class IndexSeparation:
    own_share: float  # mean share of a chunk's 10 nearest chunks from its own document
    silhouette: float  # mean silhouette by document, cosine, 5,000-chunk sample
    chunks: int


def index_separation(retriever: ChunkIndex) -> IndexSeparation:
    if retriever.dense is None:
        raise ValueError("a BM25-only index has no embedding space")
    vectors = retriever.dense.vectors()
    documents = [c.file_path for c in retriever.pool.chunks]
    return IndexSeparation(
        own_document_share(vectors, documents, NEIGHBOURS), document_silhouette(vectors, documents), len(vectors)
    )


def all_embedded(config: RunConfig, ctx: OpenContext) -> bool:
    """Are all the texts of ``config``'s pool in the embedding cache already (nothing to compute)?"""
    indexer = config.method_plugin.indexer()
    if indexer is None:
        return False
    pool = indexer.pool(config, ctx)
    return ctx.embedders.get(config.model, config.backend).cached(sorted(set(pool.indexed)))


def open_index_retriever(config: RunConfig, ctx: OpenContext) -> ChunkIndex:
    """``config``'s chunk index (loaded, or built and saved); an error for a method without one."""
    method = config.method_plugin
    index = method.open(config, ctx).ranker.chunk_index() if method.indexer() is not None else None
    if index is None:
        raise ValueError(f"method {config.method!r} has no chunk index to measure")
    return index


def grid_separation(
    sweep: Sweep, results: pd.DataFrame, data_dir: Path, cache_dir: Path, *, cached_only: bool = True
) -> pd.DataFrame:
    """One row per dense index of the sweep (semantic weight 1): its separation and the cell's DRM,
    precision and recall (means over k, ALL datasets). ``cached_only``: skip indexes whose
    embeddings are not all cached (nothing is embedded)."""
    import pandas as pd

    contexts: dict[tuple, OpenContext] = {}
    embedders = Embedders(cache_dir)
    means = results[results["dataset"] == "ALL"].groupby("cell")[["drm", "precision", "recall"]].mean()
    rows = []
    for config in sweep.cells:
        if config.semantic_weight != 1.0 or config.stages:
            continue
        key = (config.protocol, config.datasets, config.seed)
        if key not in contexts:
            bench = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
            contexts[key] = OpenContext(bench, data_dir, cache_dir, embedders, save=True)
        ctx = contexts[key]
        cid = cell_id(config, ctx)
        if cid not in means.index:
            continue
        if cached_only and not all_embedded(config, ctx):
            continue
        sep = index_separation(open_index_retriever(config, ctx))
        rows.append({
            "cell": cid, "variant": config.variant, "chunk_size": config.chunk_size, "backend": config.backend,
            "chunks": sep.chunks, "own_share": sep.own_share, "silhouette": sep.silhouette, **means.loc[cid].to_dict(),
        })  # fmt: skip
    return pd.DataFrame(rows)


def correlations(table: pd.DataFrame) -> pd.DataFrame:
    """Pearson and Spearman correlation of each separation figure with DRM, precision and recall."""
    import pandas as pd
    from scipy import stats

    out = []
    for figure in ("own_share", "silhouette"):
        for metric in ("drm", "precision", "recall"):
            pearson = stats.pearsonr(table[figure], table[metric])
            spearman = stats.spearmanr(table[figure], table[metric])
            out.append({"figure": figure, "metric": metric, "pearson": pearson.statistic,
                        "pearson_p": pearson.pvalue, "spearman": spearman.statistic, "spearman_p": spearman.pvalue})  # fmt: skip
    return pd.DataFrame(out)
