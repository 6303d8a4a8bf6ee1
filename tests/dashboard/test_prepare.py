"""sac_core.dashboard.prepare: the total time of building every column a page waits for, and the one
command that prepares them (issue 45, point 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.dashboard import builds, compare, prepare, rates
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig


def test_the_total_counts_every_index_once_and_a_running_builds_own_rate(demo_bench, tmp_path):
    base = RunConfig(protocol="lbr-mini", datasets=tuple(demo_bench.datasets), summary=SummaryConfig(provider="file"))
    jobs = [compare.index_job(c, Path("/data/lbr"), Path("/cache")) for c in compare.compare_columns(base)]
    per_index = sum(len(d.text) for d in demo_bench.documents.values()) // base.chunk_size
    plan = prepare.plan(demo_bench, jobs, {}, cache_dir=tmp_path)
    assert plan.indexes == 2 and plan.texts == 2 * per_index  # Recommended works on the baseline's index
    assert plan.seconds == pytest.approx(2 * per_index / rates.DEFAULT_EMBED_RATE)  # nothing measured yet
    assert plan.describe().startswith(f"3 columns wait for 2 indexes: about {2 * per_index:,} texts to embed")
    running = builds.BuildStatus(jobs[1].key, "SAC generic", "running", "embedding", 400, 1000, rate=40.0)
    done = builds.BuildStatus(jobs[0].key, "Baseline", "done")
    later = prepare.plan(demo_bench, jobs, {jobs[0].key: done, jobs[1].key: running}, cache_dir=tmp_path)
    assert later.texts == 600 and later.seconds == pytest.approx(600 / 40)  # the baseline's index is built
    assert later.indexes == 1


def test_the_command_names_the_folder_protocol_and_datasets_all_when_every_one_is_chosen():
    offered = ("contractnli", "cuad")
    assert prepare.command_line(Path("/data/lbr"), "lbr-mini", offered, offered) == (
        "sac index --data /data/lbr --protocol lbr-mini --datasets all"
    )
    assert prepare.command_line(Path("/d x"), "full", ("cuad",), offered) == (
        "sac index --data '/d x' --protocol full --datasets cuad"
    )


def test_the_rate_is_the_running_builds_else_the_last_measured_here_else_the_default(tmp_path):
    """Issue 45: the total said "about 7 min in all" (80 texts/s assumed) beside a build's own "about
    21 min left" (22 texts/s measured): every estimate now takes the rate this machine measured."""
    assert rates.embed_rate(tmp_path) == rates.DEFAULT_EMBED_RATE
    status = tmp_path / "builds" / "job.json"
    report = builds._Reporter(
        status, builds.BuildJob("index", tmp_path, tmp_path, RunConfig(protocol="full"), "Baseline"), every=0
    )
    report.step("embedding", "texts", 100, 1000)  # the stage's clock starts: no rate yet
    assert rates.embed_rate(tmp_path) == rates.DEFAULT_EMBED_RATE
    report._t0 -= 20.0  # 20 s into the stage: 220 texts, 11 texts/s
    report.step("embedding", "texts", 220, 1000)
    assert rates.embed_rate(tmp_path) == pytest.approx(11.0, rel=0.01)  # measured, for later estimates
    assert [f.name for f in status.parent.glob("*.json")] == ["job.json"]  # <key>.json: status files only
    running = [
        builds.BuildStatus("a", "A", "running", "embedding", 10, 100, rate=9.0),
        builds.BuildStatus("b", "B", "running", "embedding", 10, 100, rate=8.0),
        builds.BuildStatus("c", "C", "running", "chunking", 3, 9, rate=2.0, unit="documents"),
    ]
    assert [s.embedding for s in running] == [9.0, 8.0, 0.0]  # chunking documents is not embedding
    assert rates.embed_rate(tmp_path, [9.0, 8.0]) == 17.0  # parallel builds share the cores: their sum
