"""``sac bench`` helpers that run on the demo corpus (the figures themselves are real-data runs)."""

from __future__ import annotations

from pathlib import Path

from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig
from sac_core.experiments.bench import loaded_memory, memory_configs
from sac_core.experiments.methods import BASELINE

DEMO = ("demo_nda", "demo_privacy")
BASE = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file", chars=150))


def test_memory_configs_are_the_compare_columns_or_the_baseline_three_times():
    compare = memory_configs(BASE, "compare")
    assert [(c.method, c.summary.prompt) for c in compare[1:]] == [("sac", "generic"), ("sac", "expert")]
    assert compare[0].method == "baseline"
    assert [c.method for c in memory_configs(BASE, "baseline-x3")] == ["baseline"] * 3


def test_loaded_memory_opens_three_saved_copies_in_a_fresh_process(demo_dir: Path, tmp_path: Path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    config = BASE.with_(method="baseline")
    pool = BASELINE.open(config, OpenContext.new(bench, demo_dir, tmp_path, save=True)).ranker.pool
    m = loaded_memory(demo_dir, tmp_path, "full", DEMO, "baseline-x3")
    assert m["chunks"] == 3 * len(pool)
    assert m["peak_rss_mb"] > 100 and m["load_s"] >= 0
