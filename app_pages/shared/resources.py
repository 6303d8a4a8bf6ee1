"""Shared UI (not a page): the benchmark and the Compare indexes, built once per server with a progress bar.

UI only: what to build and how is decided in ``sac_core.dashboard``; this module draws progress
and errors.
"""

from __future__ import annotations

import cProfile
import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import streamlit as st

from sac_core.dashboard import answers, builds, compare, curves, demo_picks, errors, maps, state, timing, tune, views
from sac_core.dashboard import registry as shared

from .prepare_ui import prepare_note
from .sidebar import API_KEY, api_key

LOAD_ERRORS = (state.BenchmarkError, state.SummaryError, KeyError, OSError, RuntimeError, ValueError)


@st.cache_resource(show_spinner=False)
def registry() -> shared.Registry:
    """Indexes and benchmarks shared by every session of this server: two of each kind (benchmark,
    encoder, …), room for Compare's widest set of columns plus one, two Map pages (two maps each), and
    the latest Compare answers and explanations (a room of people asking the same question computes
    it once)."""
    return shared.Registry(
        size=2, sizes={"column": compare.MAX_COLUMNS + 1, "map": 4, "results": 256, "why": 64, "answer": 256}
    )


def load_plugins() -> None:
    """The plug-ins of installed packages and ``$SAC_PLUGINS``, imported once per server before a
    page reads the registries; one that cannot be loaded: its one-line error on every page."""
    key = shared.resource_key("plugins", os.environ.get("SAC_PLUGINS", ""))
    for problem in registry().get(key, state.load_plugins):
        st.error(views.md(problem))


def require_datasets(s: state.Settings) -> None:
    if not s.datasets:
        st.warning("Choose at least one dataset in the sidebar.")
        st.stop()


def benchmark(s: state.Settings) -> state.Benchmark:
    """The selected queries and documents, loaded once per (data, protocol, datasets)."""
    return sourced(s)[0]


def sourced(s: state.Settings) -> tuple[state.Benchmark, str]:
    """The selected benchmark and its source key (:func:`state.source_key`: what a result computed
    on it is kept under), from one look at the folder's files."""
    require_datasets(s)
    try:
        return _loaded(s, s.protocol, s.datasets)
    except LOAD_ERRORS as e:
        st.error(f"Could not load the benchmark: {views.md(e)}")
        st.stop()


def benchmark_of(s: state.Settings, protocol: str, datasets: Sequence[str]) -> state.Benchmark:
    """The benchmark of the sidebar's data folder under another protocol or datasets (shared, as
    :func:`benchmark`), loaded again when a file of the folder changed (a reworded question, an
    edited document or summary); raises what loading raises."""
    return _loaded(s, protocol, datasets)[0]


def _loaded(s: state.Settings, protocol: str, datasets: Sequence[str]) -> tuple[state.Benchmark, str]:
    stamp = state.folder_stamp(s.source.data_dir)
    key = shared.resource_key("bench", s.source.data_dir, protocol, tuple(datasets), stamp)
    with _spinner("Loading the benchmark …", [key]):
        bench = registry().get(key, lambda: state.load_benchmark(s.source.data_dir, tuple(datasets), protocol))
    return bench, state.source_key(bench.digest, stamp)


def _spinner(text: str, keys: Sequence[tuple[str, ...]]) -> AbstractContextManager:
    """A spinner while something of ``keys`` is still to be loaded into the registry; nothing when
    all are there (a spinner costs every rerun a thread and messages: a room of sessions pays it)."""
    return nullcontext() if all(key in registry() for key in keys) else st.spinner(text)


def progress_callback(bar):
    """An ``on_progress(fraction, message)`` that moves ``bar``."""
    return lambda fraction, message: bar.progress(min(1.0, max(0.0, float(fraction))), text=views.md(message))


def confirm_openai(s: state.Settings, bench: state.Benchmark, columns: Sequence[compare.Column], what: str) -> None:
    """Before requesting summaries from an API: needs a key, shows the cost, asks once per session."""
    if s.provider != "openai":
        return
    est = compare.pending_cost(bench, columns, s.source.data_dir, s.cache_dir)
    if est.documents == 0:
        return
    if not api_key(s) and not os.environ.get("OPENAI_API_KEY") and not os.environ.get("OPENAI_BASE_URL"):
        st.warning("The openai provider needs an API key: enter it in the sidebar (kept for this session only).")
        st.stop()
    ok_key = f"sac_openai_ok::{what}"
    if st.session_state.get(ok_key):
        return
    st.warning(f"Building these indexes requests {est.documents} summaries: {views.md(est)}.")
    if st.button("Request the summaries", key=f"sac_openai_btn::{what}"):
        st.session_state[ok_key] = True
        return
    st.stop()


def build_manager(cache_dir: Path) -> builds.BuildManager:
    """The server's background builds (worker processes) for one cache folder, shared by every session."""
    return _build_manager(str(Path(cache_dir).resolve()))


@st.cache_resource(show_spinner=False)
def _build_manager(cache_dir: str) -> builds.BuildManager:
    return builds.BuildManager(Path(cache_dir))


def _embedder(s: state.Settings, config: state.RunConfig) -> compare.Embedder:
    key = shared.resource_key("embedder", s.cache_dir, config.model, config.backend)
    return registry().get(key, lambda: compare.Embedder(config.model, s.cache_dir, backend=config.backend))


def page_embedder(s: state.Settings) -> compare.Embedder:
    """The sidebar's embedding model (shared by every session of the server, as the columns' own)."""
    return _embedder(s, s.base_config())


def workspace(s: state.Settings, columns: Sequence[compare.Column]) -> tuple[compare.Workspace | None, list]:
    """The Compare workspace over the columns whose saved index is ready (loaded once per server and
    shared), and the columns still being built in the background (their progress is drawn here)."""
    bench, data = sourced(s)  # data: a summary or bank file edited, the columns are opened anew
    confirm_openai(s, bench, columns, "compare")
    retrievers, summaries, pending = {}, {}, []
    failed: tuple[str, Exception] | None = None
    keys = [shared.resource_key("column", data, s.cache_dir, c.config) for c in columns]
    with _spinner("Opening the saved indexes …", keys):
        for col, key in zip(columns, keys):
            opener = lambda col=col: compare.open_column(
                bench, col, s.source.data_dir, s.cache_dir, _embedder(s, col.config), api_key(s)
            )
            try:
                retrievers[col.name], summaries[col.name] = registry().get(key, opener)
            except compare.NotBuilt:
                pending.append(col)
            except LOAD_ERRORS as e:
                failed = (col.name, e)
                break
    if failed is not None:  # said after the spinner has ended (st.stop inside it left it on the page)
        st.session_state.pop("sac_openai_ok::compare", None)  # a failed request is not sent again unasked
        st.error(f"Could not open the index of {views.md(failed[0])}: {views.md(failed[1])}")
        st.stop()
    if pending:
        jobs = [compare.index_job(col, s.source.data_dir, s.cache_dir) for col in pending]
        if not s.source.demo:  # real data, not prebuilt: the total, the one command, the demo meanwhile
            prepare_note(s, bench, jobs, {job.key: build_manager(s.cache_dir).status(job.key) for job in jobs})
        build_panel(s, jobs, api_key(s))
    ready = [col for col in columns if col.name in retrievers]
    return (compare.Workspace(bench, ready, retrievers, summaries, data) if ready else None), pending


def compare_results(
    s: state.Settings, ws: compare.Workspace, text: str, k: int, query: compare.Query | None
) -> list[compare.ColumnResult]:
    """``ws.search`` once per (data, columns, question, k) for every session of the server."""
    key = shared.resource_key("results", ws.data_key, compare.columns_key(ws), text, k, compare.query_key(query))
    return registry().get(key, lambda: ws.search(text, k, query))


def why_wrong(
    s: state.Settings, ws: compare.Workspace, hit: tuple[str, int, compare.Hit], query: compare.Query, text: str
) -> compare.WrongHit:
    """:func:`compare.explain_wrong_hit` once per (data, columns, question, hit) for every session."""
    name, rank, found = hit
    chunk = (found.chunk.file_path, found.chunk.start, found.chunk.end)
    key = shared.resource_key("why", ws.data_key, compare.columns_key(ws), text, query.query_id, name, rank, chunk)
    return registry().get(key, lambda: compare.explain_wrong_hit(ws, name, rank, found, query, text))


def llm_settings(model: str) -> answers.LLMSettings:
    """Where the LLM answerer asks: this session's key (sidebar) or the server's ``OPENAI_API_KEY``,
    the server's ``OPENAI_BASE_URL`` (a page never takes a URL from a user), ``model``."""
    key = st.session_state.get(API_KEY) or os.environ.get("OPENAI_API_KEY") or None
    return answers.LLMSettings(key, os.environ.get("OPENAI_BASE_URL") or None, model)


def _answerer(s: state.Settings, config: state.RunConfig, kind: str, llm: answers.LLMSettings) -> answers.Answerer:
    """The answerer ``kind``: the extractive one over the column's model; the LLM one made once per
    session and setting (a disk-cache handle and an openai client, not one per column and rerun). It
    holds this session's key, so it lives in the session, never in the server-wide registry."""
    if kind != "openai":
        return answers.make_answerer(kind, _embedder(s, config), s.cache_dir, llm)
    secret = hashlib.sha256((llm.api_key or "").encode()).hexdigest()
    ident = (str(s.cache_dir), llm.model, llm.base_url, secret)
    made: dict[tuple[str, str, str | None, str], answers.Answerer] = st.session_state.setdefault(
        "sac_llm_answerers", {}
    )
    if ident not in made:
        made[ident] = answers.make_answerer(kind, _embedder(s, config), s.cache_dir, llm)
    return made[ident]


def column_answer(
    s: state.Settings,
    ws: compare.Workspace,
    result: compare.ColumnResult,
    kind: str,
    question: str,
    query: compare.Query | None,
    llm: answers.LLMSettings,
    on_text: Callable[[str], None] | None = None,
) -> answers.Answer:
    """The answer from one column's hits, once per (data, column, question, hits, answerer) for every
    session of the server (an LLM answer is also cached on disk); raises AnswerError."""
    hits = tuple((h.chunk.file_path, h.chunk.start, h.chunk.end) for h in result.hits)
    model = llm.model if kind == "openai" else ""
    gold = query.gold_files if query is not None else None
    marks = None if gold is None else tuple(sorted(gold))  # the answer is checked against them
    key = shared.resource_key("answer", ws.data_key, result.column.config, question, hits, kind, model, marks)

    def make() -> answers.Answer:
        answerer = _answerer(s, result.column.config, kind, llm)
        return answers.answer_column(answerer, question, result.hits, gold, on_text)

    return registry().get(key, make)


def cached_answer(
    s: state.Settings,
    result: compare.ColumnResult,
    question: str,
    query: compare.Query | None,
    llm: answers.LLMSettings,
) -> answers.Answer | None:
    """The LLM's cached answer for one column (nothing is sent), or None."""
    answerer = _answerer(s, result.column.config, "openai", llm)
    return answers.cached_answer(answerer, question, result.hits, query.gold_files if query is not None else None)


def build_panel(s: state.Settings, jobs: Sequence[builds.BuildJob], key: str | None = None) -> None:
    """Ask for ``jobs`` in the background (joining builds already running) and show their progress,
    with Cancel; the page reruns when they have all ended. Nothing blocks: other pages stay usable."""
    manager = build_manager(s.cache_dir)
    stopped = st.session_state.setdefault("sac_builds_stopped", set())  # cancelled or failed here: not restarted
    for job in jobs:
        current = manager.status(job.key)
        if job.key not in stopped and (current is None or not current.active):
            manager.request(job, key)
    st.info(
        "Building the indexes this page needs, once for every session of this server. Meanwhile the other "
        "pages, and any index already built, keep working; this page fills in when the build ends.",
        icon=":material/hourglass_top:",
    )
    _progress(s.cache_dir, [job.key for job in jobs], [job.label for job in jobs])


@st.fragment(run_every=1.0)
def _progress(cache_dir: Path, keys: list[str], labels: list[str]) -> None:
    manager = build_manager(cache_dir)
    stopped = st.session_state.setdefault("sac_builds_stopped", set())
    seen: dict[str, str] = st.session_state.setdefault("sac_builds_seen", {})  # key → state at the last look
    active = finished = False
    for key, label in zip(keys, labels):
        status = manager.status(key) or builds.BuildStatus(key, label, "queued")
        finished |= status.state == "done" and seen.get(key) in builds.ACTIVE
        seen[key] = status.state
        row = st.columns([6, 1])
        if status.active:
            active = True
            row[0].progress(status.fraction, text=views.md(status.describe()))
            if row[1].button("Cancel", key=f"sac_cancel::{key}"):
                manager.cancel(key)
                stopped.add(key)
                st.rerun(scope="app")
        elif status.state == "done":
            row[0].success(f"{views.md(label)}: built", icon=":material/check:")
        else:
            stopped.add(key)
            row[0].warning(views.md(status.describe()))
            if row[1].button("Build again", key=f"sac_retry::{key}"):
                stopped.discard(key)
                st.rerun(scope="app")
    if finished or (not active and all(k not in stopped for k in keys)):
        st.rerun(scope="app")  # a build ended: draw its column now, the others keep their progress here


def tune_lookup(s: state.Settings) -> tune.Lookup:
    """Committed per-query results of every sweep folder (read once per server, again when a file
    changes) and this cache's computed cells: what Tune answers at once (its cell ids and exemplar
    bank are remembered per benchmark object, loaded anew when a file of the data folder changes)."""
    sweeps = curves.list_sweeps([curves.results_root(), curves.demo_results_root(s.cache_dir)])
    folders = [f.path for f in sweeps]
    stamp = tuple((str(f.per_query), f.per_query.stat().st_mtime) for f in sweeps if f.per_query.is_file())
    key = shared.resource_key("tune-lookup", s.cache_dir, s.source.data_dir, stamp)
    return registry().get(key, lambda: tune.Lookup(tune.read_published(folders), s.cache_dir, s.source.data_dir))


def document_names(ws: compare.Workspace) -> answers.DocumentNames:
    """The words each document of the workspace's benchmark is named by (once per benchmark and server)."""
    key = shared.resource_key("names", ws.data_key)
    return registry().get(key, lambda: answers.document_names({p: d.text for p, d in ws.bench.documents.items()}))


def demo_cells(s: state.Settings, ws: compare.Workspace) -> demo_picks.Lookup:
    """The committed per-query results of the page's columns on its data (read once per server, again
    when a file changes; without them the pages open on their usual first query), and the results
    folders skipped because a table did not parse."""
    roots = [curves.results_root(), curves.demo_results_root(s.cache_dir)]
    sweeps = curves.list_sweeps(roots)
    stamp = tuple((str(f.per_query), f.per_query.stat().st_mtime) for f in sweeps if f.per_query.is_file())
    key = shared.resource_key("picks", ws.data_key, compare.columns_key(ws), stamp)
    return registry().get(key, lambda: demo_picks.look_up(roots, ws.columns, ws.bench))


pct = views.fmt_pct


quiet_logs = errors.quiet_logs


@contextmanager
def guarded(page: str) -> Iterator[None]:
    """An unexpected error inside the block: a one-line message with a reference on the page, the
    traceback in the server log under the same reference (``st.stop``/``st.rerun`` pass through:
    they are not ``Exception``)."""
    try:
        yield
    except Exception as e:
        st.error(errors.report(e, page).message, icon=":material/error:")


@contextmanager
def timed(page: str) -> Iterator[None]:
    """Append ``<page>\\t<milliseconds>`` of this script run to ``$SAC_TIMING_LOG`` when it is set
    (``sac bench`` measures the server time of a rerun so); a stopped run counts too. With
    ``$SAC_PROFILE_DIR`` set, each run's cProfile statistics are saved there too."""
    path = os.environ.get(timing.TIMING_ENV)
    profile_dir = os.environ.get(timing.PROFILE_ENV)
    profiler = cProfile.Profile() if profile_dir else None
    t0 = time.perf_counter()
    if profiler:
        profiler.enable()
    try:
        yield
    finally:
        ms = (time.perf_counter() - t0) * 1000
        if profiler and profile_dir:
            profiler.disable()
            profiler.dump_stats(str(Path(profile_dir) / f"{page}-{time.time_ns()}.prof"))
        if path:
            with Path(path).open("a", encoding="utf-8") as f:
                f.write(f"{page}\t{ms:.2f}\n")


def map_data(s: state.Settings, ws: compare.Workspace, column: compare.Column, method: str) -> maps.MapData:
    """An index's vectors, projection and separation figures, computed once and shared (the
    projection and figures are also kept on disk beside the saved index); the first time, a bar
    shows each step with the time left, then goes."""
    key = shared.resource_key("map", ws.data_key, s.cache_dir, column.config, method)
    index = maps.column_index(ws.retrievers, column.name, ws.columns)
    bar = st.empty()
    tell = progress_callback(bar)
    data = registry().get(
        key,
        lambda: maps.map_data(index, s.cache_dir, method, lambda f, text: tell(f, f"{column.name}: {text}")),
    )
    bar.empty()
    return data
