"""Document-aware signals (one stage each) end to end on the demo benchmark (real model), and their config plumbing."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.retrieval import DocumentAwareRetriever, Signals
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, catalogue, evaluate, load_sweep
from sac_core.experiments.index_store import index_key
from sac_core.experiments.methods import DOCUMENT_AWARE, SIGNALS, signals_of
from sac_core.tooling.docs.rows import ADAPTED, RECOMMENDED, RECOMMENDED_NAMES

DEMO = ("demo_nda", "demo_privacy")


def config(**changes: object) -> RunConfig:
    return RunConfig(protocol="full", datasets=DEMO, ks=(1, 4), summary=SummaryConfig(provider="file"), **changes)  # type: ignore[arg-type]


def test_each_signal_is_a_stage_of_its_own_and_they_share_the_index() -> None:
    plain = config(method="baseline")
    aware = plain.with_(options=DOCUMENT_AWARE)
    assert [stage.name for stage in aware.stages] == ["split", "prior", "doc_bm25", "gate"]
    assert signals_of(aware) == Signals(split_query=True, doc_weight=8.0, doc_bm25=0.125, doc_gate="split")
    assert signals_of(plain) == Signals() and plain.stages == ()
    assert index_key(aware) == index_key(plain)  # ranking-time: the same saved index
    assert "option_prior_weight" not in plain.columns()
    cols = aware.columns()
    assert cols["option_split_on"] is True and cols["option_doc_bm25_weight"] == 0.125
    assert "option_prior_repr" not in cols  # a default is no setting
    assert cols["variant"] == "baseline+split+doc:summary300×8+bm25×0.125+gate:split"
    assert cols["stages"] == "split,prior,doc_bm25,gate"  # a column of its own, never read out of the variant
    assert cols["summary_provider"] == "file"  # the document summaries it embeds are part of the method
    assert plain.columns()["summary_provider"] is None and plain.columns()["stages"] == ""
    assert {s.name for s in SIGNALS} == {"split", "prior", "doc_bm25", "doc_names", "doc_profile", "gate", "route",
                                          "sections", "entities", "expansion", "rerank"}  # fmt: skip


def test_routing_without_a_prior_reads_the_document_summaries() -> None:
    routed = config(method="baseline", options={"route.docs": 1})
    assert [s.name for s in routed.stages] == ["route"]
    assert routed.summaries_read() == (SummaryConfig(provider="file", chars=300),)


def test_sweep_files_set_the_signal_stages_options(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        'name = "s"\n[base]\nmethod = "baseline"\n"summary.provider" = "file"\n'
        '[[grid]]\n"prior.weight" = [1.0, 2]\n"split.on" = true\n"summary.chars" = [150, 300]\n',
        encoding="utf-8",
    )
    cells = load_sweep(path).cells
    assert [(signals_of(c).doc_weight, c.summary.chars) for c in cells] == [
        (1.0, 150),
        (1.0, 300),
        (2.0, 150),
        (2.0, 300),
    ]
    path.write_text('[[grid]]\n"prior.weight" = -1\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"s.toml \[\[grid\]\] #1: invalid configuration: .*doc_weight"):
        load_sweep(path)
    path.write_text('[[grid]]\n"doc.doc_weight" = 2\n', encoding="utf-8")  # the old single stage: a clear error
    with pytest.raises(ValueError, match=r"option 'doc.doc_weight': not '<method or stage>.<field>'"):
        load_sweep(path)


def test_document_aware_finds_the_named_nda(demo_dir: Path, embed_cache: Path) -> None:
    bench = load_benchmark(demo_dir, DEMO, "full")
    plain = evaluate(config(method="baseline"), OpenContext.new(bench, demo_dir, embed_cache))
    aware_config = config(method="baseline", options=DOCUMENT_AWARE)
    aware = evaluate(aware_config, OpenContext.new(bench, demo_dir, embed_cache))

    def drm(ev: object) -> float:
        r = ev.results  # type: ignore[attr-defined]
        return float(r[(r.dataset == "ALL") & (r.k == 4)].drm.iloc[0])

    assert drm(aware) < drm(plain)
    assert drm(aware) <= 0.25


@pytest.mark.parametrize(
    "options",
    [
        {"split.on": True, "prior.weight": 1.0, "prior.repr": "title", "route.docs": 1, "sections.n": 2},
        {"entities.weight": 0.3, "expansion.kind": "prf", "expansion.n": 2},
        {"prior.weight": 1.0, "prior.repr": "filename", "doc_bm25.weight": 0.5, "route.docs": 1, "route.fill": False},
        {"split.on": True, "rerank.model": "all-MiniLM-L6-v2", "rerank.depth": 3, "rerank.weight": 0.5},
    ],
)
def test_every_signal_runs_on_a_real_index(demo_dir: Path, embed_cache: Path, options: dict) -> None:
    bench = load_benchmark(demo_dir, DEMO, "full")
    run = config(method="sac", options=options)
    ev = evaluate(run, OpenContext.new(bench, demo_dir, embed_cache))
    assert set(ev.run) == {q.query_id for q in bench.queries}
    limit = 4
    assert all(0 < len(spans) <= limit for spans in ev.run.values())
    assert signals_of(run).label in ev.results["variant"].iloc[0]  # the stages' labels spell the engine's


def test_catalogue_offers_the_defaults_first_and_the_new_methods() -> None:
    offered = catalogue(config())
    assert list(offered)[:3] == ["baseline", "sac-generic", "recommended"]  # the default columns (issue 45)
    assert dict(offered["doc-aware"].config.options) == DOCUMENT_AWARE
    extractive = catalogue(RunConfig(summary=SummaryConfig(provider="extractive")))
    assert "sac-expert" not in extractive and extractive["sac-generic"].title == "SAC extractive"


def test_workspace_column_with_signals(demo_dir: Path, embed_cache: Path) -> None:
    from sac_core.experiments import Column, Workspace

    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = [
        Column("Baseline", config(method="baseline")),
        Column("Aware", config(method="baseline", options=DOCUMENT_AWARE)),
    ]
    ws = Workspace.open(bench, cols, demo_dir, embed_cache)
    assert isinstance(ws.retrievers["Aware"], DocumentAwareRetriever)
    query = ws.queries["demo_nda/1"]
    aware = ws.search(query.text, 3, query)[1]
    assert all(aware.gold_document)


def test_sac_evaluate_takes_the_signal_stages_options(
    demo_dir: Path, embed_cache: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    from sac_core.cli import main

    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    args = ["evaluate", "--data", str(demo_dir), "--protocol", "full", "--datasets", "demo_nda", "--k", "1,4"]
    args += ["--provider", "file", "--quiet"]
    out = tmp_path / "new.csv"
    options = ["--option", "split.on=true", "--option", "prior.weight=2", "--option", "doc_bm25.weight=0.25"]
    assert main([*args, *options, "--out", str(out)]) == 0
    assert "baseline+split+doc:summary300×2+bm25×0.25" in out.read_text(encoding="utf-8")
    assert main([*args, "--option", "prior.weight=-1"]) == 2
    assert "invalid retrieval signals" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="2"):  # the old spelling is gone: one line, no traceback
        main([*args, "--signals", "split_query=true"])
    assert "No such option '--signals'" in capsys.readouterr().err


def test_passage_stages_share_their_methods_index() -> None:
    plain = config(method="baseline")
    passages = plain.with_(options={"within_doc.on": True, "trim.on": True, **DOCUMENT_AWARE})
    assert index_key(passages) == index_key(plain)
    assert "option_within_doc_on" in passages.columns() and "option_within_doc_on" not in plain.columns()


def test_the_recommended_presets_are_the_cells_the_headline_sweeps_measure_and_the_docs_show() -> None:
    """Issue 44: routing by what documents say about themselves is part of the recommended method; each
    recommended preset is a cell of the sweeps the README's tables come from, and the row the docs show."""
    presets = catalogue(RunConfig())
    sweeps = Path(__file__).parents[2] / "sweeps"
    for key in ("recommended", "recommended-text", "recommended-adapter"):
        assert dict(presets[key].config.options)["doc_profile.weight"] == 1.0
    for sweep, keys in (
        ("wording-paper.toml", ("recommended", "recommended-text")),
        ("full-benchmark.toml", ("recommended", "recommended-text", "recommended-adapter")),
        ("adapter-paper.toml", ("recommended", "recommended-adapter")),
    ):
        measured = {c.variant for c in load_sweep(sweeps / sweep).cells}
        assert {presets[key].config.variant for key in keys} <= measured, sweep
    assert presets["recommended"].config.variant == RECOMMENDED_NAMES
    assert presets["recommended-text"].config.variant == RECOMMENDED
    assert presets["recommended-adapter"].config.variant == ADAPTED
