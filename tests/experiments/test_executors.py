"""The Ray executor on a local Ray instance with 2 workers: the same vectors and metrics as a run in
this process, and a task whose worker dies mid-way is retried without computing anything twice.

Ray is a test requirement; under CI (``$CI`` set) a Ray that cannot start fails the test."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedder
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, evaluate
from sac_core.experiments.executors import (
    EmbedTask,
    Executor,
    embed_ahead,
    embed_partition,
    partition,
    prefill_embeddings,
    prefill_summaries,
)
from sac_core.experiments.index_store import make_pool
from sac_core.experiments.methods import SAC_METHOD

ray = pytest.importorskip("ray") if not os.environ.get("CI") else __import__("ray")

DEMO = ("demo_nda", "demo_privacy")
CONFIG = RunConfig(protocol="full", datasets=DEMO, method="sac", backend="onnx",
                   summary=SummaryConfig(provider="extractive"))  # fmt: skip
RAY = Executor("ray", workers=2, partitions=4)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this test module
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_partitions_balance_the_work():
    groups = partition(["a", "b", "c", "d", "e"], 2, weight={"a": 5, "b": 4, "c": 3, "d": 2, "e": 1}.get)
    assert sorted(sum({"a": 5, "b": 4, "c": 3, "d": 2, "e": 1}[x] for x in g) for g in groups) == [7, 8]
    assert partition(["a"], 8) == [["a"]] and partition([], 3) == []


def test_ray_gives_the_same_vectors_and_metrics_as_this_process(local_ray, demo_dir, tmp_path, seed_model):
    bench = load_benchmark(demo_dir, DEMO, "full")
    seed_model(tmp_path / "ray"), seed_model(tmp_path / "local")  # the model exported: the workers embed at once
    done = embed_ahead([(CONFIG, OpenContext.new(bench, demo_dir, tmp_path / "ray"))], RAY, progress=False, desc="x")
    pool = SAC_METHOD.pool(CONFIG, OpenContext.new(bench, demo_dir, tmp_path / "ray"))
    assert done["embedded"] == len(set(pool.indexed)) and done["summarized"] == len(bench.documents)
    from_ray = Embedder(CONFIG.model, tmp_path / "ray", backend=CONFIG.backend)
    ray_vectors = from_ray.encode(list(pool.indexed), progress=False)
    assert from_ray.encoded == 0  # everything came from the cache the Ray workers filled
    here = Embedder(CONFIG.model, tmp_path / "local", backend=CONFIG.backend)
    local_vectors = here.encode(list(pool.indexed), progress=False)
    assert np.allclose(ray_vectors, local_vectors, atol=1e-5)
    a = evaluate(CONFIG, OpenContext.new(bench, demo_dir, tmp_path / "ray")).per_query
    b = evaluate(CONFIG, OpenContext.new(bench, demo_dir, tmp_path / "local")).per_query
    pd.testing.assert_frame_equal(a, b)


def dies_once(task: EmbedTask) -> dict:
    """Embeds the first half, then its worker process dies (once per partition: a marker file says
    it happened); the retry does the whole partition. Logs every model call to a file."""
    cache = Path(task.cache_dir)
    marker = cache / f"died-{hashlib.sha256(repr(task.texts).encode()).hexdigest()[:12]}"
    log = cache / "encoded.log"
    embedder = Embedder(task.model, cache, backend=task.backend)
    if not marker.exists():
        embedder.encode(list(task.texts[: len(task.texts) // 2]), progress=False)
        with log.open("a") as f:
            f.write(f"{embedder.encoded}\n")
        marker.write_text("x")
        os._exit(1)  # the worker dies: Ray runs the task again elsewhere
    result = embed_partition(task)
    with log.open("a") as f:
        f.write(f"{result['encoded']}\n")
    return result


def test_a_worker_that_dies_is_retried_and_nothing_is_embedded_twice(local_ray, demo_dir, tmp_path, fresh_cache):
    bench = load_benchmark(demo_dir, DEMO, "full")
    pool = make_pool(bench, CONFIG.with_(method="baseline"), lambda chunk: chunk.text)
    by_document: dict[str, list[str]] = {}
    for chunk, text in zip(pool.chunks, pool.indexed):
        by_document.setdefault(chunk.file_path, []).append(text)
    cache = fresh_cache
    two = Executor("ray", workers=2, partitions=2)
    results = prefill_embeddings(by_document, CONFIG.model, CONFIG.backend, cache, two, task=dies_once)
    assert len(results) == 2 and len(list(cache.glob("died-*"))) == 2  # every partition died once
    unique = len(set(pool.indexed))
    encoded = [int(line) for line in (cache / "encoded.log").read_text().split()]
    assert sum(encoded) == unique  # what a dead attempt embedded was not embedded again
    check = Embedder(CONFIG.model, cache, backend=CONFIG.backend)
    check.encode(list(pool.indexed), progress=False)
    assert check.encoded == 0


def test_summaries_through_ray_fill_the_summary_cache(local_ray, demo_dir, tmp_path):
    texts = {fp: d.text for fp, d in load_benchmark(demo_dir, DEMO, "full").documents.items()}
    results = prefill_summaries(texts, SummaryConfig(provider="extractive"), tmp_path, RAY)
    assert sum(r["new"] for r in results) == len(texts)
    again = prefill_summaries(texts, SummaryConfig(provider="extractive"), tmp_path, RAY)
    assert sum(r["new"] for r in again) == 0  # a rerun only reads the cache


def test_a_sweep_on_ray_has_the_ids_and_results_of_a_sweep_in_this_process(local_ray, demo_dir, tmp_path, seed_model):
    """``sac sweep --executor ray``: the embedding runs on Ray, the cells read it from the cache; the
    same sweep in this process gives the same cell ids and every metric of every query the same."""
    from sac_core.experiments import load_sweep, run_sweep

    path = tmp_path / "s.toml"
    path.write_text(
        'name = "s"\n[base]\nprotocol = "full"\ndatasets = ["demo_nda", "demo_privacy"]\nbackend = "onnx"\n'
        '"summary.provider" = "extractive"\n[[grid]]\nmethod = ["baseline", "sac"]\n',
        encoding="utf-8",
    )
    sweep = load_sweep(path)
    seed_model(tmp_path / "cache-ray"), seed_model(tmp_path / "cache-here")
    on_ray = run_sweep(sweep, demo_dir, tmp_path / "cache-ray", tmp_path / "out-ray", progress=False, executor=RAY)
    here = run_sweep(sweep, demo_dir, tmp_path / "cache-here", tmp_path / "out-here", progress=False)
    assert list(on_ray["cell"].unique()) == list(here["cell"].unique()) and on_ray["cell"].nunique() == 2
    metrics = ["cell", "dataset", "k", "drm", "precision", "recall", "hit", "mrr", "ndcg"]
    pd.testing.assert_frame_equal(on_ray[metrics], here[metrics])
    a = pd.read_csv(tmp_path / "out-ray" / "per_query.csv.gz")
    b = pd.read_csv(tmp_path / "out-here" / "per_query.csv.gz")
    pd.testing.assert_frame_equal(a, b)
    check = Embedder(CONFIG.model, tmp_path / "cache-ray", backend="onnx")
    pools = [m.pool(c, OpenContext.new(load_benchmark(demo_dir, DEMO, "full"), demo_dir, tmp_path / "cache-ray"))
             for c in sweep.cells for m in [c.method_plugin.indexer()] if m is not None]  # fmt: skip
    assert not check.missing([t for pool in pools for t in pool.indexed])  # every index text came from Ray
