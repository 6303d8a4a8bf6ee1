"""How fast the dashboard answers, for ``sac bench``: the server time of one Compare rerun, and the
time to the first ranked chunks when several browsers open Compare at once.

- Server time: a real server records how long each run of the Compare script takes (``app.py``
  writes it to the file named by ``$SAC_TIMING_LOG``); a browser triggers the reruns by typing a
  new question each time, so each rerun embeds and searches. This is the server's work per rerun,
  without the browser and the network.
- Concurrent first results: one real server (``streamlit run``), one headless Chromium with N
  isolated contexts (N independent sessions), all opening Compare at the same moment; per session
  the time from navigation to the first ranked chunk on screen.
- A room of lawyers (:func:`room_session`): a scripted session of Compare, Tune, Review and Curves
  for some minutes, then the server log's lines and stack traces counted.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..dashboard.timing import TIMING_ENV
from ..engine import store
from . import browser

FIRST_RESULT = ".sac-hit"
T = TypeVar("T")


@dataclass(frozen=True)
class Timings:
    """Milliseconds: the median, the 95th percentile and the slowest of ``n`` measurements."""

    n: int
    p50_ms: float
    p95_ms: float
    max_ms: float

    @classmethod
    def of(cls, seconds: list[float]) -> Timings:
        ms = sorted(s * 1000 for s in seconds)
        return cls(len(ms), statistics.median(ms), ms[int(0.95 * (len(ms) - 1))], ms[-1])

    def __str__(self) -> str:
        return f"p50 {self.p50_ms:,.0f} ms, p95 {self.p95_ms:,.0f} ms, max {self.max_ms:,.0f} ms over {self.n}"


def read_timing_log(path: Path, page: str) -> list[float]:
    """Milliseconds of every run of ``page`` recorded in a timing log (see :data:`TIMING_ENV`)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, ms = line.partition("\t")
        if name == page:
            out.append(float(ms))
    return out


# Set in the page before it loads: the browser's own clock (ms since navigation started) when the first
# ranked chunk enters the page, without the harness's time to ask for the page and to see the chunk.
_FIRST_RESULT_CLOCK = (
    "new MutationObserver((_, watch) => { if (document.querySelector('" + FIRST_RESULT + "')) {"
    " window.__sacFirstResult = performance.now(); watch.disconnect(); } })"
    ".observe(document, {subtree: true, childList: true});"
)


def first_chunks(env: Mapping[str, str], path: str = "/", *, warmed: bool, timeout_ms: float = 3_600_000) -> float:
    """Seconds from navigation to the first ranked chunk on a fresh server, one Chromium session;
    ``warmed``: the server started as ``make app`` starts it (its readiness probe ran the app once,
    :mod:`.warm`), else the page is the first thing the server runs."""
    return first_chunks_clocks(env, path, warmed=warmed, timeout_ms=timeout_ms)[0]


def first_chunks_clocks(
    env: Mapping[str, str], path: str = "/", *, warmed: bool, timeout_ms: float = 3_600_000
) -> tuple[float, float]:
    """:func:`first_chunks` by two clocks, seconds: the harness's (from asking Chromium for the page
    to finding the chunk on it) and the browser's own (from the start of the navigation to the chunk
    entering the page)."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        browser.session(env, Path(tmp) / "streamlit.log", warmed=warmed) as (server, page),
    ):
        page.add_init_script(_FIRST_RESULT_CLOCK)
        t0 = time.perf_counter()
        page.goto(server.url + path)
        page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
        harness = time.perf_counter() - t0
        return harness, float(page.evaluate("window.__sacFirstResult")) / 1000


def compare_reruns(
    env: Mapping[str, str], reruns: int = 20, timeout_ms: float = 3_600_000, path: str = "/"
) -> tuple[float, float, Timings]:
    """(seconds to the first ranked chunk in a fresh server, server milliseconds of the first typed
    question, server time of ``reruns`` warm reruns after it).

    The server records how long each run of the Compare script takes (``app.py`` writes it to the
    timing log); each rerun types a new free-text question, so it embeds and searches. The first
    one is reported apart: it may wait for the model, which the server loads in the background.
    ``path``: what is opened (``/?cols=baseline,sac-generic`` for some columns only).
    """
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "timing.tsv"
        with browser.session({**env, TIMING_ENV: str(log)}, Path(tmp) / "streamlit.log") as (server, page):
            t0 = time.perf_counter()
            page.goto(server.url + path)
            page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
            first = time.perf_counter() - t0
            browser.settle(page)
            box = page.get_by_label("… or type your own question", exact=False)
            run = time.time_ns()  # questions never asked before, so no cached query vector answers them
            for i in range(reruns + 1):
                before = len(read_timing_log(log, "Compare"))
                box.fill(f"Which party must return confidential information, case {run}-{i}?")
                box.press("Enter")
                deadline = time.monotonic() + timeout_ms / 1000
                while len(read_timing_log(log, "Compare")) <= before and time.monotonic() < deadline:
                    page.wait_for_timeout(20)
            runs = read_timing_log(log, "Compare")
        typed = runs[-(reruns + 1) :]
        return first, typed[0], Timings.of([ms / 1000 for ms in typed[1:]])


async def in_sessions(sessions: int, one: Callable[[Any], Awaitable[T]]) -> list[T]:
    """``one(page)`` run at once in ``sessions`` isolated contexts of one headless Chromium (each a
    session of its own on the server), its results in order."""
    import asyncio  # with its event loop machinery: only when browsers are timed (`sac --help` stays instant)

    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        chrome = await p.chromium.launch(
            executable_path=str(browser.CHROMIUM), args=list(browser.CHROMIUM_ARGS), headless=True
        )
        try:
            contexts = [await chrome.new_context(viewport={"width": 1500, "height": 1000}) for _ in range(sessions)]
            pages = [await context.new_page() for context in contexts]
            return list(await asyncio.gather(*(one(page) for page in pages)))
        finally:
            await chrome.close()


async def _first_results(url: str, sessions: int, timeout_ms: float) -> list[float]:
    async def one(page: Any) -> float:
        t0 = time.perf_counter()
        await page.goto(url)
        await page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
        return time.perf_counter() - t0

    return await in_sessions(sessions, one)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def concurrent_first_results(
    env: Mapping[str, str], sessions: int = 8, *, warm: bool = True, timeout_ms: float = 3_600_000
) -> tuple[Timings, float]:
    """Time to the first ranked chunk for ``sessions`` browsers opening Compare together, and the
    CPU-seconds the server spent meanwhile (the rest of the machine's time went to the browsers).

    ``warm``: one session opens Compare first (and is not counted), so the indexes are built and
    shared; then the ``sessions`` are timed.
    """
    import asyncio

    with tempfile.TemporaryDirectory() as tmp, browser.serve(env, Path(tmp) / "streamlit.log") as server:
        if warm:
            asyncio.run(_first_results(server.url, 1, timeout_ms))
        cpu = cpu_seconds(server.process.pid)
        seconds = asyncio.run(_first_results(server.url, sessions, timeout_ms))
        return Timings.of(seconds), cpu_seconds(server.process.pid) - cpu


def compare_cold(env: Mapping[str, str], cache_dir: Path, timeout_ms: float = 7_200_000) -> dict[str, float]:
    """Compare opened on a cache with nothing built: seconds to the first ranked chunks (the first
    index done), seconds until every index is built and shown, and the builds' texts/s (from their
    status files: texts embedded over embedding time)."""
    env = {**env, "SAC_CACHE_DIR": str(cache_dir)}
    with tempfile.TemporaryDirectory() as tmp, browser.session(env, Path(tmp) / "streamlit.log") as (server, page):
        t0 = time.perf_counter()
        page.goto(server.url)
        page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
        first = time.perf_counter() - t0
        page.wait_for_function(
            "() => !document.body.innerText.includes('Building the indexes this page needs')", timeout=timeout_ms
        )
        page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
        every = time.perf_counter() - t0
    statuses = [json.loads(p.read_text()) for p in store.folder(cache_dir, "builds").glob("*.json")]
    texts = sum(s["total"] for s in statuses)
    embedding_s = sum(max(0.0, s["updated"] - s["started"]) for s in statuses)
    return {"first_s": first, "all_s": every, "texts": texts, "per_s": texts / embedding_s if embedding_s else 0.0}


def tune_stops(env: Mapping[str, str], moves: int = 6, timeout_ms: float = 60_000) -> tuple[Timings, Timings]:
    """Tune moved between instant stops of the chunk-size slider (alternating 500 and 800, both in
    the committed grid): (seconds from the last key press to the new answer on screen, server time
    of that Tune run). The slider is walked to the stop before the target one key at a time, each
    rerun settled (the stops between are off the grid), and only the step onto the grid is timed."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "timing.tsv"
        with browser.session({**env, TIMING_ENV: str(log)}, Path(tmp) / "streamlit.log") as (server, page):
            page.goto(f"{server.url}/tune")
            page.wait_for_selector("text=At k = 8", timeout=timeout_ms)
            browser.settle(page)
            thumb = page.get_by_role("slider", name="Chunk size (characters)")
            seconds, server_ms = [], []
            for i in range(moves):
                target = 800 if i % 2 == 0 else 500
                key = "ArrowRight" if target == 800 else "ArrowLeft"
                for _ in range(5):  # 500 ↔ 750 or 800 ↔ 550: stops of 50 characters, untimed
                    thumb.press(key)
                    browser.settle(page)
                before = len(read_timing_log(log, "Tune"))
                t0 = time.perf_counter()
                thumb.press(key)
                page.wait_for_function(
                    f"() => document.body.innerText.includes('Now: chunk {target},')", timeout=timeout_ms
                )
                seconds.append(time.perf_counter() - t0)
                deadline = time.monotonic() + timeout_ms / 1000
                while len(read_timing_log(log, "Tune")) <= before and time.monotonic() < deadline:
                    page.wait_for_timeout(20)
                server_ms.append(read_timing_log(log, "Tune")[-1])
    return Timings.of(seconds), Timings.of([ms / 1000 for ms in server_ms])


# --------------------------------------------------------------------------- a room of lawyers


@dataclass(frozen=True)
class RoomLog:
    """What a scripted session left in the server's log: its lines and stack traces (a page never
    shows one; the log should not either, and stay short enough to read)."""

    minutes: float
    rounds: int  # passes through Compare, Tune, Review and Curves
    lines: int
    traces: int  # "Traceback" lines
    text: str  # the log itself

    def __str__(self) -> str:
        return (f"{self.minutes:.1f} minutes, {self.rounds} rounds of Compare, Tune, Review and Curves: "
                f"{self.lines} log lines, {self.traces} stack traces")  # fmt: skip


def _room_round(page: Any, url: str, n: int, timeout_ms: float, review_link: list[str]) -> None:
    """One pass as a reviewer would: a query and a typed question on Compare, a slider on Tune, a
    label by key and a note on Review (the session made through the page the first time, with a
    reviewer whose link, kept in ``review_link``, opens Review in the later rounds), and a sweep on
    Curves with a flipped query opened on Compare when the data allows it."""
    page.goto(url)
    page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
    browser.settle(page)
    box = page.get_by_label("… or type your own question", exact=False)
    box.fill(f"Which law governs the agreement? ({n})")
    box.press("Enter")
    browser.settle(page)
    box.fill("")
    box.press("Enter")
    browser.settle(page)

    page.goto(f"{url}/tune")
    page.wait_for_selector("text=Chunk size (characters)", timeout=timeout_ms)
    browser.settle(page)
    thumb = page.get_by_role("slider", name="Chunk size (characters)")
    for key in ("ArrowLeft", "ArrowLeft", "ArrowRight", "ArrowRight"):  # 500 → 450 → 400 → 450 → 500
        thumb.press(key)
        browser.settle(page)

    if not review_link:
        page.goto(f"{url}/review")  # no link: the page offers a new session
        browser.settle(page)
        page.get_by_label("Session name", exact=False).fill(f"room {time.time_ns()}")
        page.get_by_label("Your name (the session's owner)", exact=False).fill("owner")
        page.get_by_label("Reviewers, one name per line", exact=False).fill("room")
        page.keyboard.press("Tab")
        browser.settle(page)
        page.get_by_role("button", name="Create the session").click()
        page.wait_for_selector('[data-testid="stCode"]', timeout=timeout_ms)  # the owner's page with the links
        review_link.append(page.locator('[data-testid="stCode"]').last.inner_text().strip())
    page.goto(review_link[0])
    page.wait_for_selector(".sac-hit", timeout=timeout_ms)
    browser.settle(page)
    page.locator("h1").first.click()
    page.keyboard.press("1")
    browser.settle(page)
    note = page.get_by_placeholder("note (optional)").first
    note.fill(f"checked in round {n}")
    note.press("Tab")
    browser.settle(page)
    page.locator("h1").first.click()
    page.keyboard.press("n")
    browser.settle(page)

    page.goto(f"{url}/curves")
    page.wait_for_selector(".js-plotly-plot", timeout=timeout_ms)
    browser.settle(page)
    opener = page.get_by_role("button", name="Open in Compare")
    if opener.count():
        opener.click()
        page.wait_for_selector(FIRST_RESULT, timeout=timeout_ms)
        browser.settle(page)


def room_session(env: Mapping[str, str], minutes: float, log: Path, timeout_ms: float = 3_600_000) -> RoomLog:
    """A scripted session of ``minutes`` on a fresh server (Compare, Tune, Review, Curves, again and
    again, in one Chromium tab), then its log counted: issue 27's acceptance asks for no stack
    trace and fewer than 50 lines in 10 minutes. ``env`` as for :func:`browser.serve` (a review
    database of its own is added unless given)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {"SAC_REVIEW_DB": f"sqlite:///{Path(tmp) / 'review.sqlite'}", **env}
        t0 = time.monotonic()
        rounds = 0
        review_link: list[str] = []
        with browser.session(env, log) as (server, page):
            while rounds == 0 or time.monotonic() - t0 < minutes * 60:
                _room_round(page, server.url, rounds, timeout_ms, review_link)
                rounds += 1
        text = log.read_text(encoding="utf-8", errors="replace")
        lines = text.splitlines()
        return RoomLog((time.monotonic() - t0) / 60, rounds, len(lines),
                       sum("Traceback (most recent call last)" in line for line in lines), text)  # fmt: skip
