"""The real dashboard in a real browser: start ``streamlit run app.py`` on a free port and drive
Debian's headless Chromium through Playwright, for the end-to-end tests, the committed
screenshots (``sac screenshots``) and the page timings of ``sac bench``.

Browsers are never downloaded: Playwright drives ``/usr/bin/chromium`` (``scripts/install_browser.sh``)
with the flags this closed network needs.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .warm import healthy, run_once

PROJECT = Path(__file__).resolve().parents[2]  # the folder of app.py
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)  # fmt: skip
STEP_TIMEOUT = 180_000  # ms a page step (a rerun, a page switch) may take on a busy 2-core machine, for tests
BUILD_TIMEOUT = 600_000  # ms the demo corpus's indexes may take to build in the background there, for tests
VIEWPORT = {"width": 1280, "height": 1000}  # a laptop: the width every page is laid out and checked for


class ScreenshotError(RuntimeError):
    """A page could not be shot, or showed something a committed picture must not (an absolute path)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class Server:
    url: str
    log: Path
    process: subprocess.Popen[bytes]


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        if healthy(url):
            return
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not become healthy in {timeout:.0f}s:\n{log.read_text()[-3000:]}")


@contextmanager
def serve(
    env: Mapping[str, str], log: Path, timeout: float = 90, *, stop_timeout: float = 20, warmed: bool = False
) -> Iterator[Server]:
    """The dashboard on 127.0.0.1 at a free port, with ``env`` on top of a clean copy of ours
    (no ``SAC_DATA_DIR`` or ``OPENAI_API_KEY`` unless ``env`` sets them); stopped on exit with
    SIGTERM, killed when it has not ended after ``stop_timeout`` seconds (exit code -9 then).
    ``warmed``: yielded once the readiness probe has run the app script (as ``make app`` starts a
    server, :mod:`.warm`); otherwise as soon as it answers, before any script ran."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SAC_DATA_DIR", "OPENAI_API_KEY", "SAC_DATA_ROOT")}
    clean.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    clean.update(env)
    port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
               "--server.fileWatcherType", "none"]  # fmt: skip
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=PROJECT, env=clean, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log, timeout)
        if warmed:
            run_once(url, timeout)
        yield Server(url, log, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=stop_timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def chromium(playwright: Any) -> Iterator[Any]:
    """Headless Debian Chromium driven by Playwright (``playwright.sync_api.sync_playwright()``)."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} not found: run `bash scripts/install_browser.sh`")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), headless=True)
    try:
        yield browser
    finally:
        browser.close()


@contextmanager
def session(
    env: Mapping[str, str], log: Path, *, stop_timeout: float = 20, warmed: bool = False
) -> Iterator[tuple[Server, Any]]:
    """A fresh server (see :func:`serve`) and one Chromium page, both closed on exit."""
    from playwright.sync_api import sync_playwright  # the browser driver, only when a browser is driven

    with (
        serve(env, log, stop_timeout=stop_timeout, warmed=warmed) as server,
        sync_playwright() as p,
        chromium(p) as chrome,
    ):
        yield server, chrome.new_page(viewport=VIEWPORT)


def settle(page: Any, timeout: float = 60) -> None:
    """Wait until Streamlit has finished running the script (no 'Running…' status widget)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 3:
        running = page.locator('[data-testid="stStatusWidget"]').count() > 0
        quiet = 0 if running else quiet + 1
        page.wait_for_timeout(400)


T = TypeVar("T")


def eventually(read: Callable[[], T], want: Callable[[T], bool], what: str, timeout: float = STEP_TIMEOUT / 1000) -> T:
    """What ``read`` gives once ``want`` holds, read every 0.2 s: a page run under load may still be
    writing (a database row, a file) when the page looks quiet. Fails after ``timeout`` seconds, saying
    ``what`` and what it read last."""
    deadline = time.monotonic() + timeout
    while not want(value := read()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: still {value!r}")
        time.sleep(0.2)
    return value


def wait_for_count(page: Any, selector: str, count: int, timeout: float = 240) -> None:
    """Wait until the page shows exactly ``count`` elements matching ``selector`` (CSS), then settle.

    Compare shows each column as soon as its index is built, so the first card is not the last.
    """
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length === n", arg=[selector, count], timeout=timeout * 1000
    )
    settle(page)


def wait_for_columns(page: Any, count: int, timeout: float = 240) -> None:
    """Wait until ``count`` Compare columns show ranked chunks (however many each has), then settle."""
    page.wait_for_function(
        "(n) => [...document.querySelectorAll('[data-testid=\"stColumn\"]')]"
        ".filter(c => c.querySelector('.sac-hit')).length === n",
        arg=count,
        timeout=timeout * 1000,
    )
    settle(page)


def screenshot(page: Any, path: Path) -> Path:
    """A screenshot of the whole page (the viewport grows to the main area's height)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], section.main, body')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": VIEWPORT["width"], "height": max(900, min(int(height) + 60, 7000))})
    page.wait_for_timeout(800)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)
    return path


# a root folder not preceded by a word character or a dot: "/tmp/x" and "sqlite:////tmp/x", not "cache/tmp/x"
_ABSOLUTE = re.compile(r"(?<![\w.])/(?:work|home|root|tmp|usr|opt|var|mnt|srv|Users)/[^\s\"'<>]*")


def absolute_paths(text: str) -> list[str]:
    """Absolute paths of a machine in ``text`` (what a committed screenshot must not show)."""
    return _ABSOLUTE.findall(text)
