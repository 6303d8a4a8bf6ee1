"""Persisted indexes for a :class:`RunConfig`: built once (``sac index``, the dashboard's background
builds), then loaded in seconds by the dashboard, ``sac evaluate`` and sweeps.

An index lives in ``<cache>/indexes/<key>/`` (:mod:`sac_core.engine.indexes.persisted`), the
store's kind ``indexes``. The key (:func:`sac_core.engine.store.key`) hashes the settings that
decide what is indexed (protocol, datasets, seed, method, chunker, chunk size and overlap, model,
backend, summary settings); retrieval-time settings (semantic weight, fusion depth, k, metric mode)
share one index. The manifest also records the content hashes of the documents and summaries, the
model's weights and the versions of the libraries (:func:`~sac_core.engine.store.library_versions`):
if any of them differs from what is there now, the index is **stale** and never used; it is rebuilt
in its place (an index can take gigabytes: one per setting is kept, not one per content).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import store
from ..engine.chunking import Chunk
from ..engine.data import Benchmark
from ..engine.embedding import Embedders, model_id
from ..engine.embedding.models import packaged_version
from ..engine.indexes import DenseIndex, load_index, read_manifest, save_index
from ..engine.retrieval import Pool, Retriever, build_pool
from .config import STAGES, RunConfig
from .plugins import IndexCheck, NotBuilt, OpenContext
from .settings import DATA, INDEX

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


IndexText = Callable[[Chunk], str]  # the text a chunk is indexed under (the method decides)


def make_pool(
    bench: Benchmark, config: RunConfig, index_text: IndexText, on_progress: Callable[[int, int], None] | None = None
) -> Pool:
    """The benchmark's documents chunked as ``config`` says (``on_progress``: documents chunked, documents)."""
    return build_pool(
        bench.documents,
        chunker=config.chunker,
        chunk_size=config.chunk_size,
        chunk_overlap=config.chunk_overlap,
        index_text=index_text,
        on_progress=on_progress,
    )


def embed_queries(bench: Benchmark, config: RunConfig, embedders: Embedders, *, progress: bool = False) -> int:
    """Put every benchmark query's vector, as ``config``'s model encodes it, in the embedding cache
    (``sac index`` and the dashboard's builds do, after the index): the Compare page then answers a
    benchmark query without loading the model, which takes seconds on a fresh server. Returns the
    number of queries the model encoded now (the others were cached)."""
    embedder = embedders.get(config.model, config.backend)
    before = embedder.encoded
    embedder.encode([q.text for q in bench.queries], progress=progress, desc="benchmark queries")
    return embedder.encoded - before


def index_settings(config: RunConfig) -> dict[str, object]:
    """The settings that decide an index's content: those of scope ``data`` and ``index``
    (:mod:`.settings`) of the method alone, without its stages (they re-rank a shared index) and
    without paths of the machine (the manifest holds the documents' and summaries' contents)."""
    bare = config.with_(options=tuple((k, v) for k, v in config.options if k.partition(".")[0] not in STAGES))
    return {k: v for k, v in bare.scoped(DATA, INDEX).items() if k not in bare.path_columns()}


def index_key(config: RunConfig) -> str:
    """The store's key of ``config``'s index (its settings, :func:`index_settings`)."""
    return store.key("indexes", index_settings(config))


def index_folder(cache_dir: Path, config: RunConfig) -> Path:
    return store.folder(cache_dir, "indexes") / index_key(config)


def content_hashes(bench: Benchmark, summaries: Mapping[str, str] | None) -> dict[str, str | None]:
    """sha256 over every (path, text) of the pool's documents, and over the summaries (None: baseline)."""

    def digest(items: Mapping[str, str]) -> str:
        return store.sha256("".join(f"{path}\0{store.sha256(items[path])}\n" for path in sorted(items)))

    docs = digest({fp: d.text for fp, d in bench.documents.items()})
    return {"documents": docs, "summaries": None if summaries is None else digest(summaries)}


def _versions(config: RunConfig) -> dict[str, str]:
    """The model's weights and the versions of the libraries (an index of other ones is stale)."""
    return {"weights": packaged_version(config.model) or config.model, **store.library_versions(config.backend)}


def _compare(manifest: dict[str, Any] | None, expected: dict[str, Any], folder: Path) -> IndexCheck:
    if manifest is None:
        return IndexCheck("missing", folder, "not built yet")
    for field, what in (
        ("settings", "a setting"),
        ("content", "a document or summary"),
        ("versions", "the model's weights or a library's version"),
    ):
        if manifest.get(field) != expected[field]:
            return IndexCheck("stale", folder, f"{what} changed since it was built")
    return IndexCheck("fresh", folder)


def _expected(bench: Benchmark, config: RunConfig, summaries: Mapping[str, str] | None) -> dict[str, Any]:
    settings = json.loads(json.dumps(index_settings(config), default=str))
    return {"settings": settings, "content": content_hashes(bench, summaries), "versions": _versions(config)}


def check_index(
    bench: Benchmark, config: RunConfig, cache_dir: Path, summaries: Mapping[str, str] | None
) -> IndexCheck:
    """Is there a saved index for ``config`` over exactly these documents and summaries?"""
    folder = index_folder(cache_dir, config)
    return _compare(read_manifest(folder), _expected(bench, config, summaries), folder)


def _pool_from_table(bench: Benchmark, table: pd.DataFrame, index_text: IndexText) -> Pool | None:
    """The pool a chunk table describes, or None if any chunk's text no longer hashes the same."""
    columns = [table[c].tolist() for c in table.columns]  # plain lists: far faster than itertuples
    chunks, indexed = [], []
    for fp, start, end, digest in zip(*columns):
        doc = bench.documents.get(fp)
        if doc is None:
            return None
        chunk = Chunk(fp, int(start), int(end), doc.text[start:end])
        try:
            indexed_text = index_text(chunk)
        except KeyError:  # e.g. a summary missing now
            return None
        if store.sha256(indexed_text) != digest:
            return None
        chunks.append(chunk)
        indexed.append(indexed_text)
    return Pool(tuple(chunks), tuple(indexed))


def load_retriever(
    config: RunConfig, ctx: OpenContext, *, index_text: IndexText, summaries: Mapping[str, str] | None
) -> Retriever | None:
    """A Retriever from the saved index for ``config``, or None when it is missing or stale."""
    folder = index_folder(ctx.cache_dir, config)
    check = _compare(read_manifest(folder), _expected(ctx.bench, config, summaries), folder)
    if not check.fresh:
        return None
    saved = load_index(folder)
    if saved is None or saved.dense is None:
        return None
    pool = _pool_from_table(ctx.bench, saved.chunks, index_text)
    if pool is None:
        return None
    saved.dense.set_ef_search(config.ef_search)
    embedder = ctx.embedders.get(config.model, config.backend)
    return Retriever(
        pool,
        embedder,
        semantic_weight=config.semantic_weight,
        fusion_depth=config.fusion_depth,
        progress=False,
        dense=saved.dense,
    )


def dense_builder(config: RunConfig, chunks: int) -> Callable[[np.ndarray], DenseIndex]:
    """How ``config`` builds the dense index of a pool of ``chunks`` chunks: exact or HNSW."""
    if config.dense_kind(chunks) == "hnsw":
        return lambda vectors: DenseIndex.hnsw(vectors, config.hnsw_m, config.ef_search)
    return DenseIndex


def build_retriever(
    config: RunConfig, ctx: OpenContext, *, index_text: IndexText, summaries: Mapping[str, str] | None
) -> Retriever:
    """Chunk, embed (from the embedding cache where possible) and index; save the index when ``ctx.save``."""
    t0 = time.perf_counter()
    pool = make_pool(ctx.bench, config, index_text, ctx.progress_of("chunking documents", "documents"))
    embedder = ctx.embedders.get(config.model, config.backend)
    encoded = embedder.encoded
    retriever = Retriever(
        pool,
        embedder,
        semantic_weight=config.semantic_weight,
        fusion_depth=config.fusion_depth,
        progress=ctx.progress,
        on_progress=ctx.progress_of("embedding chunks", "texts"),
        make_dense=dense_builder(config, len(pool)),
    )
    new = embedder.encoded - encoded
    cached = f" ({len(set(pool.indexed)) - new:,} of the {len(set(pool.indexed)):,} distinct texts from the cache)"
    what = f"{config.index_variant}: {len(pool):,} chunks, {new:,} texts embedded now{cached}"
    if ctx.save and retriever.dense is not None:  # a BM25-only setting has nothing worth saving
        manifest = {
            **_expected(ctx.bench, config, summaries),
            "key": index_key(config),
            "model": model_id(config.model),
            "backend": config.backend,
            "dim": retriever.dense.dim,
            "dense_index": retriever.dense.kind,
            "documents": len(ctx.bench.documents),
            "encoded": new,
            "seconds": round(time.perf_counter() - t0, 1),
            "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        spans = [(c.file_path, c.start, c.end) for c in pool.chunks]
        folder = index_folder(ctx.cache_dir, config)
        save_index(folder, retriever.dense, spans, pool.indexed, manifest)
        ctx.say(f"{what}; index saved in {folder}")
    else:
        ctx.say(f"{what}; index built in memory, not saved (--save-index saves it)")
    return retriever


def open_index(
    config: RunConfig, ctx: OpenContext, *, index_text: IndexText, summaries: Mapping[str, str] | None
) -> Retriever:
    """The saved index for ``config`` when it is fresh, else a new build (saved when ``ctx.save``);
    with ``ctx.build`` False a missing or stale index raises :class:`NotBuilt` instead."""
    loaded = load_retriever(config, ctx, index_text=index_text, summaries=summaries)
    if loaded is not None:
        ctx.say(f"{config.index_variant}: saved index loaded from {index_folder(ctx.cache_dir, config)}")
        return loaded
    if not ctx.build:
        raise NotBuilt(config.index_variant)
    return build_retriever(config, ctx, index_text=index_text, summaries=summaries)
