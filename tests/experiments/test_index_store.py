"""Persisted indexes: built once, loaded without the model, and never used once stale."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedders
from sac_core.engine.retrieval import summary_augmented
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import NotBuilt, OpenContext, RunConfig, evaluate
from sac_core.experiments.index_store import check_index, index_folder, index_key, load_retriever
from sac_core.experiments.methods import SAC_METHOD

DEMO = ("demo_nda", "demo_privacy")
SAC = RunConfig(protocol="full", datasets=DEMO, method="sac", summary=SummaryConfig(provider="file"))


@pytest.fixture
def data(demo_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(demo_dir, copy)
    return copy


def _ctx(data: Path, cache: Path, embeddings: Path, **options) -> OpenContext:
    """Indexes saved under ``cache``, embeddings read from (and written to) ``embeddings``."""
    bench = load_benchmark(data, DEMO, "full")
    return OpenContext(bench, data, cache, Embedders(embeddings), **options)


def _loaded(config: RunConfig, ctx: OpenContext):
    """The saved index, or None when it is missing or stale (an opening that may not build)."""
    try:
        return SAC_METHOD.open(config, replace(ctx, build=False)).ranker
    except NotBuilt:
        return None


def test_a_saved_index_loads_without_embedding_and_ranks_the_same(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    built = SAC_METHOD.open(SAC, _ctx(data, cache, embed_cache, save=True)).ranker
    fresh = _ctx(data, cache, tmp_path / "no-embeddings")
    assert SAC_METHOD.check(SAC, fresh).fresh
    loaded = _loaded(SAC, fresh)
    assert loaded is not None and fresh.embedders.encoded == 0  # no chunk went through the model
    assert loaded.pool == built.pool
    query = [fresh.bench.queries[0].text]
    assert [h.chunk for h in loaded.search(query, 8)[0]] == [h.chunk for h in built.search(query, 8)[0]]


def test_an_opening_says_what_it_built_saved_or_loaded(data, tmp_path, embed_cache):
    notes: list[str] = []
    cache = tmp_path / "cache"
    SAC_METHOD.open(SAC, _ctx(data, cache, embed_cache, save=True, notes=notes.append))
    SAC_METHOD.open(SAC, _ctx(data, cache, embed_cache, notes=notes.append))
    assert f"index saved in {index_folder(cache, SAC)}" in notes[0]
    assert "chunks" in notes[0] and "distinct texts from the cache" in notes[0]
    assert notes[1] == f"{SAC.variant}: saved index loaded from {index_folder(cache, SAC)}"


def test_retrieval_settings_share_one_index_and_other_settings_do_not():
    assert index_key(SAC) == index_key(SAC.with_(semantic_weight=0.5, ks=(1, 2), fusion_depth=50))
    assert index_key(SAC) != index_key(SAC.with_(chunk_size=300))
    assert index_key(SAC) != index_key(SAC.with_(method="baseline"))
    assert index_key(SAC) != index_key(SAC.with_(backend="torch" if SAC.backend == "onnx" else "onnx"))


def test_a_changed_document_makes_the_index_stale_and_it_is_rebuilt(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    SAC_METHOD.open(SAC, _ctx(data, cache, embed_cache, save=True))
    doc = data / "corpus" / "demo_nda" / "02_Cobalt.txt"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n\nAmended on 1 May 2024 (amended).", encoding="utf-8")
    ctx = _ctx(data, cache, tmp_path / "fresh-embeddings", save=True)
    check = SAC_METHOD.check(SAC, ctx)
    assert check.state == "stale" and "document" in check.reason
    assert _loaded(SAC, ctx) is None  # never used
    rebuilt = SAC_METHOD.open(SAC, ctx).ranker
    assert ctx.embedders.encoded == len(rebuilt.pool)  # rebuilt, not reused
    assert any("(amended)" in c.text for c in rebuilt.pool.chunks)
    assert SAC_METHOD.check(SAC, ctx).fresh


def test_changed_summaries_make_the_index_stale(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    ctx = _ctx(data, cache, embed_cache, save=True)
    SAC_METHOD.open(SAC, ctx)
    summaries = ctx.summaries(SAC.summary)
    changed = {**summaries, next(iter(summaries)): "A different summary."}
    assert check_index(ctx.bench, SAC, cache, changed).state == "stale"
    assert load_retriever(SAC, ctx, index_text=summary_augmented(changed), summaries=changed) is None


def test_an_incomplete_folder_is_never_read(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    ctx = _ctx(data, cache, embed_cache, save=True)
    SAC_METHOD.open(SAC, ctx)
    (index_folder(cache, SAC) / "manifest.json").unlink()
    assert SAC_METHOD.check(SAC, ctx).state == "missing"
    assert _loaded(SAC, ctx) is None


def test_evaluate_with_a_saved_index_gives_the_same_metrics(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    rebuilt = evaluate(SAC, _ctx(data, cache, embed_cache))  # built, not saved
    SAC_METHOD.build(SAC, _ctx(data, cache, embed_cache, save=True))
    loaded = evaluate(SAC, _ctx(data, cache, tmp_path / "e"))
    pd.testing.assert_frame_equal(rebuilt.per_query, loaded.per_query)


def test_a_pool_above_the_threshold_gets_an_hnsw_index_saved_like_the_others(data, tmp_path, embed_cache):
    config = SAC.with_(ann_threshold=10)  # the demo pool is larger than 10 chunks
    assert config.dense_kind(84) == "hnsw" and SAC.dense_kind(84) == "flat"
    cache = tmp_path / "cache"
    built = SAC_METHOD.open(config, _ctx(data, cache, embed_cache, save=True)).ranker
    assert built.dense is not None and built.dense.kind == "hnsw"
    assert index_key(config) != index_key(SAC)  # another index
    assert index_key(config) == index_key(config.with_(ef_search=512))  # a search setting: the same index
    loaded = _loaded(config.with_(ef_search=16), _ctx(data, cache, tmp_path / "e"))
    assert loaded is not None and loaded.dense.kind == "hnsw" and loaded.dense.index.hnsw.efSearch == 16
    assert "dense_index" not in RunConfig().columns()  # unchanged defaults leave every published id as it was
