"""sac noname: a copy of a benchmark whose queries do not name their document, and the document
gate checked on it (demo benchmark, real model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sac_core.engine.data import BenchmarkError, load_benchmark, project_root
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, evaluate
from sac_core.experiments.methods import DOCUMENT_AWARE
from sac_core.experiments.noname import strip_opening, write_noname
from sac_core.experiments.sweep import cell_id

DEMO = ("demo_nda", "demo_privacy")


def test_strip_opening() -> None:
    assert strip_opening("Consider the NDA between A and B; What is the term?") == "What is the term?"
    assert strip_opening("What is the term?") == "What is the term?"


def test_noname_copy_keeps_ids_and_gold_and_links_the_data(demo_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "noname"
    counts = write_noname(demo_dir, out)
    assert counts == {"demo_nda": (48, 48), "demo_privacy": (18, 18)}
    assert (out / "corpus").is_symlink() and (out / "summaries").is_symlink()
    assert not any(p.suffix == ".txt" for p in out.rglob("*") if not p.is_symlink() and p.parent.name != "corpus")
    raw = json.loads((out / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))
    assert raw["transform"] == "no-name"
    normal, noname = load_benchmark(demo_dir, DEMO, "full"), load_benchmark(out, DEMO, "full")
    assert [q.query_id for q in noname.queries] == [q.query_id for q in normal.queries]
    assert [q.gold for q in noname.queries] == [q.gold for q in normal.queries]
    assert all(not q.text.startswith("Consider") for q in noname.queries)
    assert noname.transform == "no-name" and normal.transform == ""
    assert noname.digest != normal.digest  # a no-name cell never reuses the original's
    config = RunConfig(protocol="full", datasets=DEMO)
    assert cell_id(config, OpenContext.new(noname, out, tmp_path)) != cell_id(
        config, OpenContext.new(normal, demo_dir, tmp_path)
    )


def test_noname_refuses_the_project_and_a_busy_folder(demo_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(BenchmarkError, match="inside the project"):
        write_noname(demo_dir, project_root() / "noname-copy")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x", encoding="utf-8")
    with pytest.raises(BenchmarkError, match="not empty"):
        write_noname(demo_dir, busy)


def test_gated_prior_is_never_worse_than_the_baseline_on_queries_that_name_no_document(
    demo_dir: Path, embed_cache: Path, tmp_path: Path
) -> None:
    """The acceptance check of the document gate, on the demo benchmark: without the opening the
    gated method ranks plainly (the baseline's metrics, query by query), the ungated one routes every
    chunk into one guessed document; with the opening the gate changes nothing."""
    out = tmp_path / "noname-demo"
    write_noname(demo_dir, out)
    base = RunConfig(protocol="full", datasets=DEMO, ks=(1, 4), summary=SummaryConfig(provider="file"))
    gated = base.with_(options={**DOCUMENT_AWARE, "gate.mode": "split"})
    ungated = base.with_(options={**DOCUMENT_AWARE, "gate.mode": "always"})

    def per_query(config: RunConfig, data: Path) -> dict:
        bench = load_benchmark(data, DEMO, "full")
        pq = evaluate(config, OpenContext.new(bench, data, embed_cache)).per_query
        return pq.set_index(["query_id", "k"])[["precision", "recall"]].round(9).to_dict()

    plain = per_query(base, out)
    assert per_query(gated, out) == plain
    free = per_query(ungated, out)
    assert sum(free["recall"].values()) < sum(plain["recall"].values())  # the defect the gate fixes
    assert per_query(gated, demo_dir) == per_query(ungated, demo_dir)


def test_on_legalbench_rag_every_query_names_its_document_and_no_no_name_query_does(
    real_data: Path, tmp_path: Path
) -> None:
    """Why the gated method's figures equal today's on the published protocols (the gate is open on
    every query) and the baseline's, query by query, on their no-name copies (closed on every one)."""
    from sac_core.engine.retrieval import split_query

    noname = tmp_path / "noname"
    write_noname(real_data, noname)
    for protocol in ("lbr-mini", "paper"):
        normal = load_benchmark(real_data, "all", protocol)
        stripped = load_benchmark(noname, "all", protocol)
        assert all(split_query(q.text).split for q in normal.queries)
        assert not any(split_query(q.text).split for q in stripped.queries)
        assert [q.query_id for q in stripped.queries] == [q.query_id for q in normal.queries]
