"""Background builds owned by the dashboard's server, so a long build never holds a page hostage.

A build (an index for Compare, or an evaluated setting for Tune) runs in a worker **process**
started by a :class:`BuildManager`, one per key, shared by every session: reruns, page switches
and browser reloads find the same build, and two sessions asking for the same index wait for one
build. At most ``parallel`` workers run at a time (embedding already uses every core); the rest
wait in order. The worker reports its progress (stage, texts done / total, texts/s, time left)
in ``<cache>/builds/<key>.json``, rewritten atomically after every embedded batch, and fills the
same caches as ``sac index`` (embeddings, saved indexes, sweep cells). So a worker that crashes
or is killed loses at most its last batch, and asking again resumes from the caches.

Nothing here imports Streamlit: the pages draw :class:`BuildStatus` and call ``cancel``. A
worker is a fresh ``python`` that imports this module only (not multiprocessing's "spawn": it
imports the parent's ``__main__``, which under Streamlit is ``app.py`` and its pages), gets its
job on stdin (so an API key is never on a command line), and reports a failure in its status file
rather than as a traceback on the server's log.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..engine import store
from ..engine.data import load_benchmark
from ..engine.embedding import Embedders
from ..experiments import OpenContext, RunConfig, open_method
from ..experiments.cells import CellCache
from ..experiments.identity import cell_inputs
from ..experiments.index_store import embed_queries, index_folder, index_key
from ..experiments.loading import PluginError, import_plugin
from ..experiments.sweep import evaluate_cell
from .rates import MEASURE_AFTER, RATE_FILE

KINDS = ("index", "cell")
ACTIVE = ("queued", "running")


@dataclass(frozen=True)
class BuildJob:
    """What to build. ``index``: what ``config`` needs saved: its method's index and what its stages
    precompute (Compare). ``cell``: ``config``
    evaluated on every query of the benchmark, kept in the sweep-cell cache (Tune)."""

    kind: str
    data_dir: Path
    cache_dir: Path
    config: RunConfig
    label: str
    # Modules that define the config's method and stages, found where the job is made (where they
    # are registered): the worker process imports them before anything reads the config, so a
    # method registered by a module of its own (a plug-in) is known there too.
    plugins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.plugins:
            parts = [self.config.method_plugin, *self.config.stages]
            object.__setattr__(self, "plugins", tuple(dict.fromkeys(type(p).__module__ for p in parts)))

    @property
    def key(self) -> str:
        if self.kind == "index":  # one build per index, and per stage setting on top of it
            stages = "".join(stage.label(self.config) for stage in self.config.stages)
            suffix = f"-{store.sha256(stages)[:8]}" if stages else ""
            return f"index-{index_key(self.config)}{suffix}"
        return f"cell-{store.sha256({**self.config.columns(), 'ks': list(self.config.ks)})[:16]}"


@dataclass(frozen=True)
class BuildStatus:
    """A build as the pages show it. ``done``/``total`` count the stage's ``unit``: documents chunked,
    or texts to embed (cache hits excluded)."""

    key: str
    label: str
    state: str  # queued | running | done | failed | cancelled
    stage: str = ""
    done: int = 0
    total: int = 0
    rate: float = 0.0  # units per second in this stage
    eta_s: float | None = None  # seconds left in this stage
    unit: str = "texts"  # what done/total count: "texts" (embedded) or "documents" (chunked)
    started: float = 0.0
    updated: float = 0.0
    error: str = ""
    pid: int | None = None

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    @property
    def embedding(self) -> float:
        """Texts per second while this build embeds, else 0 (what :func:`.rates.embed_rate` sums)."""
        return self.rate if self.active and self.unit == "texts" else 0.0

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 0.0

    def describe(self) -> str:
        """One line for people: what, how far, how fast, how long still."""
        if self.state == "queued":
            return f"{self.label}: waiting for the build before it"
        if self.state == "running" and self.total:
            left = "" if self.eta_s is None else f" · about {fmt_duration(self.eta_s)} left"
            rate = f" · {self.rate:,.0f} {self.unit}/s" if self.rate else ""
            return f"{self.label}: {self.stage} {self.done:,} / {self.total:,} {self.unit}{rate}{left}"
        if self.state == "running":
            return f"{self.label}: {self.stage or 'starting'}"
        if self.state == "failed":
            return f"{self.label}: failed: {self.error}"
        return f"{self.label}: {self.state}"


def fmt_duration(seconds: float) -> str:
    """``45 s``, ``3 min``, ``1 h 05 min``."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def index_saved(configs: Iterable[RunConfig], cache_dir: Path) -> bool:
    """Every config has a saved index in this cache (its manifest, under ``indexes/<index key>/``
    as ``experiments.index_store`` writes it), e.g. because Compare built it. Tune then evaluates
    the setting unasked: only the queries are embedded. A stale index is rebuilt by the job."""
    return all((index_folder(cache_dir, config) / "manifest.json").is_file() for config in configs)


# --------------------------------------------------------------------------- the worker process


REPORT_EVERY = 0.25  # seconds between two progress writes of a stage (its last is always written)


class _Reporter:
    """Writes a job's status file; progress at most every ``every`` seconds (and always at the end)."""

    def __init__(self, path: Path, job: BuildJob, every: float | None = None) -> None:
        self.path = path
        self.status = BuildStatus(job.key, job.label, "running", started=time.time(), pid=os.getpid())
        self.every = REPORT_EVERY if every is None else every
        self._last = 0.0
        self._t0: float | None = None
        self._stage = ""

    def stage(self, stage: str) -> None:
        """A step without a count (loading, summaries): no fraction and no time left until it reports one."""
        self.write(stage=stage, done=0, total=0, rate=0.0, eta_s=None)

    def write(self, **changes: Any) -> None:
        self.status = BuildStatus(**{**asdict(self.status), **changes, "updated": time.time()})
        write_status(self.path, self.status)

    def progress(self, done: int, total: int) -> None:
        """Texts embedded of ``total`` (what ``OpenContext.on_progress`` reports)."""
        self.step("embedding", "texts", done, total)

    def step(self, stage: str, unit: str, done: int, total: int) -> None:
        """``done`` of ``total`` ``unit`` in ``stage`` (``OpenContext.on_step``), with the rate and
        the time left measured from the stage's first report; a new stage starts a new clock."""
        now = time.monotonic()
        if self._t0 is None or stage != self._stage:
            self._t0, self._stage, self._last = now, stage, 0.0
        if done < total and now - self._last < self.every:
            return
        self._last = now
        elapsed = now - self._t0
        rate = done / elapsed if elapsed > 0 and done else 0.0
        eta = (total - done) / rate if rate else None
        self.write(stage=stage, unit=unit, done=done, total=total, rate=rate, eta_s=eta)
        if unit == "texts" and rate > 0 and elapsed >= MEASURE_AFTER:  # the machine's rate, for later estimates
            _write_atomic(self.path.parent / RATE_FILE, f"{rate:.3f}\n")


def run_job(job: BuildJob, status_path: Path, api_key: str | None = None) -> None:
    """Do one build (in the worker process; also callable in-process), reporting to ``status_path``."""
    try:  # first: the job's key and label read its method, which a plug-in's module registers
        for module in job.plugins:
            import_plugin(module, where="the build's method or stage")
    except PluginError as e:
        write_status(status_path, BuildStatus(status_path.stem, job.label, "failed", error=str(e), updated=time.time()))
        raise
    report = _Reporter(status_path, job)
    try:
        report.write(stage="loading the benchmark")
        config = job.config
        bench = load_benchmark(job.data_dir, config.datasets, config.protocol, config.seed)
        embedders = Embedders(job.cache_dir)
        ctx = OpenContext(
            bench, job.data_dir, job.cache_dir, embedders, api_key=api_key, on_progress=report.progress, save=True
        )
        ctx = replace(ctx, on_step=report.step)  # chunking and embedding chunks: their own stages
        if job.kind == "index":
            report.stage("summaries")  # then chunking and embedding report their own progress
            open_method(config, ctx)  # loads what is saved and fresh at once; builds and saves the rest
            if config.method_plugin.indexer() is not None:  # Compare answers them without loading the model
                report.stage("the benchmark's queries")
                embed_queries(bench, config, embedders)
        else:
            inputs = cell_inputs(config, ctx)
            with CellCache(job.cache_dir) as cells:
                if inputs.id not in cells:
                    report.stage("summaries, chunks and every query")
                    cells.put(evaluate_cell(config, ctx, inputs))  # the index it builds is saved and used at once
        report.write(state="done", stage="", eta_s=None)
    except Exception as e:  # reported to the page; the process then ends
        report.write(state="failed", error=f"{type(e).__name__}: {e}", eta_s=None)
        raise


def _work(job: BuildJob, status_path: Path, api_key: str | None) -> None:
    """A worker process's entry: :func:`run_job`, its failure said in the status file (the page
    shows it) and by the exit code, not by a traceback in the server's log."""
    try:
        run_job(job, status_path, api_key)
    except Exception:
        sys.exit(1)


_WORKER = "import pickle, sys; from sac_core.dashboard import builds; builds._work(*pickle.load(sys.stdin.buffer))"


def _start_worker(job: BuildJob, status_path: Path, api_key: str | None) -> subprocess.Popen:
    """A fresh interpreter running :func:`_work`, on the server's import path (as "spawn" would)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    process = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, env=env)
    assert process.stdin is not None
    with process.stdin:
        pickle.dump((job, status_path, api_key), process.stdin)
    return process


def write_status(path: Path, status: BuildStatus) -> None:
    _write_atomic(path, json.dumps(asdict(status)))


def _write_atomic(path: Path, text: str) -> None:
    """A reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def read_status(path: Path) -> BuildStatus | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return BuildStatus(**raw)
    except (OSError, ValueError, TypeError):
        return None


# --------------------------------------------------------------------------- the manager


@dataclass
class _Entry:
    job: BuildJob
    path: Path
    api_key: str | None = field(repr=False, default=None)  # in memory only, handed to the worker
    process: subprocess.Popen | None = None  # the worker, once started
    final: BuildStatus | None = None  # set when the process ended or was cancelled


def _terminate_workers(entries: dict[str, _Entry], lock: threading.Lock) -> None:
    """Stop every worker of a manager still running (at exit, or when the manager is collected)."""
    with lock:
        for entry in entries.values():
            if entry.process is not None and entry.process.poll() is None:
                entry.process.terminate()


def _supervise(manager: weakref.ref[BuildManager], poll: float) -> None:
    """The supervisor thread: ticks the manager until it is collected."""
    while True:
        time.sleep(poll)
        alive = manager()
        if alive is None:
            return
        alive._tick()
        del alive


class BuildManager:
    """The server's background builds (see the module docstring); safe to call from any session."""

    def __init__(self, cache_dir: Path, parallel: int = 1, poll: float = 0.2) -> None:
        self.folder = store.folder(cache_dir, "builds")  # status files, not results
        self.parallel = parallel
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        # Neither the supervisor nor the exit hook holds the manager: a manager no one uses is
        # collected, its supervisor ends and its workers are stopped; a worker never outlives its server.
        self._supervisor = threading.Thread(target=_supervise, args=(weakref.ref(self), poll), name="sac-builds",
                                            daemon=True)  # fmt: skip
        self._supervisor.start()
        weakref.finalize(self, _terminate_workers, self._entries, self._lock)

    def request(self, job: BuildJob, api_key: str | None = None) -> BuildStatus:
        """Start ``job``, or join the build of the same key when one is queued or running (a build
        that ended is started again: the caller asks only for what is still missing)."""
        with self._lock:
            entry = self._entries.get(job.key)
            if entry is None or entry.final is not None:
                entry = _Entry(job, self.folder / f"{job.key}.json", api_key)
                self._entries[job.key] = entry
                write_status(entry.path, BuildStatus(job.key, job.label, "queued", started=time.time()))
            self._start_queued()
            return self._status(entry)

    def status(self, key: str) -> BuildStatus | None:
        with self._lock:
            entry = self._entries.get(key)
            return None if entry is None else self._status(entry)

    def statuses(self) -> list[BuildStatus]:
        with self._lock:
            return [self._status(e) for e in self._entries.values()]

    def cancel(self, key: str) -> None:
        """Stop a queued or running build; what it already embedded stays in the cache."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.final is not None:
                return
            if entry.process is not None and entry.process.poll() is None:
                entry.process.terminate()
                try:
                    entry.process.wait(10)
                except subprocess.TimeoutExpired:
                    entry.process.kill()
            entry.final = BuildStatus(entry.job.key, entry.job.label, "cancelled", updated=time.time())
            write_status(entry.path, entry.final)
            self._start_queued()

    # ------------------------------------------------------------------ internals (lock held)

    def _status(self, entry: _Entry) -> BuildStatus:
        if entry.final is not None:
            return entry.final
        current = read_status(entry.path)
        if current is None:
            return BuildStatus(entry.job.key, entry.job.label, "queued")
        return current

    def _start_queued(self) -> None:
        running = [e for e in self._entries.values() if e.process is not None and e.final is None]
        for entry in self._entries.values():
            if len(running) >= self.parallel:
                return
            if entry.process is None and entry.final is None:
                entry.process = _start_worker(entry.job, entry.path, entry.api_key)
                running.append(entry)

    def _reap(self) -> None:
        for entry in self._entries.values():
            if entry.final is not None or entry.process is None or entry.process.poll() is None:
                continue
            status = read_status(entry.path)
            if status is not None and status.state in ("done", "failed"):
                entry.final = status
            else:  # killed or crashed before it could say so
                code = entry.process.returncode
                entry.final = BuildStatus(
                    entry.job.key, entry.job.label, "failed", error=f"the worker stopped (exit code {code})",
                    updated=time.time(),
                )  # fmt: skip
                write_status(entry.path, entry.final)
            entry.api_key = None

    def _tick(self) -> None:
        """Reap ended workers and start queued builds (the supervisor, every ``poll`` seconds)."""
        with self._lock:
            self._reap()
            self._start_queued()
