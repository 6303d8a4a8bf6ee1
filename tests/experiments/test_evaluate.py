"""End to end on the generated demo benchmark, with the real packaged embedding model."""

import json

import pytest

from sac_core.cli import main
from sac_core.engine.data import Span, load_benchmark
from sac_core.engine.indexes import BM25Index
from sac_core.engine.retrieval import build_pool
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, evaluate, read_run

DEMO = ("demo_nda", "demo_privacy")


@pytest.fixture(scope="module")
def bench(demo_dir):
    return load_benchmark(demo_dir, "all", "full")


def run(bench, demo_dir, embed_cache, **changes):
    config = RunConfig(protocol="full", datasets=DEMO, **changes)
    return evaluate(config, OpenContext.new(bench, demo_dir, embed_cache))


def test_results_have_a_row_per_dataset_and_k_with_config_columns(bench, demo_dir, embed_cache):
    ev = run(bench, demo_dir, embed_cache, ks=(1, 4))
    assert set(zip(ev.results["dataset"], ev.results["k"])) == {(d, k) for d in (*DEMO, "ALL") for k in (1, 4)}
    for column in ("variant", "drm", "precision", "recall", "hit", "mrr", "ndcg", "chunk_size", "model", "protocol"):
        assert column in ev.results.columns
    assert set(ev.run) == {q.query_id for q in bench.queries}
    assert all(len(spans) == 4 for spans in ev.run.values())


def test_sac_removes_document_mismatch_on_near_identical_ndas(bench, demo_dir, embed_cache):
    base = run(bench, demo_dir, embed_cache, ks=(4,))
    sac = run(
        bench,
        demo_dir,
        embed_cache,
        ks=(4,),
        method="sac",
        summary=SummaryConfig(provider="file", prompt="generic", chars=150),
    )
    get = lambda ev: ev.results.set_index(["dataset", "k"]).loc[("demo_nda", 4)]
    assert sac.config.variant == "sac-file-generic-150"
    assert get(sac)["drm"] < get(base)["drm"]
    assert get(base)["drm"] > 0.5  # the demo's point: the baseline mostly reads other NDAs


def test_bm25_alone_ranks_as_bm25_over_the_chunks_and_needs_no_model(demo_dir, tmp_path):
    """``semantic_weight=0`` reaches the retriever: the run is BM25's own top k over the chunks the
    config makes, query by query, and nothing is embedded (a fresh cache, no model loaded)."""
    bench = load_benchmark(demo_dir, DEMO, "full")
    ev = run(bench, demo_dir, tmp_path, ks=(2,), semantic_weight=0.0)
    c = ev.config
    pool = build_pool(bench.documents, chunker=c.chunker, chunk_size=c.chunk_size, chunk_overlap=c.chunk_overlap)
    index = BM25Index(pool.indexed)
    for query in bench.queries:
        expected = [pool.chunks[i] for i in index.search(query.text, 2).ids]
        assert ev.run[query.query_id] == [Span(c.file_path, c.start, c.end) for c in expected], query.query_id
    assert set(ev.results["semantic_weight"]) == {0.0} and (ev.results["recall"] > 0).all()


def test_cli_writes_results_and_run_file(demo_dir, embed_cache, tmp_path, capsys):
    out, run_out = tmp_path / "r.csv", tmp_path / "run.jsonl"
    code = main(
        [
            "evaluate",
            "--data",
            str(demo_dir),
            "--protocol",
            "full",
            "--k",
            "1,2",
            "--quiet",
            "--cache-dir",
            str(embed_cache),
            "--out",
            str(out),
            "--run-out",
            str(run_out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "drm" in printed and "@2" in printed
    first = json.loads(run_out.read_text().splitlines()[0])
    assert set(first) == {"query_id", "retrieved"} and first["query_id"] == "demo_nda/0"
    assert set(first["retrieved"][0]) == {"file_path", "span"} and len(first["retrieved"]) == 2
    assert len(read_run(run_out)) == 66
    assert out.read_text().startswith("dataset,variant,k,")


def test_cli_reports_bad_data_without_traceback(tmp_path, capsys):
    assert main(["evaluate", "--data", str(tmp_path), "--quiet"]) == 2
    assert "no benchmarks/ folder" in capsys.readouterr().err
