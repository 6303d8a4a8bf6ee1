"""The query adapter as an option of the within-document stage, end to end on the generated demo
benchmark with the real packaged model: trained once, stored, named in the variant, in the identity."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine import store
from sac_core.engine.data import load_benchmark
from sac_core.engine.retrieval.within_document import WithinDocumentSettings
from sac_core.experiments import NotBuilt, OpenContext, RunConfig, evaluate
from sac_core.experiments.identity import cell_inputs
from sac_core.experiments.methods.within_document import bank_chunks, open_adapter, open_bank

DEMO = ("demo_nda", "demo_privacy")
AWARE = {"split.on": True, "prior.weight": 8.0, "doc_bm25.weight": 0.125, "gate.mode": "split"}
BANK = {"within_doc.exemplar_protocol": "full", "within_doc.adapter_epochs": 2}


@pytest.fixture(scope="module")
def bench(demo_dir):
    return load_benchmark(demo_dir, "all", "full")


def config(**options: object) -> RunConfig:
    return RunConfig(protocol="full", datasets=DEMO, ks=(1, 4), options={"within_doc.on": True, **AWARE, **options})


@pytest.mark.slow  # trains the maps with torch
def test_the_adapter_is_named_in_the_variant_changes_the_ranking_and_needs_no_exemplar_weight(
    bench, demo_dir, embed_cache
) -> None:
    plain = evaluate(config(**BANK), OpenContext.new(bench, demo_dir, embed_cache))
    adapted = evaluate(config(**BANK, **{"within_doc.adapter": 3.0}), OpenContext.new(bench, demo_dir, embed_cache))
    assert "+within(bm25×0.25,adapter×3:full/e2)" in adapted.config.variant
    assert "adapter" not in plain.config.variant
    assert adapted.run != plain.run  # the demo's questions repeat over its NDAs: the map learns them
    rows = adapted.results.set_index(["dataset", "k"])
    assert rows.loc[("ALL", 1), "option_within_doc_adapter"] == 3.0


@pytest.mark.slow  # embeds the bank with the real model and trains the maps
def test_the_maps_are_trained_once_and_read_back_from_the_store(bench, demo_dir, tmp_path) -> None:
    cfg = config(**BANK, **{"within_doc.adapter": 3.0})
    o = cfg.plugin_options("within_doc", WithinDocumentSettings)
    bank = open_bank(cfg, OpenContext.new(bench, demo_dir, tmp_path), o)
    with pytest.raises(NotBuilt, match="query adapter"):  # a page that may not build is told so
        open_adapter(cfg, OpenContext.new(bench, demo_dir, tmp_path, build=False), o, bank)
    trained = open_adapter(cfg, OpenContext.new(bench, demo_dir, tmp_path), o, bank)
    with store.entries(tmp_path, "adapters") as cache:
        assert len(cache) == 1
    again = open_adapter(cfg, OpenContext.new(bench, demo_dir, tmp_path, build=False), o, bank)
    assert np.array_equal(again.maps, trained.maps)
    assert trained.maps.shape == (5, bank.vectors.shape[1], bank.vectors.shape[1])


@pytest.mark.slow  # embeds the bank's chunks with the real model and trains the maps
def test_target_chunks_is_named_trains_on_the_bank_documents_chunks_and_is_stored_apart(
    bench, demo_dir, tmp_path
) -> None:
    cfg = config(**BANK, **{"within_doc.adapter": 3.0, "within_doc.adapter_target": "chunks"})
    assert cfg.variant.endswith("adapter×3:full/e2/chunks)")
    o = cfg.plugin_options("within_doc", WithinDocumentSettings)
    bank = open_bank(cfg, OpenContext.new(bench, demo_dir, tmp_path), o)
    with pytest.raises(NotBuilt, match="the bank documents' chunks"):  # not embedded yet, and may not build
        bank_chunks(cfg, OpenContext.new(bench, demo_dir, tmp_path, build=False), o)
    chunks = bank_chunks(cfg, OpenContext.new(bench, demo_dir, tmp_path), o)
    assert {c.file_path for c in chunks.chunks} == set(bench.documents)  # the demo folder is its own bank
    assert chunks.vectors.shape == (len(chunks.chunks), bank.vectors.shape[1])
    on_chunks = open_adapter(cfg, OpenContext.new(bench, demo_dir, tmp_path), o, bank)
    pieces = config(**BANK, **{"within_doc.adapter": 3.0})
    o_pieces = pieces.plugin_options("within_doc", WithinDocumentSettings)
    on_pieces = open_adapter(pieces, OpenContext.new(bench, demo_dir, tmp_path), o_pieces, bank)
    assert not np.array_equal(on_chunks.maps, on_pieces.maps)
    with store.entries(tmp_path, "adapters") as cache:
        assert len(cache) == 2  # one map set per target


def test_the_cells_identity_holds_the_bank_and_the_torch_version(bench, demo_dir, embed_cache) -> None:
    ctx = OpenContext.new(bench, demo_dir, embed_cache)
    plugins = cell_inputs(config(**BANK, **{"within_doc.adapter": 3.0}), ctx).payload["plugins"]
    within = plugins["within_doc"]  # type: ignore[index]
    assert within["bank"] == bench.digest  # the demo folder is its own bank
    assert within["torch"] == store.library_version("torch")
    assert "torch" not in cell_inputs(config(**BANK), ctx).payload["plugins"]["within_doc"]  # type: ignore[index]
