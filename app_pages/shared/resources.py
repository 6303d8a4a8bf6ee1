"""Shared UI (not a page): the benchmark and the Compare indexes, built once per server with a progress bar.

UI only: what to build and how is decided in ``sac_core.dashboard``; this module draws progress
and errors.
"""

from __future__ import annotations

import cProfile
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from sac_core.dashboard import compare, state, timing, views
from sac_core.dashboard import registry as shared

from .sidebar import api_key

LOAD_ERRORS = (state.BenchmarkError, state.SummaryError, KeyError, OSError, RuntimeError, ValueError)


@st.cache_resource(show_spinner=False)
def registry() -> shared.Registry:
    """Indexes and benchmarks shared by every session of this server."""
    return shared.Registry(size=4)


def require_datasets(s: state.Settings) -> None:
    if not s.datasets:
        st.warning("Choose at least one dataset in the sidebar.")
        st.stop()


def benchmark(s: state.Settings) -> state.Benchmark:
    """The selected queries and documents, loaded once per (data, protocol, datasets)."""
    require_datasets(s)
    key = shared.resource_key("bench", s.source.data_dir, s.protocol, s.datasets)
    try:
        with st.spinner("Loading the benchmark …"):
            return registry().get(key, lambda: state.load_benchmark(s.source.data_dir, s.datasets, s.protocol))
    except LOAD_ERRORS as e:
        st.error(f"Could not load the benchmark: {views.md(e)}")
        st.stop()


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


def workspace(s: state.Settings, columns: Sequence[compare.Column]) -> compare.Workspace:
    """The Compare indexes for ``columns``, built once (progress bar) and shared by all sessions."""
    key = shared.resource_key("workspace", s.source.data_dir, s.cache_dir, s.protocol, s.datasets, *columns)
    bars = []

    def build() -> compare.Workspace:
        bench = benchmark(s)
        confirm_openai(s, bench, columns, "compare")
        bars.append(st.progress(0.0, text="Building the indexes (once; then shared by every session) …"))
        return compare.Workspace(bench, columns, s.source.data_dir, s.cache_dir, api_key(s), progress_callback(bars[0]))

    try:
        return registry().get(key, build)
    except LOAD_ERRORS as e:
        st.error(f"Could not build the indexes: {views.md(e)}")
        st.stop()
    finally:
        for bar in bars:
            bar.empty()


pct = views.fmt_pct


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
