"""Clause exemplars as an option of the within-document stage, end to end on the generated demo
benchmark with the real packaged model: the bank is read, embedded once, and named in the variant."""

from __future__ import annotations

import pytest

from sac_core.engine.data import load_benchmark
from sac_core.engine.retrieval.within_document import WithinDocumentSettings
from sac_core.experiments import NotBuilt, OpenContext, RunConfig, evaluate
from sac_core.experiments.methods.within_document import open_bank

DEMO = ("demo_nda", "demo_privacy")
AWARE = {"split.on": True, "prior.weight": 8.0, "doc_bm25.weight": 0.125, "gate.mode": "split"}
EXEMPLARS = {"within_doc.exemplar": 4.0, "within_doc.exemplar_similarity": 0.9, "within_doc.exemplar_protocol": "full"}


@pytest.fixture(scope="module")
def bench(demo_dir):
    return load_benchmark(demo_dir, "all", "full")


def config(**options: object) -> RunConfig:
    return RunConfig(protocol="full", datasets=DEMO, ks=(1, 4), options={"within_doc.on": True, **AWARE, **options})


def test_the_exemplar_option_is_named_in_the_variant_and_changes_the_ranking(bench, demo_dir, embed_cache) -> None:
    plain = evaluate(config(), OpenContext.new(bench, demo_dir, embed_cache))
    with_bank = evaluate(config(**EXEMPLARS), OpenContext.new(bench, demo_dir, embed_cache))
    assert "+within(bm25×0.25,ex×4:full≥0.9@32/3)" in with_bank.config.variant
    assert "ex×" not in plain.config.variant
    assert with_bank.run != plain.run  # the demo's questions repeat over its NDAs: the bank has a say
    rows = with_bank.results.set_index(["dataset", "k"])
    assert rows.loc[("ALL", 1), "option_within_doc_exemplar"] == 4.0


@pytest.mark.slow  # embeds the bank with the real model
def test_a_page_that_may_not_embed_is_told_the_bank_is_not_built(bench, demo_dir, tmp_path) -> None:
    cfg = config(**EXEMPLARS)
    options = cfg.plugin_options("within_doc", WithinDocumentSettings)
    with pytest.raises(NotBuilt, match="exemplar passages"):
        open_bank(cfg, OpenContext.new(bench, demo_dir, tmp_path, build=False), options)
    bank = open_bank(cfg, OpenContext.new(bench, demo_dir, tmp_path), options)  # embeds the pieces once
    assert len(bank) >= len(bench.queries)  # every gold span is at least one piece
    again = open_bank(cfg, OpenContext.new(bench, demo_dir, tmp_path, build=False), options)
    assert len(again) == len(bank)


def test_a_bank_without_labelled_queries_is_a_clear_error(bench, demo_dir, tmp_path) -> None:
    empty = tmp_path / "empty"
    (empty / "benchmarks").mkdir(parents=True)
    (empty / "corpus").mkdir()
    cfg = config(**EXEMPLARS, **{"within_doc.exemplar_data": str(empty)})
    with pytest.raises(ValueError, match=r"no labelled full queries|no datasets|benchmarks"):
        open_bank(
            cfg, OpenContext.new(bench, demo_dir, tmp_path), cfg.plugin_options("within_doc", WithinDocumentSettings)
        )
