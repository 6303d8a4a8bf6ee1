"""A room of twelve (issue 27, point 8), for ``sac bench --parts room``: N people open the same
Compare link on one server at once, each in a Chromium context of its own, then move the k slider.

Per session: seconds from navigation to the first ranked chunk on screen, and from the key press on
the k slider to the new cards of every column. Per server: its own time of each Compare rerun
meanwhile (the timing log, :data:`TIMING_ENV`) and the CPU-seconds it used. The browsers share the
machine's cores with the server, so their figures carry the browsers' load; the server's do not.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dashboard.builds import index_saved
from ..dashboard.timing import TIMING_ENV
from ..experiments import RunConfig, catalogue, default_keys
from . import browser
from .timing import (
    FIRST_RESULT,
    Timings,
    compare_reruns,
    cpu_seconds,
    first_chunks,
    first_chunks_clocks,
    in_sessions,
    read_timing_log,
)

K_SLIDER = "k (chunks per index)"
_CARDS = "([sel, n]) => document.querySelectorAll(sel).length === n"


@dataclass(frozen=True)
class Crowd:
    """One round: ``sessions`` browsers opened Compare together, then each moved k by one."""

    sessions: int
    first: Timings  # navigation → the first ranked chunk on screen
    k_change: Timings  # key press on the k slider → every column shows k + 1 cards
    server: Timings  # the server's own time of each Compare rerun of the round
    server_cpu: float  # CPU-seconds the server used in the round
    load: tuple[float, float, float]  # the machine's load average when the round started

    def __str__(self) -> str:
        return (
            f"{self.sessions:2d} at once: first ranked chunks p50 {self.first.p50_ms / 1000:.2f} s, max "
            f"{self.first.max_ms / 1000:.2f} s; k change p50 {self.k_change.p50_ms / 1000:.2f} s, max "
            f"{self.k_change.max_ms / 1000:.2f} s; server time per Compare rerun p50 {self.server.p50_ms:,.0f} ms, "
            f"max {self.server.max_ms:,.0f} ms over {self.server.n} reruns, {self.server_cpu:.1f} CPU-s "
            f"(load average {self.load[0]:.1f})"
        )


async def _settled(page: Any, timeout_ms: float) -> None:
    """:func:`browser.settle` for an async page: no 'Running…' status widget three looks in a row."""
    deadline = time.monotonic() + timeout_ms / 1000
    quiet = 0
    while quiet < 3 and time.monotonic() < deadline:
        running = await page.locator('[data-testid="stStatusWidget"]').count() > 0
        quiet = 0 if running else quiet + 1
        await page.wait_for_timeout(400)


async def _session(page: Any, url: str, columns: int, k: int, timeout_ms: float) -> tuple[float, float]:
    """One person: Compare opened at ``url`` (showing ``k`` cards per column), then k + 1 by the
    keyboard on the slider. Returns (seconds to the first ranked chunk, seconds to the new cards)."""
    t0 = time.perf_counter()
    await page.goto(url)
    await page.wait_for_selector(FIRST_RESULT, state="visible", timeout=timeout_ms)
    first = time.perf_counter() - t0
    await page.wait_for_function(_CARDS, arg=[FIRST_RESULT, columns * k], timeout=timeout_ms)
    await _settled(page, timeout_ms)
    thumb = page.get_by_role("slider", name=K_SLIDER)
    await thumb.focus()
    t0 = time.perf_counter()
    await thumb.press("ArrowRight")
    await page.wait_for_function(_CARDS, arg=[FIRST_RESULT, columns * (k + 1)], timeout=timeout_ms)
    changed = time.perf_counter() - t0
    await _settled(page, timeout_ms)  # the rest of the page drawn: the rerun is in the timing log
    return first, changed


def prebuilt_keys(base: RunConfig, cache_dir: Path) -> tuple[str, ...]:
    """The default Compare columns (catalogue keys) whose index is saved in ``cache_dir``."""
    entries = catalogue(base)
    return tuple(key for key in default_keys(base) if index_saved([entries[key].config], cache_dir))


def _round(url: str, sessions: int, columns: int, k: int, timeout_ms: float) -> list[tuple[float, float]]:
    import asyncio  # only when browsers are timed

    return asyncio.run(in_sessions(sessions, lambda page: _session(page, url, columns, k, timeout_ms)))


def room_crowds(
    env: Mapping[str, str],
    counts: Sequence[int],
    keys: Sequence[str],
    timeout_ms: float = 3_600_000,
) -> list[Crowd]:
    """Rounds of ``counts`` concurrent sessions on one server (``env`` as for :func:`browser.serve`),
    Compare showing the catalogue columns ``keys``. One untimed session first opens the indexes
    (builds what is missing) and loads the model. Round i opens k = 3 + 2i and moves to k = 4 + 2i: no
    earlier round asked those, so each round's answers are computed once, then shared by its sessions.
    """
    cols = ",".join(keys)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "timing.tsv"
        with browser.serve({**env, TIMING_ENV: str(log)}, Path(tmp) / "streamlit.log") as server:
            _round(f"{server.url}/?cols={cols}&k=1", 1, len(keys), 1, timeout_ms)  # warm-up: k 1 → 2
            out = []
            for i, n in enumerate(counts):
                k = 3 + 2 * i
                before, cpu, load = (
                    len(read_timing_log(log, "Compare")),
                    cpu_seconds(server.process.pid),
                    os.getloadavg(),
                )
                times = _round(f"{server.url}/?cols={cols}&k={k}", n, len(keys), k, timeout_ms)
                runs = read_timing_log(log, "Compare")[before:]
                out.append(Crowd(
                    n, Timings.of([f for f, _ in times]), Timings.of([c for _, c in times]),
                    Timings.of([ms / 1000 for ms in runs]), cpu_seconds(server.process.pid) - cpu, load,
                ))  # fmt: skip
    return out


FRESH_SERVERS = 5  # fresh servers timed per kind of start
FIRST_PAINT_SERVERS = 3  # fresh servers of the first-paint part per kind of start (issue 45 timed three)
FIRST_PAINT_TARGET_S = 2.0  # issue 45, point 13


def fresh_servers(env: Mapping[str, str], keys: Sequence[str], reruns: int) -> list[str]:
    """One person on a fresh server: navigation to the first ranked chunk on ``FRESH_SERVERS``
    servers started as ``make app`` starts them (warmed by the readiness probe, :mod:`.warm`) and
    as many cold ones; then the server time of new questions typed (the first may wait for the model)."""
    path = f"/?cols={','.join(keys)}"
    lines = []
    for warmed, what in ((True, "warmed by its readiness probe as `make app` starts it"), (False, "cold")):
        load = os.getloadavg()[0]
        firsts = Timings.of([first_chunks(env, path, warmed=warmed) for _ in range(FRESH_SERVERS)])
        lines.append(
            f"one session on a fresh server, {what}: first ranked chunks after navigation {firsts} fresh servers "
            f"(load average {load:.1f})"
        )
    _, typed, times = compare_reruns(env, reruns, path=path)
    lines.append(
        f"a new question typed on a fresh server: the first {typed:,.0f} ms of server time (it may wait for the "
        f"model), then each a new one: {times}"
    )
    return lines


def first_paint(env: Mapping[str, str], keys: Sequence[str], servers: int = FIRST_PAINT_SERVERS) -> list[str]:
    """Compare's first paint (issue 45, point 13): seconds from navigation to the first ranked chunks
    on each of ``servers`` fresh servers, cold (the page is the first thing the server runs) and
    warmed as ``make app`` starts it, with the load average before and after; by the harness's clock
    and by the browser's own (:func:`timing.first_chunks_clocks`). The URL names only the columns:
    the page opens on its demo pick, as a presenter's does."""
    path = f"/?cols={','.join(keys)}"
    lines = []
    for warmed, what in ((False, "cold"), (True, "warmed by its readiness probe as `make app` starts it")):
        before = os.getloadavg()[0]
        times = [first_chunks_clocks(env, path, warmed=warmed) for _ in range(servers)]
        lines.append(
            f"first ranked chunks on {servers} fresh servers, {what}: {', '.join(f'{t:.2f}' for t, _ in times)} s "
            f"(the browser's own clock, from navigation start to the chunk in the page: "
            f"{', '.join(f'{b:.2f}' for _, b in times)} s; target ≤ {FIRST_PAINT_TARGET_S:g} s; "
            f"load average {before:.1f} → {os.getloadavg()[0]:.1f})"
        )
    return lines
