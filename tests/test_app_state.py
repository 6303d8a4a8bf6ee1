"""sac_core.app_state: data source with the embedded demo, URL selection, shared resources."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from sac_core import app_state as state
from sac_core.benchmark import load_benchmark
from sac_core.config import RunConfig
from sac_core.summaries import SummaryConfig

DEMO = ("demo_nda", "demo_privacy")


# --------------------------------------------------------------------------- URL selection


def test_parse_selection_defaults_and_values():
    assert state.parse_selection({}) == state.Selection(None, None, "", state.K_DEFAULT)
    sel = state.parse_selection({"dataset": "cuad", "q": "cuad/12", "text": "who pays?", "k": "16"})
    assert sel == state.Selection("cuad", "cuad/12", "who pays?", 16)


@pytest.mark.parametrize(("raw", "k"), [("0", 1), ("-3", 1), ("65", 64), ("1000", 64), ("abc", 4), ("", 4),
                                        ("8", 8)])
def test_parse_selection_clamps_or_ignores_bad_k(raw, k):
    assert state.parse_selection({"k": raw}).k == k


def test_parse_selection_takes_first_of_repeated_values_and_truncates_text():
    sel = state.parse_selection({"q": ["maud/1", "maud/2"], "text": "x" * 900, "dataset": "  "})
    assert sel.query_id == "maud/1"
    assert sel.text == "x" * state.MAX_TEXT
    assert sel.dataset is None


def test_selection_params_round_trip_and_leave_out_empty_values():
    sel = state.Selection("cuad", "cuad/3", "", 8)
    params = state.selection_params(sel)
    assert params == {"dataset": "cuad", "q": "cuad/3", "k": "8"}
    assert state.parse_selection(params) == sel
    free = state.Selection(None, None, "free words", 2)
    assert state.parse_selection(state.selection_params(free)) == free
    assert set(state.selection_params(free)) <= {"dataset", "q", "text", "k"}  # never a path or a key


QUERIES = {"cuad": ["cuad/0", "cuad/1"], "maud": ["maud/0", "maud/7"]}


def test_reconcile_a_known_query_sets_its_dataset():
    sel = state.reconcile(state.Selection("cuad", "maud/7", "", 4), QUERIES)
    assert (sel.dataset, sel.query_id) == ("maud", "maud/7")


def test_reconcile_unknown_query_takes_the_datasets_first_query():
    sel = state.reconcile(state.Selection("maud", "maud/999", "", 4), QUERIES)
    assert (sel.dataset, sel.query_id) == ("maud", "maud/0")


def test_reconcile_unknown_everything_takes_the_first_dataset_and_keeps_k_and_text():
    sel = state.reconcile(state.Selection("nope", None, "hello", 9), QUERIES)
    assert sel == state.Selection("cuad", "cuad/0", "hello", 9)
    assert state.reconcile(sel, {}).query_id is None


# --------------------------------------------------------------------------- data source


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
    assert "not a LegalBench-RAG directory" in src.problem


def test_providers_without_a_summary_file(tmp_path):
    (tmp_path / "benchmarks").mkdir()
    src = state.DataSource(tmp_path, False, ("x",))
    assert src.providers == ("extractive", "openai")


# --------------------------------------------------------------------------- configuration


def test_settings_base_config_carries_the_sidebar_choices(tmp_path):
    src = state.DataSource(tmp_path, True, DEMO)
    cfg = state.Settings(src, tmp_path, "full", DEMO, "file", 300).base_config(chunk_size=200)
    assert (cfg.protocol, cfg.datasets, cfg.chunk_size) == ("full", DEMO, 200)
    assert (cfg.summary.provider, cfg.summary.chars) == ("file", 300)


def test_compare_columns_one_sac_column_for_the_extractive_provider():
    base = RunConfig(summary=SummaryConfig(provider="extractive"))
    cols = state.compare_columns(base)
    assert [c.name for c in cols] == ["Baseline", "SAC extractive"]
    assert [c.config.method for c in cols] == ["baseline", "sac"]
    llm = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert [c.name for c in llm] == ["Baseline", "SAC generic", "SAC expert"]
    assert [c.config.summary.prompt for c in llm[1:]] == ["generic", "expert"]


def test_summary_lengths_and_prompts():
    assert state.summary_lengths("file") == (150, 300)
    assert state.summary_lengths("extractive") is None
    assert state.summary_prompts("extractive") == ("generic",)
    assert state.summary_prompts("openai") == ("generic", "expert")


def test_resource_key_resolves_paths_and_uses_config_repr(tmp_path):
    cfg = RunConfig()
    key = state.resource_key("ws", tmp_path / "a" / ".." / "b", cfg)
    assert key == (repr("ws"), str((tmp_path / "b").resolve()), repr(cfg))
    assert key != state.resource_key("ws", tmp_path / "b", cfg.with_(chunk_size=200))


# --------------------------------------------------------------------------- documents


def test_queries_citing_lists_every_gold_span_of_a_document_in_order(demo_dir):
    bench = load_benchmark(demo_dir, DEMO, "full")
    pairs = state.queries_citing(bench, "demo_nda/01_Acme.txt")
    assert len(pairs) == 4  # four clauses are asked about per NDA
    assert [s.start for _, s in pairs] == sorted(s.start for _, s in pairs)
    assert all(s.file_path == "demo_nda/01_Acme.txt" and s in q.gold for q, s in pairs)


def test_gold_by_document_covers_every_document_once(demo_dir):
    bench = load_benchmark(demo_dir, DEMO, "full")
    by_doc = state.gold_by_document(bench)
    assert set(by_doc) == set(bench.documents)
    assert sum(len(v) for v in by_doc.values()) == sum(len(q.gold) for q in bench.queries)
    assert by_doc["demo_nda/01_Acme.txt"] == state.queries_citing(bench, "demo_nda/01_Acme.txt")
    assert state.queries_citing(bench, "nope.txt") == []


def test_document_summaries_for_reads_the_summary_file(demo_dir, tmp_path):
    rows = [json.loads(line) for line in (demo_dir / "summaries" / "llm.jsonl").read_text().splitlines()]
    want = {r["prompt"]: r["summary"] for r in rows if r["file_path"] == "demo_nda/01_Acme.txt" and r["chars"] == 300}
    text = (demo_dir / "corpus" / "demo_nda" / "01_Acme.txt").read_text()
    got = state.document_summaries_for("demo_nda/01_Acme.txt", text, "file", 300, demo_dir, tmp_path)
    assert got == want


def test_pending_cost_is_zero_without_the_openai_provider(demo_dir, tmp_path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert state.pending_cost(bench, cols, demo_dir, tmp_path).documents == 0


# --------------------------------------------------------------------------- registry


def test_registry_builds_once_and_evicts_the_least_recently_used():
    reg: state.Registry[str] = state.Registry(size=2)
    calls: list[str] = []

    def build(name: str):
        return lambda: calls.append(name) or name.upper()

    assert reg.get("a", build("a")) == "A"
    assert reg.get("a", build("a")) == "A"
    reg.get("b", build("b"))
    reg.get("a", build("a"))  # a is now the most recent
    reg.get("c", build("c"))  # evicts b
    assert calls == ["a", "b", "c"]
    assert "a" in reg and "c" in reg and "b" not in reg and len(reg) == 2


def test_registry_stores_nothing_when_the_build_fails():
    reg: state.Registry[int] = state.Registry()
    with pytest.raises(ValueError):
        reg.get("x", lambda: (_ for _ in ()).throw(ValueError("boom")))
    assert "x" not in reg
    assert reg.get("x", lambda: 7) == 7


def test_registry_concurrent_callers_share_one_build():
    reg: state.Registry[object] = state.Registry()
    builds = []

    def slow():
        builds.append(1)
        time.sleep(0.2)
        return object()

    got = []
    threads = [threading.Thread(target=lambda: got.append(reg.get("k", slow))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1
    assert all(g is got[0] for g in got)


def test_default_dirs_follow_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SAC_DATA_DIR", "/data/lbr")
    assert state.default_cache_dir() == Path(tmp_path)
    assert state.default_data_field() == "/data/lbr"
    monkeypatch.delenv("SAC_CACHE_DIR")
    monkeypatch.delenv("SAC_DATA_DIR")
    assert state.default_cache_dir() == Path("cache")
    assert state.default_data_field() == ""
