"""Imported runs and live retrievers are methods: stored once, scored like any other, only on their benchmark."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from sac_core.engine.data import RunFileError, load_benchmark
from sac_core.engine.metrics import METRICS
from sac_core.experiments import OpenContext, RunConfig, catalogue, evaluate, load_sweep, write_run
from sac_core.experiments.cells import CellCache
from sac_core.experiments.export import export_beir, export_run, from_file, from_stored
from sac_core.experiments.run_store import RunStoreError, import_run, list_runs, remove_run
from sac_core.experiments.sweep import evaluate_cell

DEMO = ("demo_nda", "demo_privacy")
KS = (1, 2, 4, 8)
LANGCHAIN = "sac_core.engine.retrieval.langchain:example_retriever"


@pytest.fixture(scope="module")
def bench(demo_dir):
    return load_benchmark(demo_dir, "all", "full")


@pytest.fixture(scope="module")
def baseline(bench, demo_dir, embed_cache):
    return evaluate(RunConfig(protocol="full", datasets=DEMO, ks=KS), OpenContext.new(bench, demo_dir, embed_cache))


def scored(config: RunConfig, bench, demo_dir, cache) -> pd.DataFrame:
    return evaluate(config, OpenContext.new(bench, demo_dir, cache)).results


def metrics(results: pd.DataFrame) -> pd.DataFrame:
    return results.set_index(["dataset", "k"])[list(METRICS)].sort_index()


def test_export_then_import_gives_identical_figures(baseline, bench, demo_dir, embed_cache, tmp_path) -> None:
    run_file = tmp_path / "baseline.jsonl"
    write_run(run_file, baseline.run)
    source, _ = from_file(run_file, demo_dir, "full", DEMO, ks=KS)
    written = export_run(tmp_path / "export", source, bench)
    assert {p.name for p in written} >= {
        "run.trec",
        "qrels.trec",
        "run.doc.trec",
        "qrels.doc.trec",
        "per_query.parquet",
    }
    exported = pd.read_parquet(tmp_path / "export" / "per_query.parquet").drop(columns="run")
    pd.testing.assert_frame_equal(exported, baseline.per_query)
    for fmt in ("trec", "jsonl"):
        stored = import_run((tmp_path / "export" / f"run.{fmt}").read_bytes(), name=f"rt-{fmt}", source=f"run.{fmt}",
                            data_dir=demo_dir, cache_dir=tmp_path, protocol="full", datasets=DEMO)  # fmt: skip
        assert (stored.format, stored.queries, stored.skipped) == (fmt, len(bench.queries), 0)
        config = RunConfig(protocol="full", datasets=DEMO, ks=KS, method="run", options={"run.name": f"rt-{fmt}"})
        results = scored(config, bench, demo_dir, tmp_path)
        assert results["variant"].iloc[0] == f"run-rt-{fmt}" and results["n_chunks"].isna().all()
        pd.testing.assert_frame_equal(metrics(results), metrics(baseline.results))


def test_names_are_given_once_and_removal_evicts_cached_cells(baseline, demo_dir, tmp_path) -> None:
    path = tmp_path / "b.jsonl"
    write_run(path, baseline.run)
    args = dict(name="mine", source="b.jsonl", data_dir=demo_dir, cache_dir=tmp_path, protocol="full", datasets=DEMO)
    first = import_run(path.read_bytes(), **args)
    assert import_run(path.read_bytes(), **args) == first  # the same content again: nothing changes
    other = dict(baseline.run)
    qid = next(iter(other))
    other[qid] = list(reversed(other[qid]))
    write_run(path, other)
    with pytest.raises(RunStoreError, match="a different run is already imported as 'mine'"):
        import_run(path.read_bytes(), **args)
    with pytest.raises(RunStoreError, match="run name"):
        import_run(path.read_bytes(), **{**args, "name": "../x"})
    bench = load_benchmark(demo_dir, DEMO, "full")
    config = RunConfig(protocol="full", datasets=DEMO, ks=KS, method="run", options={"run.name": "mine"})
    plain = RunConfig(protocol="full", datasets=DEMO, ks=KS)
    with CellCache(tmp_path) as cells:
        for cfg in (config, plain):
            cells.put(evaluate_cell(cfg, OpenContext.new(bench, demo_dir, tmp_path)))
        ids = cells.ids()
    assert len(ids) == 2
    assert remove_run(tmp_path, "mine") == 1 and list_runs(tmp_path) == []
    with CellCache(tmp_path) as cells:
        left = [cells.get(i) for i in ids]
    assert [r is None for r in left].count(True) == 1 and any(r is not None and r.config == plain for r in left)


def test_a_bad_file_imports_nothing(demo_dir, tmp_path) -> None:
    bad = b'{"query_id": "demo_nda/0", "snippets": []}\n{"query_id": "demo_nda/0", "snippets": []}\n'
    with pytest.raises(RunFileError, match=r"bad.jsonl, line 2: query demo_nda/0 again"):
        import_run(
            bad, name="bad", source="bad.jsonl", data_dir=demo_dir, cache_dir=tmp_path, protocol="full", datasets=DEMO
        )
    assert list_runs(tmp_path) == [] and not (tmp_path / "runs").exists()


def test_a_run_is_scored_on_the_protocol_its_queries_fit_or_refused_whole(many_queries, tmp_path) -> None:
    data = (many_queries / "run.jsonl").read_bytes()
    args = dict(source="run.jsonl", data_dir=many_queries, cache_dir=tmp_path, datasets=("gen",))
    fitted = import_run(data, name="all", protocol=None, **args)
    assert (fitted.protocol, fitted.queries, fitted.skipped) == ("full", 250, 0)  # every line scored
    with pytest.raises(RunFileError, match=r"run.jsonl: 56 of its queries lie outside protocol lbr-mini \(194 "
                       r"queries\), so they would not be scored; the run fits protocol full"):  # fmt: skip
        import_run(data, name="mini", protocol="lbr-mini", whole=True, **args)
    subset = import_run(data, name="mini", protocol="lbr-mini", **args)  # asked for: skipped and counted
    assert (subset.queries, subset.skipped) == (194, 56)
    mini = "".join(line + "\n" for line in data.decode().splitlines() if json.loads(line)["query_id"] in
                   {q.query_id for q in load_benchmark(many_queries, "all", "lbr-mini").queries})  # fmt: skip
    assert import_run(mini.encode(), name="only-mini", protocol=None, **args).protocol == "lbr-mini"
    with pytest.raises(RunFileError, match=r"empty\.jsonl: the file is empty"):
        import_run(b"", name="empty", protocol=None, **{**args, "source": "empty.jsonl"})
    assert [r.name for r in list_runs(tmp_path)] == ["all", "mini", "only-mini"]


def test_a_run_shows_only_on_its_benchmark(baseline, bench, demo_dir, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path))
    path = tmp_path / "b.jsonl"
    write_run(path, {qid: spans for qid, spans in baseline.run.items() if qid.startswith("demo_nda/")})
    import_run(path.read_bytes(), name="nda-only", source="b.jsonl", data_dir=demo_dir, cache_dir=tmp_path,
               protocol="full", datasets=("demo_nda",))  # fmt: skip
    nda = RunConfig(protocol="full", datasets=("demo_nda",))
    assert "run:nda-only" in catalogue(nda, load_benchmark(demo_dir, ("demo_nda",), "full"))
    assert "run:nda-only" not in catalogue(RunConfig(protocol="full", datasets=DEMO), bench)  # other datasets
    other = demo_dir.parent / "demo-changed"
    if not other.exists():
        shutil.copytree(demo_dir, other)
        doc = next((other / "corpus" / "demo_nda").glob("*.txt"))
        doc.write_text(doc.read_text(encoding="utf-8") + " One more sentence.", encoding="utf-8")
    changed = load_benchmark(other, ("demo_nda",), "full")
    assert "run:nda-only" not in catalogue(nda, changed)  # same names, another data folder
    with pytest.raises(RunStoreError, match="imported for another benchmark"):
        scored(nda.with_(method="run", options={"run.name": "nda-only"}), changed, other, tmp_path)
    source, _ = from_stored("nda-only", demo_dir, tmp_path)
    assert len(source.run) == len(load_benchmark(demo_dir, ("demo_nda",), "full").queries)


def test_a_langchain_retriever_is_a_method_close_to_the_baseline(baseline, bench, demo_dir, embed_cache) -> None:
    """LangChain's splitter with our separators cuts the same chunks and MiniLM scores them the same,
    so its figures match the baseline's up to ties: the demo's near-identical NDAs share chunks of
    identical text (equal cosines), which FAISS and LangChain's numpy sort order differently."""
    config = RunConfig(
        protocol="full", datasets=DEMO, ks=KS, method="retriever", options={"retriever.factory": LANGCHAIN}
    )
    results = scored(config, bench, demo_dir, embed_cache)
    assert results["variant"].iloc[0] == f"retriever-{LANGCHAIN}"
    assert (metrics(results) - metrics(baseline.results)).abs().max().max() < 0.05  # one or two of 66 queries
    assert (
        metrics(results).xs(1, level="k")["precision"] == metrics(baseline.results).xs(1, level="k")["precision"]
    ).all()


def test_operator_retrievers_are_catalogue_entries(monkeypatch) -> None:
    monkeypatch.setenv("SAC_RETRIEVERS", f"LangChain demo={LANGCHAIN}")
    entry = catalogue(RunConfig())["retriever:LangChain demo"]
    assert entry.title == "LangChain demo" and entry.config.options == (("retriever.factory", LANGCHAIN),)
    monkeypatch.setenv("SAC_RETRIEVERS", "bad entry")
    with pytest.raises(ValueError, match=r"\$SAC_RETRIEVERS: 'bad entry' is not name=module:factory"):
        catalogue(RunConfig())


def test_beir_export(bench, tmp_path) -> None:
    export_beir(tmp_path, bench)
    corpus = [json.loads(line) for line in (tmp_path / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(corpus) == len(bench.documents) and corpus[0]["text"] == bench.documents[corpus[0]["_id"]].text
    qrels = pd.read_csv(tmp_path / "qrels" / "test.tsv", sep="\t")
    assert len(qrels) == sum(len(q.gold_files) for q in bench.queries)


def test_sweep_files_name_runs(tmp_path: Path) -> None:
    sweep = tmp_path / "s.toml"
    sweep.write_text('name = "s"\n[base]\nprotocol = "full"\n[[grid]]\nmethod = ["run"]\n"run.name" = ["a", "b"]\n')
    assert [c.variant for c in load_sweep(sweep).cells] == ["run-a", "run-b"]
