"""Document-aware methods end to end on the demo benchmark (real model), and their config plumbing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.retrieval import DocumentAwareRetriever, Signals
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, catalogue, evaluate, load_sweep
from sac_core.experiments.index_store import index_key
from sac_core.experiments.methods import DOCUMENT_AWARE

DEMO = ("demo_nda", "demo_privacy")


def config(**changes: object) -> RunConfig:
    return RunConfig(protocol="full", datasets=DEMO, ks=(1, 4), summary=SummaryConfig(provider="file"), **changes)  # type: ignore[arg-type]


def test_signals_are_the_doc_stages_options_and_share_the_index() -> None:
    plain = config(method="baseline")
    aware = plain.with_options("doc", DOCUMENT_AWARE)
    assert aware.signals == DOCUMENT_AWARE and plain.signals == Signals()
    assert index_key(aware) == index_key(plain)  # retrieval-time: the same saved index
    assert "option_doc_doc_weight" not in plain.columns()
    cols = aware.columns()
    assert cols["option_doc_split_query"] is True and cols["option_doc_doc_bm25"] == 0.125
    assert "option_doc_doc_repr" not in cols  # a default is no setting
    assert cols["variant"] == "baseline+split+doc:summary300×8+bm25×0.125+gate:split"
    assert cols["summary_provider"] == "file"  # the document summaries it embeds are part of the method
    assert plain.columns()["summary_provider"] is None


def test_sweep_files_set_the_doc_stages_options(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        'name = "s"\n[base]\nmethod = "baseline"\n"summary.provider" = "file"\n'
        '[[grid]]\n"doc.doc_weight" = [1.0, 2]\n"doc.split_query" = true\n"summary.chars" = [150, 300]\n',
        encoding="utf-8",
    )
    sweep = load_sweep(path)
    cells = sweep.cells
    assert [(c.signals.doc_weight, c.summary.chars) for c in cells] == [(1.0, 150), (1.0, 300), (2.0, 150), (2.0, 300)]
    assert sweep.notes == ()
    path.write_text('[[grid]]\n"doc.doc_weight" = -1\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"s.toml \[\[grid\]\] #1: invalid configuration: options of doc"):
        load_sweep(path)


def test_the_old_signals_spelling_is_read_with_a_notice(tmp_path: Path) -> None:
    old, new = tmp_path / "old.toml", tmp_path / "new.toml"
    old.write_text('[base]\nmethod = "baseline"\n"signals.doc_weight" = 2.0\n"signals.split_query" = true\n', "utf-8")
    new.write_text('[base]\nmethod = "baseline"\n"doc.doc_weight" = 2.0\n"doc.split_query" = true\n', "utf-8")
    read_old, read_new = load_sweep(old), load_sweep(new)
    assert read_old.cells == read_new.cells
    assert len(read_old.notes) == 2 and all("deprecated" in n and "'doc." in n for n in read_old.notes)


def test_document_aware_finds_the_named_nda(demo_dir: Path, embed_cache: Path) -> None:
    bench = load_benchmark(demo_dir, DEMO, "full")
    plain = evaluate(config(method="baseline"), OpenContext.new(bench, demo_dir, embed_cache))
    aware_config = config(method="baseline").with_options("doc", DOCUMENT_AWARE)
    aware = evaluate(aware_config, OpenContext.new(bench, demo_dir, embed_cache))

    def drm(ev: object) -> float:
        r = ev.results  # type: ignore[attr-defined]
        return float(r[(r.dataset == "ALL") & (r.k == 4)].drm.iloc[0])

    assert drm(aware) < drm(plain)
    assert drm(aware) <= 0.25


@pytest.mark.parametrize(
    "signals",
    [
        Signals(split_query=True, doc_weight=1.0, doc_repr="title", route_docs=1, sections=2),
        Signals(entity_weight=0.3, expansion="prf", expansion_n=2),
        Signals(doc_weight=1.0, doc_repr="filename", doc_bm25=0.5, route_docs=1, route_fill=False),
        Signals(split_query=True, rerank_model="all-MiniLM-L6-v2", rerank_depth=3, rerank_weight=0.5),
    ],
)
def test_every_signal_runs_on_a_real_index(demo_dir: Path, embed_cache: Path, signals: Signals) -> None:
    bench = load_benchmark(demo_dir, DEMO, "full")
    ev = evaluate(config(method="sac").with_options("doc", signals), OpenContext.new(bench, demo_dir, embed_cache))
    assert set(ev.run) == {q.query_id for q in bench.queries}
    limit = 4
    assert all(0 < len(spans) <= limit for spans in ev.run.values())
    assert signals.label in ev.results["variant"].iloc[0]


def test_catalogue_offers_the_defaults_first_and_the_new_methods() -> None:
    offered = catalogue(config())
    assert list(offered)[:3] == ["baseline", "sac-generic", "sac-expert"]
    assert offered["doc-aware"].config.signals == DOCUMENT_AWARE
    extractive = catalogue(RunConfig(summary=SummaryConfig(provider="extractive")))
    assert "sac-expert" not in extractive and extractive["sac-generic"].title == "SAC extractive"


def test_workspace_column_with_signals(demo_dir: Path, embed_cache: Path) -> None:
    from sac_core.experiments import Column, Workspace

    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = [
        Column("Baseline", config(method="baseline")),
        Column("Aware", config(method="baseline").with_options("doc", DOCUMENT_AWARE)),
    ]
    ws = Workspace.open(bench, cols, demo_dir, embed_cache)
    assert isinstance(ws.retrievers["Aware"], DocumentAwareRetriever)
    query = ws.queries["demo_nda/1"]
    aware = ws.search(query.text, 3, query)[1]
    assert all(aware.gold_document)


def test_sac_evaluate_takes_doc_options_and_the_old_signals_spelling(
    demo_dir: Path, embed_cache: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    from sac_core.cli import main

    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    args = ["evaluate", "--data", str(demo_dir), "--protocol", "full", "--datasets", "demo_nda", "--k", "1,4"]
    args += ["--provider", "file", "--quiet"]
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    options = ["--option", "doc.split_query=true", "--option", "doc.doc_weight=2", "--option", "doc.doc_bm25=0.25"]
    assert main([*args, *options, "--out", str(new)]) == 0
    assert main([*args, "--signals", "split_query=true,doc_weight=2,doc_bm25=0.25", "--out", str(old)]) == 0
    assert "--signals is deprecated: write --option doc.split_query=true" in capsys.readouterr().err
    for table in (new, old):
        assert "baseline+split+doc:summary300×2+bm25×0.25" in table.read_text(encoding="utf-8")
    assert main([*args, "--option", "doc.doc_weight=-1"]) == 2
    assert "invalid configuration: options of doc: invalid retrieval signals" in capsys.readouterr().err


def test_passage_stages_share_their_methods_index() -> None:
    plain = config(method="baseline")
    passages = plain.with_(options={"within_doc.on": True, "trim.on": True}).with_options("doc", DOCUMENT_AWARE)
    assert index_key(passages) == index_key(plain)
    assert "option_within_doc_on" in passages.columns() and "option_within_doc_on" not in plain.columns()
