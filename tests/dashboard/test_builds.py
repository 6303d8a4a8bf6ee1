"""Background builds in worker processes: shared by key, cancellable, and resumable after a crash."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import diskcache
import pytest

from sac_core.dashboard import builds
from sac_core.dashboard.builds import BuildJob, BuildManager, BuildStatus, fmt_duration, read_status, run_job
from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import WEIGHTS_MARK, Embedder
from sac_core.experiments import OpenContext, PluginError, RunConfig
from sac_core.experiments.cells import CellCache
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
    with diskcache.Cache(str(cache / "embeddings")) as c:  # vectors, not the weights mark
        return sum(1 for key in c.iterkeys() if not str(key).startswith(WEIGHTS_MARK))


@pytest.fixture
def manager(fresh_cache: Path) -> BuildManager:
    return BuildManager(fresh_cache, poll=0.05)


def test_two_requests_share_one_build_that_reports_progress_and_ends_with_a_fresh_index(
    manager: BuildManager, slow_data: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    job = BuildJob("index", slow_data, cache, CONFIG, "Baseline")
    first = manager.request(job)
    second = manager.request(job)  # another session asks for the same index
    assert first.key == second.key
    running = _wait(manager, job.key, lambda s: s.stage == "embedding chunks" and s.done > 0)
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


@pytest.mark.slow  # the real model, in this process (the demo NDAs: 156 chunks, five batches: enough steps)
def test_a_first_build_reports_real_fractions_with_time_left(
    demo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Documents chunked, then chunks embedded: each stage's fraction rises to 1 and says the time left."""
    seen: list[BuildStatus] = []
    monkeypatch.setattr(builds, "REPORT_EVERY", 0.0)  # every report written
    monkeypatch.setattr(builds, "write_status", lambda path, status: seen.append(status))
    config = CONFIG.with_(datasets=("demo_nda",))
    run_job(BuildJob("index", demo_dir, tmp_path / "cache", config, "Baseline"), tmp_path / "status.json")
    stages = list(dict.fromkeys(s.stage for s in seen))
    assert stages.index("chunking documents") < stages.index("embedding chunks") and seen[-1].state == "done"
    for stage, unit in (("chunking documents", "documents"), ("embedding chunks", "texts")):
        steps = [s for s in seen if s.stage == stage]
        fractions = [s.fraction for s in steps]
        assert fractions == sorted(fractions) and fractions[-1] == 1 and len(set(fractions)) > 1, (stage, fractions)
        assert all(s.unit == unit for s in steps)
        assert any(" left" in s.describe() and f"{unit}/s" in s.describe() for s in steps if s.done < s.total)


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
    running = _wait(manager, job.key, lambda s: s.state == "running" and s.unit == "texts" and s.done >= 64)
    os.kill(running.pid, signal.SIGKILL)  # a crash
    failed = _wait(manager, job.key, lambda s: not s.active)
    assert failed.state == "failed" and "worker stopped" in failed.error
    kept = _embedded(cache)
    assert kept >= 64
    manager.request(job)
    resumed = _wait(manager, job.key, lambda s: s.state == "running" and s.unit == "texts" and s.total > 0)
    assert running.unit == "texts" and resumed.total == running.total - kept  # only what was not embedded yet
    assert _wait(manager, job.key, lambda s: not s.active).state == "done"


@pytest.mark.slow  # a build worker process (on the small demo: what is shown needs no long embedding)
def test_a_cell_build_evaluates_every_query_into_the_sweep_cache(manager: BuildManager, demo_dir, tmp_path):
    cache = tmp_path / "cache"
    config = CONFIG.with_(datasets=("demo_nda",), chunk_size=500, semantic_weight=0.5)
    job = BuildJob("cell", demo_dir, cache, config, "Baseline, weight 0.5")
    manager.request(job)
    assert _wait(manager, job.key, lambda s: not s.active).state == "done"
    bench = load_benchmark(demo_dir, config.datasets, config.protocol)
    with CellCache(cache) as cells:
        hit = cells.get(cell_id(job.config, OpenContext.new(bench, demo_dir, cache)))
    assert hit is not None and len(hit.per_query) == len(bench.queries) * 2 and len(bench.queries) > 10


@pytest.mark.slow  # a build worker process
def test_a_failing_build_says_why(manager: BuildManager, tmp_path: Path) -> None:
    job = BuildJob("index", tmp_path / "no-data", tmp_path / "cache", CONFIG, "Baseline")
    manager.request(job)
    status = _wait(manager, job.key, lambda s: not s.active)
    assert status.state == "failed" and "unknown dataset 'gen'" in status.error
    assert read_status(tmp_path / "cache" / "builds" / f"{job.key}.json") == status


def test_durations_read_well():
    assert [fmt_duration(s) for s in (0.2, 45, 89, 200, 3900)] == ["1 s", "45 s", "89 s", "3 min", "1 h 05 min"]


def test_a_job_names_the_modules_of_its_plugins_and_one_that_cannot_be_imported_fails_it(tmp_path: Path):
    """The worker imports the job's plug-in modules before reading the config (a plug-in's method is
    registered only by its module); one it cannot import: the build fails, the status names it."""
    assert BuildJob("index", tmp_path, tmp_path, CONFIG, "Baseline").plugins == (
        "sac_core.experiments.methods.baseline",
    )
    job = BuildJob("cell", tmp_path, tmp_path, CONFIG, "Mine", plugins=("no_such_plugin",))
    path = tmp_path / "builds" / f"{job.key}.json"
    with pytest.raises(PluginError):
        run_job(job, path)
    status = read_status(path)
    assert status is not None and status.state == "failed" and status.key == job.key
    assert status.error.startswith("plug-in module 'no_such_plugin' (the build's method or stage) cannot be imported")


@pytest.mark.slow  # a build worker process
def test_a_worker_started_from_a_page_does_not_run_the_app(
    manager: BuildManager, tmp_path: Path, monkeypatch, capfd
) -> None:
    """Started from a page's run, where Streamlit's ``__main__`` is app.py, the worker must not import
    it: its pages decorate cached functions, each logging "No runtime found" on the server's log."""
    import sys
    import types

    app = types.ModuleType("__main__")
    app.__file__ = str(Path(__file__).resolve().parents[2] / "app.py")
    monkeypatch.setitem(sys.modules, "__main__", app)
    job = BuildJob("index", tmp_path / "no-data", tmp_path / "cache", CONFIG, "nothing to build")
    status = _wait(manager, manager.request(job).key, lambda s: s.state == "failed", timeout=120)
    assert "no-data" in (status.error or "")  # it ran, and said why it stopped
    assert "No runtime found" not in capfd.readouterr().err


def test_a_manager_no_one_holds_is_collected_and_its_supervisor_ends(tmp_path: Path) -> None:
    """Neither the supervisor thread nor the exit hook keeps a manager alive: a test's (or a
    restarted server's) managers do not pile up, each with a thread, until the process exits."""
    import gc
    import weakref

    manager = BuildManager(tmp_path, poll=0.01)
    supervisor, held = manager._supervisor, weakref.ref(manager)
    del manager
    for _ in range(500):  # the supervisor holds it only for the length of a tick
        gc.collect()
        if held() is None:
            break
        time.sleep(0.01)
    assert held() is None
    supervisor.join(timeout=60)
    assert not supervisor.is_alive()
