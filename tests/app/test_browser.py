"""End to end in headless Chromium: the dashboard on the embedded demo corpus, a query on Compare,
gold highlights in the page, and a screenshot of every page in ``screenshots/<page>.png``.

Needs the Debian ``chromium`` package (``bash scripts/install_browser.sh``) and Python
``playwright`` (the driver only: browsers are never downloaded, the system Chromium is used).
Skipped, saying why, when either is missing; under CI (``$CI`` set) a missing Chromium fails.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sac_core.dashboard.curves import demo_sweep, run_with_progress
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "screenshots"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BUILD_TIMEOUT = 240_000  # ms: the first build embeds the demo corpus on a busy 2-core machine

if not CHROMIUM.exists() and os.environ.get("CI"):  # CI installs it: a skip there would hide a failure
    pytest.fail(
        f"{CHROMIUM} not found although CI should have installed it (scripts/install_browser.sh)", pytrace=False
    )
if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} not found: run `bash scripts/install_browser.sh` (apt chromium) to enable the browser test",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api",
    reason="Python package 'playwright' not installed (pip install playwright; no `playwright install` needed)",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"streamlit did not become healthy in {timeout}s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, embed_cache: Path) -> Iterator[str]:
    """``streamlit run app.py`` on the embedded demo corpus (no SAC_DATA_DIR), with a demo sweep."""
    demo = ensure_demo_corpus(embed_cache)
    results = tmp_path_factory.mktemp("results")
    sweep = demo_sweep(available_datasets(demo), chunk_sizes=(500,))
    run_with_progress(sweep, demo, embed_cache, results / sweep.name)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("SAC_DATA_DIR", "OPENAI_API_KEY")}
    env.update(
        SAC_CACHE_DIR=str(embed_cache), SAC_RESULTS_DIR=str(results), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1"
    )
    log = tmp_path_factory.mktemp("log") / "streamlit.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "app.py",
                "--server.headless",
                "true",
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--browser.gatherUsageStats",
                "false",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _settle(page, timeout: float = 60) -> None:
    """Wait until Streamlit has finished running the script (no 'Running…' status widget)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 3:
        running = page.locator('[data-testid="stStatusWidget"]').count() > 0
        quiet = 0 if running else quiet + 1
        page.wait_for_timeout(400)


def _shot(page, name: str) -> Path:
    """A screenshot of the whole page (the viewport grows to the main area's height)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], section.main, body')]"
        ".map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": 1500, "height": max(900, min(int(height) + 60, 7000))})
    page.wait_for_timeout(800)
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size({"width": 1500, "height": 1000})
    return path


def test_every_page_in_chromium_with_gold_highlights_on_compare(server: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            # a deep link as the server's very first request still gets our navigation and pages
            page.goto(f"{server}/documents")
            page.wait_for_selector(".sac-doc", timeout=BUILD_TIMEOUT)
            nav = page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
            assert [n.strip().split("\n")[-1] for n in nav] == ["Compare", "Curves", "Tune", "Documents"], nav

            page.goto(f"{server}/?dataset=demo_nda&q=demo_nda%2F1&k=3")
            page.wait_for_selector("mark.gold", timeout=BUILD_TIMEOUT)
            _settle(page)
            assert page.get_by_text("Demo corpus.").count() >= 1
            assert page.locator(".sac-hit").count() == 3 * 3  # three indexes × k=3 from the URL
            assert page.locator("mark.gold").count() >= 1
            assert page.locator(".sac-hit.bad").count() >= 1  # the baseline takes a wrong NDA
            assert "<script" not in page.locator('[data-testid="stMain"]').inner_text()

            # run a query: free text replaces the benchmark query (no gold, so no ✓/✗ and no highlights)
            box = page.get_by_label("… or type your own question", exact=False)
            box.fill("Which law governs the agreement between Kestrel Aerospace and Lumen Optics?")
            box.press("Enter")
            page.wait_for_selector(".sac-hit.sac-free", timeout=60_000)
            _settle(page)
            # the previous run's elements can linger while a slow rerun finishes: wait for the final state
            page.wait_for_function("() => document.querySelectorAll('mark.gold').length === 0", timeout=60_000)
            assert page.locator("mark.gold").count() == 0
            assert "text=" in page.url
            box.fill("")
            box.press("Enter")
            page.wait_for_selector("mark.gold", timeout=60_000)
            _settle(page)
            _shot(page, "compare")

            page.goto(f"{server}/curves")
            page.wait_for_selector(".js-plotly-plot", timeout=60_000)
            _settle(page)
            _shot(page, "curves")

            page.goto(f"{server}/tune")
            page.get_by_role("button", name="Apply").click()
            page.wait_for_selector("text=At k = 8", timeout=BUILD_TIMEOUT)
            _settle(page)
            thumb = page.get_by_role("slider", name="Chunk size (characters)")
            thumb.focus()
            for _ in range(4):  # 500 → 300 characters
                thumb.press("ArrowLeft")
            page.get_by_role("button", name="Apply").click()
            page.wait_for_selector("text=chunk 300/0", timeout=BUILD_TIMEOUT)
            _settle(page)
            assert page.get_by_text("Before:").count() >= 1
            _shot(page, "tune")

            page.goto(f"{server}/documents")
            page.wait_for_selector(".sac-doc", timeout=60_000)
            _settle(page)
            _shot(page, "documents")
        finally:
            browser.close()
    for name in ("compare", "curves", "tune", "documents"):
        assert (SHOTS / f"{name}.png").stat().st_size > 10_000
