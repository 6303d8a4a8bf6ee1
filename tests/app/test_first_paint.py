"""Issue 45, point 13: what Compare's first run on a fresh server does before its first ranked chunks.

Reading the committed per-query tables for the demo picks (about 90 MB unpacked for lbr-mini-grid)
came after the indexes were opened and before the chunks were drawn: its time added to the first
paint. It now runs in the background while the indexes open. The structure is tested here, never a
time (``sac bench --parts first-paint`` measures it in a browser)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare, demo_picks

TIMEOUT = 240  # seconds for a run: the first one may build the demo indexes
APP = str(Path(__file__).resolve().parents[2] / "app.py")
OVERLAP = 60  # seconds an index open waits for the lookup to start; a sequential page never starts it meanwhile


@pytest.fixture
def fresh_server():
    """Nothing kept in memory: the page runs as on a fresh server."""
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    st.cache_resource.clear()
    st.cache_data.clear()


def test_the_demo_picks_are_read_while_the_indexes_open_not_after(env, monkeypatch, fresh_server):
    started = threading.Event()
    seen: list[str] = []
    look_up, open_column = demo_picks.look_up, compare.open_column

    def recorded_look_up(*args, **kwargs):
        started.set()
        seen.append("look-up")
        return look_up(*args, **kwargs)

    def recorded_open(*args, **kwargs):
        seen.append("open: the look-up had started" if started.wait(OVERLAP) else "open: no look-up yet")
        return open_column(*args, **kwargs)

    monkeypatch.setattr(demo_picks, "look_up", recorded_look_up)
    monkeypatch.setattr(compare, "open_column", recorded_open)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    opens = [s for s in seen if s.startswith("open")]
    assert len(opens) == 3 and set(opens) == {"open: the look-up had started"}, seen
    assert seen.count("look-up") == 1  # started once, and the picker waited for that one
    assert at.selectbox(key="cmp_demo").options  # the picks arrived: the demo picker is offered
    assert "sac-hit" in "".join(str(m.value) for m in at.markdown)  # and the ranked chunks are drawn
