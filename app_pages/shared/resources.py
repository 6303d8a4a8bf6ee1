"""Shared UI (not a page): the benchmark and the Compare indexes, built once per server with a progress bar.

UI only: what to build and how is decided in ``sac_core.dashboard``; this module draws progress
and errors.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

import streamlit as st

from sac_core.dashboard import answers, builds, compare, curves, demo_picks, maps, state, tune, views

from . import caches
from .prepare_ui import prepare_note, prepare_total
from .sidebar import API_KEY, api_key

if TYPE_CHECKING:  # names only: pages call the project through sac_core.dashboard
    from sac_core.engine.data import Benchmark, Query
    from sac_core.engine.embedding import Embedder
    from sac_core.engine.retrieval import Hit
    from sac_core.experiments import Column, ColumnResult, RunConfig, Workspace


def load_plugins() -> None:
    """The plug-ins of installed packages and ``$SAC_PLUGINS``, imported once per server before a
    page reads the registries; one that cannot be loaded: its one-line error on every page."""
    for problem in caches.plugins(os.environ.get("SAC_PLUGINS", "")):
        st.error(views.md(problem))


def require_datasets(s: state.Settings) -> None:
    if not s.datasets:
        st.warning("Choose at least one dataset in the sidebar.")
        st.stop()


def benchmark(s: state.Settings) -> Benchmark:
    """The selected queries and documents, loaded once per (data, protocol, datasets)."""
    return sourced(s)[0]


def sourced(s: state.Settings) -> tuple[Benchmark, str]:
    """The selected benchmark and its source key (:func:`state.sourced_benchmark`: what a result
    computed on it is kept under), from one look at the folder's files."""
    require_datasets(s)
    try:
        return _loaded(s, s.protocol, s.datasets)
    except state.LOAD_ERRORS as e:
        st.error(f"Could not load the benchmark: {views.md(e)}")
        st.stop()


def benchmark_of(s: state.Settings, protocol: str, datasets: Sequence[str]) -> Benchmark:
    """The benchmark of the sidebar's data folder under another protocol or datasets (shared, as
    :func:`benchmark`), loaded again when a file of the folder changed (a reworded question, an
    edited document or summary); raises what loading raises."""
    return _loaded(s, protocol, datasets)[0]


def _loaded(s: state.Settings, protocol: str, datasets: Sequence[str]) -> tuple[Benchmark, str]:
    where = str(Path(s.source.data_dir).resolve())
    return caches.benchmark(where, tuple(datasets), protocol, s.source.stamp())


def progress_callback(bar):
    """An ``on_progress(fraction, message)`` that moves ``bar``."""
    return lambda fraction, message: bar.progress(min(1.0, max(0.0, float(fraction))), text=views.md(message))


def confirm_openai(s: state.Settings, bench: Benchmark, columns: Sequence[Column], what: str) -> None:
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


def _embedder(s: state.Settings, config: RunConfig) -> Embedder:
    return caches.embedder(_resolved(s.cache_dir), config.model, config.backend, config)


def _config(s: state.Settings, config: RunConfig) -> tuple[str, str, RunConfig]:
    """(cache folder, config) as a cache key (the config's ``repr`` lists every setting), and the config."""
    return _resolved(s.cache_dir), repr(config), config


def _resolved(path: Path) -> str:
    """A folder as a cache key part: resolved (links and ``..``), as text."""
    return str(Path(path).resolve())


def page_embedder(s: state.Settings) -> Embedder:
    """The sidebar's embedding model (shared by every session of the server, as the columns' own)."""
    return _embedder(s, s.base_config())


def workspace(s: state.Settings, columns: Sequence[Column]) -> tuple[Workspace | None, list]:
    """The Compare workspace over the columns whose saved index is ready (loaded once per server and
    shared), and the columns still being built in the background (their progress is drawn here)."""
    bench, data = sourced(s)  # data: a summary or bank file edited, the columns are opened anew
    confirm_openai(s, bench, columns, "compare")
    opened, pending = {}, []
    failed: tuple[str, Exception] | None = None
    for col in columns:
        try:
            opened[col.name] = caches.column(
                data, *_config(s, col.config), bench, s.source.data_dir, _embedder(s, col.config), api_key(s)
            )
        except compare.NotBuilt:
            pending.append(col)
        except state.LOAD_ERRORS as e:
            failed = (col.name, e)
            break
    if failed is not None:  # said after the spinner has ended (st.stop inside it left it on the page)
        st.session_state.pop("sac_openai_ok::compare", None)  # a failed request is not sent again unasked
        st.error(f"Could not open the index of {views.md(failed[0])}: {views.md(failed[1])}")
        st.stop()
    if pending:
        jobs = [compare.index_job(col, s.source.data_dir, s.cache_dir) for col in pending]
        real = not s.source.demo  # real data, not prebuilt: the one command, the demo meanwhile, the total
        if real:
            prepare_note(s)
        build_panel(s, jobs, api_key(s), total=functools.partial(prepare_total, s, bench, jobs) if real else None)
    return compare.workspace(bench, columns, opened, data), pending


def compare_results(ws: Workspace, text: str, k: int, query: Query | None) -> list[ColumnResult]:
    """``ws.search`` once per (data, columns, question, k) for every session of the server."""
    query_id = None if query is None else query.query_id
    return caches.results(ws.data_key, compare.columns_key(ws), text, k, query_id, ws, query)


def why_wrong(ws: Workspace, hit: tuple[str, int, Hit], query: Query, text: str) -> compare.WrongHit:
    """:func:`compare.explain_wrong_hit` once per (data, columns, question, hit) for every session."""
    name, rank, found = hit
    chunk = (found.chunk.file_path, found.chunk.start, found.chunk.end)
    key = compare.columns_key(ws)
    return caches.why_wrong(ws.data_key, key, text, query.query_id, name, rank, chunk, ws, found, query)


def llm_settings(model: str) -> answers.LLMSettings:
    """Where the LLM answerer asks: this session's key (sidebar) or the server's ``OPENAI_API_KEY``,
    the server's ``OPENAI_BASE_URL`` (a page never takes a URL from a user), ``model``."""
    key = st.session_state.get(API_KEY) or os.environ.get("OPENAI_API_KEY") or None
    return answers.LLMSettings(key, os.environ.get("OPENAI_BASE_URL") or None, model)


def _llm_answerer(s: state.Settings, config: RunConfig, llm: answers.LLMSettings) -> answers.Answerer:
    """The LLM answerer of this session and setting. It holds this session's key, so it lives in
    the session's cache, never in one shared by the server."""
    secret = hashlib.sha256((llm.api_key or "").encode()).hexdigest()
    return caches.llm_answerer(_resolved(s.cache_dir), llm.model, llm.base_url, secret, _embedder(s, config), llm)


def column_answer(
    s: state.Settings,
    ws: Workspace,
    result: ColumnResult,
    kind: str,
    question: str,
    query: Query | None,
    llm: answers.LLMSettings,
    on_text: Callable[[str], None] | None = None,
) -> answers.Answer:
    """The answer from one column's hits; raises AnswerError. An offline answer is made once per
    (data, column, question, hits, answerer) for every session of the server; an LLM answer is
    streamed into ``on_text`` and kept on disk by its answerer (asked again, it is read back)."""
    gold = query.gold_files if query is not None else None
    if kind == "openai":
        return answers.answer_column(_llm_answerer(s, result.column.config, llm), question, result.hits, gold, on_text)
    hits = tuple((h.chunk.file_path, h.chunk.start, h.chunk.end) for h in result.hits)
    marks = None if gold is None else tuple(sorted(gold))  # the answer is checked against them
    answerer = answers.make_answerer(kind, _embedder(s, result.column.config), s.cache_dir, llm)
    config = repr(result.column.config)
    return caches.answer(ws.data_key, config, question, hits, kind, marks, answerer, result.hits)


def cached_answer(
    s: state.Settings,
    result: ColumnResult,
    question: str,
    query: Query | None,
    llm: answers.LLMSettings,
) -> answers.Answer | None:
    """The LLM's cached answer for one column (nothing is sent), or None."""
    answerer = _llm_answerer(s, result.column.config, llm)
    return answers.cached_answer(answerer, question, result.hits, query.gold_files if query is not None else None)


def build_panel(
    s: state.Settings,
    jobs: Sequence[builds.BuildJob],
    key: str | None = None,
    total: Callable[[dict[str, builds.BuildStatus | None]], None] | None = None,
) -> None:
    """Ask for ``jobs`` in the background (joining builds already running) and show their progress,
    with Cancel (and above it ``total``, drawn from their statuses at each refresh); the page reruns
    when they have all ended. Nothing blocks: other pages stay usable."""
    manager = caches.build_manager(s.cache_dir)
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
    _progress(s.cache_dir, [job.key for job in jobs], [job.label for job in jobs], total)


@st.fragment(run_every=1.0)
def _progress(
    cache_dir: Path,
    keys: list[str],
    labels: list[str],
    total: Callable[[dict[str, builds.BuildStatus | None]], None] | None = None,
) -> None:
    manager = caches.build_manager(cache_dir)
    stopped = st.session_state.setdefault("sac_builds_stopped", set())
    seen: dict[str, str] = st.session_state.setdefault("sac_builds_seen", {})  # key → state at the last look
    statuses = {key: manager.status(key) for key in keys}
    if total is not None:
        total(statuses)
    active = finished = False
    for key, label in zip(keys, labels):
        status = statuses[key] or builds.BuildStatus(key, label, "queued")
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
    where = _resolved(s.source.data_dir)
    return caches.tune_lookup(_resolved(s.cache_dir), where, _tables_stamp(sweeps), folders)


def _tables_stamp(sweeps: Sequence[curves.SweepFolder]) -> tuple[tuple[str, float], ...]:
    """(path, mtime) of each sweep's per-query table: a new stamp, a table was written."""
    return tuple((str(f.per_query), f.per_query.stat().st_mtime) for f in sweeps if f.per_query.is_file())


def document_names(ws: Workspace) -> answers.DocumentNames:
    """The words each document of the workspace's benchmark is named by (once per benchmark and server)."""
    return caches.document_names(ws.data_key, ws.bench)


def start_demo_cells(s: state.Settings, columns: Sequence[Column]) -> None:
    """Start looking up the demo picks of ``columns`` (:func:`demo_cells`) in the background, so that
    reading the committed per-query tables overlaps with opening the indexes instead of following it."""
    bench, data = sourced(s)
    _demo_lookup(s, data, columns, bench)


def demo_cells(s: state.Settings, ws: Workspace) -> demo_picks.Lookup:
    """The committed per-query results of the page's columns on its data (read once per server, again
    when a file changes; without them the pages open on their usual first query), and the results
    folders skipped because a table did not parse. A lookup that failed is not kept."""
    try:
        return _demo_lookup(s, ws.data_key, ws.columns, ws.bench).result()
    except Exception:
        caches.demo_cells.clear()  # asked again on the next run, not served from the cache
        raise


def _demo_lookup(
    s: state.Settings, data: str, columns: Sequence[Column], bench: Benchmark
) -> Future[demo_picks.Lookup]:
    roots = [curves.results_root(), curves.demo_results_root(s.cache_dir)]
    stamp = _tables_stamp(curves.list_sweeps(roots))
    return caches.demo_cells(data, compare.column_set_key(columns), stamp, roots, tuple(columns), bench)


def map_data(s: state.Settings, ws: Workspace, column: Column, method: str) -> maps.MapData:
    """An index's vectors, projection and separation figures, computed once and shared (the
    projection and figures are also kept on disk beside the saved index); the first time, a bar
    shows each step with the time left, then goes."""
    index = maps.column_index(ws.retrievers, column.name, ws.columns)
    return caches.map_data(ws.data_key, _resolved(s.cache_dir), repr(column.config), method, column.name, index)
