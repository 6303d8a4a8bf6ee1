"""Persisted indexes: built once, loaded without the model, and never used once stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedder
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, evaluate
from sac_core.experiments.index_store import (
    build_retriever,
    check_index,
    document_summaries,
    index_folder,
    index_key,
    load_retriever,
    open_retriever,
)

DEMO = ("demo_nda", "demo_privacy")
SAC = RunConfig(protocol="full", datasets=DEMO, method="sac", summary=SummaryConfig(provider="file"))


@pytest.fixture
def data(demo_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(demo_dir, copy)
    return copy


def _open(data: Path, cache: Path, config: RunConfig, embed_cache: Path, save: bool = True):
    bench = load_benchmark(data, config.datasets, config.protocol)
    summaries = document_summaries(bench, config, data, cache, progress=False)
    embedder = Embedder(config.model, embed_cache, backend=config.backend)
    return bench, summaries, embedder, open_retriever(bench, config, cache, embedder, summaries, False, save=save)


def test_a_saved_index_loads_without_embedding_and_ranks_the_same(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    bench, summaries, _, built = _open(data, cache, SAC, embed_cache)
    assert check_index(bench, SAC, cache, summaries).fresh
    fresh = Embedder(SAC.model, tmp_path / "no-embeddings", backend=SAC.backend)
    loaded = load_retriever(bench, SAC, cache, fresh, summaries)
    assert loaded is not None and fresh.encoded == 0  # no chunk went through the model
    assert loaded.pool == built.pool
    query = [bench.queries[0].text]
    assert [h.chunk for h in loaded.search(query, 8)[0]] == [h.chunk for h in built.search(query, 8)[0]]


def test_retrieval_settings_share_one_index_and_other_settings_do_not():
    assert index_key(SAC) == index_key(SAC.with_(semantic_weight=0.5, ks=(1, 2), fusion_depth=50))
    assert index_key(SAC) != index_key(SAC.with_(chunk_size=300))
    assert index_key(SAC) != index_key(SAC.with_(method="baseline"))
    assert index_key(SAC) != index_key(SAC.with_(backend="torch" if SAC.backend == "onnx" else "onnx"))


def test_a_changed_document_makes_the_index_stale_and_it_is_rebuilt(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    _open(data, cache, SAC, embed_cache)
    doc = data / "corpus" / "demo_nda" / "02_Cobalt.txt"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n\nAmended on 1 May 2024 (amended).", encoding="utf-8")
    bench = load_benchmark(data, DEMO, "full")
    summaries = document_summaries(bench, SAC, data, cache, progress=False)
    check = check_index(bench, SAC, cache, summaries)
    assert check.state == "stale" and "document" in check.reason
    embedder = Embedder(SAC.model, tmp_path / "fresh-embeddings", backend=SAC.backend)
    assert load_retriever(bench, SAC, cache, embedder, summaries) is None  # never used
    rebuilt = open_retriever(bench, SAC, cache, embedder, summaries, False, save=True)
    assert embedder.encoded == len(rebuilt.pool)  # rebuilt, not reused
    assert any("(amended)" in c.text for c in rebuilt.pool.chunks)
    assert check_index(bench, SAC, cache, summaries).fresh


def test_changed_summaries_make_the_index_stale(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    bench, summaries, embedder, _ = _open(data, cache, SAC, embed_cache)
    changed = {**summaries, next(iter(summaries)): "A different summary."}
    assert check_index(bench, SAC, cache, changed).state == "stale"
    assert load_retriever(bench, SAC, cache, embedder, changed) is None


def test_an_incomplete_folder_is_never_read(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    bench, summaries, embedder, _ = _open(data, cache, SAC, embed_cache)
    (index_folder(cache, SAC) / "manifest.json").unlink()
    assert check_index(bench, SAC, cache, summaries).state == "missing"
    assert load_retriever(bench, SAC, cache, embedder, summaries) is None


def test_evaluate_with_a_saved_index_gives_the_same_metrics(data, tmp_path, embed_cache):
    cache = tmp_path / "cache"
    bench = load_benchmark(data, DEMO, "full")
    rebuilt = evaluate(
        bench, SAC, data, cache, progress=False, embedder=Embedder(SAC.model, embed_cache, backend=SAC.backend)
    )
    embedder = Embedder(SAC.model, embed_cache, backend=SAC.backend)
    build_retriever(bench, SAC, cache, embedder, document_summaries(bench, SAC, data, cache, progress=False), False)
    loaded = evaluate(
        bench, SAC, data, cache, progress=False, embedder=Embedder(SAC.model, tmp_path / "e", backend=SAC.backend)
    )
    pd.testing.assert_frame_equal(rebuilt.per_query, loaded.per_query)


def test_a_pool_above_the_threshold_gets_an_hnsw_index_saved_like_the_others(data, tmp_path, embed_cache):
    config = SAC.with_(ann_threshold=10)  # the demo pool is larger than 10 chunks
    assert config.dense_kind(84) == "hnsw" and SAC.dense_kind(84) == "flat"
    cache = tmp_path / "cache"
    bench, summaries, _, built = _open(data, cache, config, embed_cache)
    assert built.dense is not None and built.dense.kind == "hnsw"
    assert index_key(config) != index_key(SAC)  # another index
    assert index_key(config) == index_key(config.with_(ef_search=512))  # a search setting: the same index
    loaded = load_retriever(bench, config.with_(ef_search=16), cache, Embedder(SAC.model, tmp_path / "e"), summaries)
    assert loaded is not None and loaded.dense.kind == "hnsw" and loaded.dense.index.hnsw.efSearch == 16
    assert "dense_index" not in RunConfig().columns()  # unchanged defaults leave every published id as it was
