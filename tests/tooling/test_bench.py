"""``sac bench`` helpers that run on the demo corpus (the figures themselves are real-data runs)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sac_core.cli import main
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import OpenContext, RunConfig, load_sweep, run_sweep
from sac_core.experiments.methods import BASELINE
from sac_core.tooling.bench import loaded_memory, memory_configs, warm_sweep_seconds
from sac_core.tooling.bench_parts import BenchOptions, bench_parts

DEMO = ("demo_nda", "demo_privacy")
BASE = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file", chars=150))


def test_memory_configs_are_the_compare_columns_or_the_baseline_three_times():
    compare = memory_configs(BASE, "compare")
    assert [c.method for c in compare] == ["baseline", "sac", "baseline"] and compare[1].summary.prompt == "generic"
    assert not compare[0].options and compare[2].options  # the baseline, then Recommended: its stages' options
    assert [c.method for c in memory_configs(BASE, "baseline-x3")] == ["baseline"] * 3


@pytest.mark.slow  # a python process of its own
def test_loaded_memory_opens_three_saved_copies_in_a_fresh_process(demo_dir: Path, tmp_path: Path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    config = BASE.with_(method="baseline")
    pool = BASELINE.open(config, OpenContext.new(bench, demo_dir, tmp_path, save=True)).ranker.pool
    m = loaded_memory(demo_dir, tmp_path, "full", DEMO, "baseline-x3")
    assert m["chunks"] == 3 * len(pool)
    assert m["peak_rss_mb"] > 100 and m["load_s"] >= 0


# Its own ks, so its cells are not the ones tests/experiments/test_sweep.py expects uncached.
SWEEP = """
name = "tiny"
[base]
protocol = "full"
datasets = ["demo_nda", "demo_privacy"]
ks = [1, 2]
"summary.provider" = "file"
[[grid]]
method = ["baseline", "sac"]
"summary.prompt" = ["generic", "expert"]
semantic_weight = [1.0, 0.5]
"""


def test_bench_times_a_warm_rerun_of_the_cached_cells_only(demo_dir, embed_cache, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    cached, total, seconds = warm_sweep_seconds(path, demo_dir, tmp_path / "empty-cache")
    assert (cached, total) == (0, 6) and math.isnan(seconds)
    run_sweep(sweep.__class__(sweep.name, sweep.cells[:1]), demo_dir, embed_cache, tmp_path / "a", progress=False)
    cached, total, seconds = warm_sweep_seconds(path, demo_dir, embed_cache)
    assert cached >= 1 and total == 6 and seconds > 0


def test_the_room_part_is_named_not_run_by_all_and_takes_its_rounds_from_sessions(monkeypatch, tmp_path):
    asked: list[BenchOptions] = []
    monkeypatch.setattr("sac_core.cli.tools.run_bench", lambda opts: asked.append(opts) or 0)
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    assert main(["bench", "--parts", "room", "--sessions", "2,5,9", "--cache-dir", str(tmp_path)]) == 0
    assert main(["bench", "--parts", "room", "--cache-dir", str(tmp_path)]) == 0
    (named, default) = asked
    assert named.parts == ("room",) and named.sessions == (2, 5, 9) and named.data_dir is None
    assert default.sessions == (1, 6, 12)
    assert "room" not in bench_parts("all") and "room-log" not in bench_parts("all")


def test_the_first_paint_part_opens_compare_on_fresh_servers_cold_and_warmed(monkeypatch, tmp_path, capsys):
    """Issue 45, point 13: `sac bench --parts first-paint` reports each fresh server's first paint of
    Compare (its default columns, opening on the demo pick: no query in the URL), cold and warmed."""
    opened: list[tuple[str, bool]] = []

    def first_chunks_clocks(env, path, *, warmed):
        opened.append((path, warmed))
        return 1.25, 0.95  # the harness's clock, the browser's own

    monkeypatch.setattr("sac_core.tooling.room.first_chunks_clocks", first_chunks_clocks)
    monkeypatch.setattr("sac_core.tooling.bench_parts.ensure_demo_corpus", lambda cache: tmp_path)
    monkeypatch.setattr("sac_core.tooling.bench_parts.available_datasets", lambda root: DEMO)
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    assert "first-paint" in bench_parts("all")
    assert main(["bench", "--parts", "first-paint", "--cache-dir", str(tmp_path)]) == 0
    path = "/?cols=baseline,sac-generic,recommended"
    assert opened == [(path, False)] * 3 + [(path, True)] * 3
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("(r)")]
    assert len(lines) == 2 and all("1.25, 1.25, 1.25 s (the browser's own clock" in line for line in lines)
    assert all("to the chunk in the page: 0.95, 0.95, 0.95 s; target ≤ 2 s" in line for line in lines)
    assert "cold" in lines[0] and "warmed" in lines[1]
