"""app_pages/shared/caches.py: what the server keeps in memory is one Streamlit cache per kind, keyed
by its arguments. Two sessions opening the same column at once open its index once (Streamlit's
per-key lock), and a column is opened anew for other data or another setting."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare
from sac_core.experiments import RunConfig

TIMEOUT = 120


def _session(asking, data, chunk_size):  # AppTest runs its source as a script: no names to annotate with
    """One session's page run: it sets the event ``asking`` (it is about to open the column), then
    opens the column of ``chunk_size`` on the data ``data`` (a source key) and writes what it got."""
    from pathlib import Path

    import streamlit as st

    from app_pages.shared import caches
    from sac_core.experiments import RunConfig

    asking.set()
    config = RunConfig(chunk_size=chunk_size)
    ranker, _ = caches.column(data, "/cache", repr(config), config, None, Path("."), None, None)
    st.write(f"opened {ranker}")


@dataclass
class Opened:
    """Every index opened (cache folder, chunk size); an open waits for ``second_asks``."""

    calls: list[tuple[str, int]] = field(default_factory=list)
    second_asks: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def opened(monkeypatch) -> Opened:
    """compare.open_column counted, each open slow enough for a second session to arrive."""
    st.cache_resource.clear()
    made = Opened()
    calls, second_asks = made.calls, made.second_asks

    def slow_open(bench, config: RunConfig, data_dir, cache_dir, embedder, api_key=None):
        calls.append((str(cache_dir), config.chunk_size))
        second_asks.wait(TIMEOUT)  # the other session is asking for the same column meanwhile
        threading.Event().wait(0.5)  # … and has reached the cache: it waits there, or opens a second copy
        return f"ranker {len(calls)}", {}

    monkeypatch.setattr(compare, "open_column", slow_open)
    yield made
    st.cache_resource.clear()


def _run(at: AppTest, out: list[AppTest]) -> None:
    at.run()
    out.append(at)


def test_two_sessions_opening_the_same_column_at_once_open_its_index_once(opened: Opened) -> None:
    first_asks, second_asks = threading.Event(), opened.second_asks
    sessions = [
        AppTest.from_function(_session, args=(first_asks, "data-1", 500), default_timeout=TIMEOUT),
        AppTest.from_function(_session, args=(second_asks, "data-1", 500), default_timeout=TIMEOUT),
    ]
    done: list[AppTest] = []
    first = threading.Thread(target=_run, args=(sessions[0], done))
    first.start()
    assert first_asks.wait(TIMEOUT)
    second = threading.Thread(target=_run, args=(sessions[1], done))
    second.start()
    first.join(TIMEOUT)
    second.join(TIMEOUT)
    assert len(done) == 2 and not any(at.exception for at in done), [at.exception for at in done]
    assert opened.calls == [("/cache", 500)]  # built once; the second session waited and shares it
    assert [at.markdown[0].value for at in done] == ["opened ranker 1", "opened ranker 1"]


def test_a_column_is_opened_anew_for_other_data_or_another_setting(opened: Opened) -> None:
    opened.second_asks.set()  # no second session to wait for
    for data, size in [("data-1", 500), ("data-1", 500), ("data-2", 500), ("data-2", 300)]:
        at = AppTest.from_function(_session, args=(threading.Event(), data, size), default_timeout=TIMEOUT).run()
        assert not at.exception, at.exception
    assert [size for _, size in opened.calls] == [500, 500, 300]  # an edited data folder has a new source key
