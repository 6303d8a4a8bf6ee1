"""Shared UI (not a page): what wraps every page run: its server time for ``sac bench`` and, for an
unexpected error, a one-line reference on the page (the traceback in the server log)."""

from __future__ import annotations

import cProfile
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st

from sac_core.dashboard import errors, timing


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
