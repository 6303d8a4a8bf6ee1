"""Background builds in worker processes: shared by key, cancellable, and resumable after a crash."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import diskcache
import pytest

from sac_core.dashboard.builds import BuildJob, BuildManager, BuildStatus, fmt_duration, read_status
from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedder
from sac_core.experiments import RunConfig
from sac_core.experiments.index_store import check_index
from sac_core.experiments.sweep import cell_id

# torch: no ONNX export in a fresh cache; chunk 200: about 900 texts, several seconds of embedding
CONFIG = RunConfig(protocol="full", datasets=("gen",), chunk_size=200, backend="torch", ks=(1, 4))


def _wait(manager: BuildManager, key: str, until, timeout: float = 300) -> BuildStatus:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = manager.status(key)
        if status is not None and until(status):
            return status
        time.sleep(0.1)
    raise AssertionError(f"timed out; last status {manager.status(key)}")


def _embedded(cache: Path) -> int:
    with diskcache.Cache(str(cache / "embeddings")) as c:
        return len(c)


@pytest.fixture
def manager(tmp_path: Path) -> BuildManager:
    return BuildManager(tmp_path / "cache", poll=0.05)


def test_two_requests_share_one_build_that_reports_progress_and_ends_with_a_fresh_index(
    manager: BuildManager, slow_data: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    job = BuildJob("index", slow_data, cache, CONFIG, "Baseline")
    first = manager.request(job)
    second = manager.request(job)  # another session asks for the same index
    assert first.key == second.key
    running = _wait(manager, job.key, lambda s: s.state == "running" and s.done > 0)
    assert running.total > running.done > 0 and running.rate > 0 and running.eta_s is not None
    assert "texts/s" in running.describe() and "left" in running.describe()
    pid = running.pid
    assert manager.request(job).pid == pid  # a third request (a reload) joins the same worker
    done = _wait(manager, job.key, lambda s: not s.active)
    assert done.state == "done" and done.pid == pid
    bench = load_benchmark(slow_data, CONFIG.datasets, CONFIG.protocol)
    assert check_index(bench, CONFIG, cache, None).fresh
    assert len(list((cache / "builds").glob("*.json"))) == 1  # one build, one status file
    queries = Embedder(CONFIG.model, cache, backend=CONFIG.backend)
    queries.encode([q.text for q in bench.queries], progress=False)
    assert queries.encoded == 0  # the build embedded the benchmark's queries too: Compare needs no model for them


def test_cancel_stops_the_worker_and_keeps_what_it_embedded(manager: BuildManager, slow_data: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    job = BuildJob("index", slow_data, cache, CONFIG, "Baseline")
    manager.request(job)
    running = _wait(manager, job.key, lambda s: s.state == "running" and s.done >= 64)
    manager.cancel(job.key)
    status = manager.status(job.key)
    assert status is not None and status.state == "cancelled"
    with pytest.raises(ProcessLookupError):
        os.kill(running.pid, 0)  # the worker is gone
    assert _embedded(cache) >= 64  # the batches written before the cancel stay
    bench = load_benchmark(slow_data, CONFIG.datasets, CONFIG.protocol)
    assert check_index(bench, CONFIG, cache, None).state == "missing"


def test_a_killed_worker_is_reported_and_a_new_request_resumes_from_the_cache(
    manager: BuildManager, slow_data: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    job = BuildJob("index", slow_data, cache, CONFIG, "Baseline")
    manager.request(job)
    running = _wait(manager, job.key, lambda s: s.state == "running" and s.done >= 64)
    os.kill(running.pid, signal.SIGKILL)  # a crash
    failed = _wait(manager, job.key, lambda s: not s.active)
    assert failed.state == "failed" and "worker stopped" in failed.error
    kept = _embedded(cache)
    assert kept >= 64
    manager.request(job)
    resumed = _wait(manager, job.key, lambda s: s.state == "running" and s.total > 0)
    assert resumed.total == running.total - kept  # only what was not embedded yet
    assert _wait(manager, job.key, lambda s: not s.active).state == "done"


def test_a_cell_build_evaluates_every_query_into_the_sweep_cache(manager: BuildManager, slow_data, tmp_path):
    cache = tmp_path / "cache"
    job = BuildJob("cell", slow_data, cache, CONFIG.with_(semantic_weight=0.5), "Baseline, weight 0.5")
    manager.request(job)
    assert _wait(manager, job.key, lambda s: not s.active).state == "done"
    bench = load_benchmark(slow_data, CONFIG.datasets, CONFIG.protocol)
    with diskcache.Cache(str(cache / "sweep_cells")) as cells:
        hit = cells[cell_id(job.config, bench)]
    assert len(hit["per_query"]) == len(bench.queries) * 2


def test_a_failing_build_says_why(manager: BuildManager, tmp_path: Path) -> None:
    job = BuildJob("index", tmp_path / "no-data", tmp_path / "cache", CONFIG, "Baseline")
    manager.request(job)
    status = _wait(manager, job.key, lambda s: not s.active)
    assert status.state == "failed" and "unknown dataset 'gen'" in status.error
    assert read_status(tmp_path / "cache" / "builds" / f"{job.key}.json") == status


def test_durations_read_well():
    assert [fmt_duration(s) for s in (0.2, 45, 89, 200, 3900)] == ["1 s", "45 s", "89 s", "3 min", "1 h 05 min"]
