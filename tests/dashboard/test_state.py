"""sac_core.dashboard.state: the data source with the embedded demo, and the sidebar's settings."""

from __future__ import annotations

import time
from pathlib import Path

from sac_core.dashboard import state

DEMO = ("demo_nda", "demo_privacy")


def test_ensure_demo_corpus_writes_once(tmp_path):
    dest = state.ensure_demo_corpus(tmp_path)
    assert dest == tmp_path / "demo"
    bench_file = dest / "benchmarks" / "demo_nda.json"
    first = bench_file.stat().st_mtime_ns
    time.sleep(0.01)
    assert state.ensure_demo_corpus(tmp_path) == dest
    assert bench_file.stat().st_mtime_ns == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".demo-")]  # no scratch folders left


def test_ensure_demo_corpus_replaces_an_incomplete_copy(tmp_path):
    (tmp_path / "demo" / "benchmarks").mkdir(parents=True)  # no marker: a crashed earlier write
    dest = state.ensure_demo_corpus(tmp_path)
    assert (dest / "benchmarks" / "demo_privacy.json").is_file()
    assert (dest / "summaries" / "llm.jsonl").is_file()


def test_no_data_directory_means_the_demo_with_protocol_full(tmp_path):
    src = state.resolve_data_source("", tmp_path)
    assert src.demo and src.problem is None
    assert src.data_dir == tmp_path / "demo"
    assert src.datasets == DEMO
    assert src.default_protocol == "full"
    assert src.providers[0] == "file"  # the demo ships summaries/llm.jsonl


def test_a_valid_data_directory_is_used(demo_dir, tmp_path):
    src = state.resolve_data_source(str(demo_dir), tmp_path)
    assert not src.demo and src.data_dir == demo_dir and src.datasets == DEMO
    assert src.default_protocol == "lbr-mini"


def test_an_unusable_data_directory_falls_back_to_the_demo_and_says_why(tmp_path):
    src = state.resolve_data_source(str(tmp_path / "missing"), tmp_path)
    assert src.demo
    assert src.problem == f"{tmp_path / 'missing'}: no such folder"
    (tmp_path / "empty").mkdir()
    assert "not a LegalBench-RAG directory" in state.resolve_data_source(str(tmp_path / "empty"), tmp_path).problem


def test_a_folder_outside_the_data_roots_falls_back_to_the_demo(demo_dir, tmp_path):
    inside = state.resolve_data_source(str(demo_dir), tmp_path, roots=(demo_dir.parent,))
    assert not inside.demo
    outside = state.resolve_data_source(str(demo_dir), tmp_path, roots=(tmp_path / "allowed",))
    assert outside.demo and "outside the folders this server may read" in outside.problem


def test_providers_without_a_summary_file(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    src = state.DataSource(tmp_path, demo=False, datasets=("x",))
    assert src.providers == ("extractive", "openai")


def test_settings_base_config_carries_the_sidebar_choices(tmp_path):
    src = state.DataSource(tmp_path, demo=True, datasets=DEMO)
    cfg = state.Settings(src, tmp_path, "full", DEMO, "file", 300).base_config(chunk_size=200)
    assert (cfg.protocol, cfg.datasets, cfg.chunk_size) == ("full", DEMO, 200)
    assert (cfg.summary.provider, cfg.summary.chars) == ("file", 300)


def test_default_dirs_follow_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SAC_DATA_DIR", "/data/lbr")
    assert state.default_cache_dir() == Path(tmp_path)
    assert state.default_data_field() == "/data/lbr"
    monkeypatch.delenv("SAC_CACHE_DIR")
    monkeypatch.delenv("SAC_DATA_DIR")
    assert state.default_cache_dir() == Path("cache")
    assert state.default_data_field() == ""


def test_summary_lengths():
    assert state.summary_lengths("file") == (150, 300)
    assert state.summary_lengths("extractive") is None


def test_a_data_source_stamps_its_folder_once(tmp_path, monkeypatch) -> None:
    """A script run asks for the stamp several times; each is a stat of every file of the folder."""
    from sac_core.dashboard import state as module

    calls = []
    monkeypatch.setattr(module, "folder_stamp", lambda folder: calls.append(folder) or ((str(folder), 1, 2, 3),))
    source = module.DataSource(tmp_path, False, ("cuad",))
    assert source.stamp() == source.stamp() and len(calls) == 1
    assert module.DataSource(tmp_path, False, ("cuad",)).stamp() == source.stamp() and len(calls) == 2  # a new run
