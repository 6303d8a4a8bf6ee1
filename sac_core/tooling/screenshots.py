"""``sac screenshots``: regenerate the committed screenshots of every page in headless Chromium.

The server runs from the project folder with paths given relative to it, and every page's text is
checked for absolute paths of this machine before its picture is kept: a committed screenshot
shows no ``/home/...`` or ``/work/...``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..dashboard import review
from ..dashboard.compare import compare_columns, default_methods
from ..dashboard.demo_sweep import demo_sweep, run_with_progress
from ..dashboard.state import ensure_demo_corpus
from ..engine.data import available_datasets, load_benchmark
from ..engine.summaries import SummaryConfig
from ..experiments import RunConfig, Workspace
from . import browser
from .browser import ScreenshotError

BUILD_TIMEOUT = 1_800_000  # ms: a cold build of the real lbr-mini indexes takes minutes


def relative_to_project(path: Path) -> str:
    """``path`` as the sidebar should show it: relative to the project folder."""
    return os.path.relpath(Path(path).resolve(), browser.PROJECT)


def _shoot(page: Any, out: Path, name: str, shots: list[Path]) -> None:
    browser.settle(page)
    values = page.eval_on_selector_all("input, textarea", "els => els.map(e => e.value)")
    found = browser.absolute_paths("\n".join([page.locator("body").inner_text(), *values]))
    if found:
        raise ScreenshotError(f"the {name} page shows absolute paths {sorted(set(found))[:3]}: not kept")
    shots.append(browser.screenshot(page, out / f"{name}.png"))


REAL_COLUMNS = ("baseline", "sac-generic", "doc-aware")  # Compare's columns on lbr-mini


def _save_indexes(data_dir: Path, cache_dir: Path, methods: Sequence[str]) -> None:
    """Save the lbr-mini indexes of ``methods`` as the sidebar's defaults open them (what `sac index`
    does), here with progress and time left, rather than behind a page waiting for its build."""
    bench = load_benchmark(data_dir, available_datasets(data_dir), "lbr-mini")
    base = RunConfig(protocol="lbr-mini", datasets=bench.datasets, summary=SummaryConfig(provider="file"))
    Workspace.open(bench, compare_columns(base, methods), data_dir, cache_dir, save=True)


def _review_session(demo: Path, cache_dir: Path, url: str) -> str:
    """A two-query blind session on the demo corpus (the default columns: baseline, SAC generic, recommended; k = 3) to
    photograph; the token of its reviewer's link."""
    bench = load_benchmark(demo, available_datasets(demo), "full")
    base = RunConfig(protocol="full", datasets=bench.datasets, summary=SummaryConfig(provider="file"))
    columns = compare_columns(base, default_methods(base)[:3])  # baseline, SAC generic, recommended
    ws = Workspace.open(bench, columns, demo, cache_dir)
    db = review.ReviewDB(url)
    queries = review.sample_queries(bench, bench.datasets, 2, 7)
    plan = review.SessionPlan(
        "demo session", "screenshots", "demo", columns, queries, 3, 7, {"how": "random"}, folder=demo
    )
    _, _, links = review.create_with_links(db, ws, plan, ["reviewer"])
    db.dispose()
    return links["reviewer"]


def take_screenshots(
    out: Path, cache_dir: Path, data_dir: Path | None = None, say: Callable[[str], None] = print
) -> list[Path]:
    """Every page on the demo corpus (with a small demo sweep for Curves), and Compare on
    ``data_dir`` (LegalBench-RAG, lbr-mini) when given. Returns the files written."""
    if data_dir is not None:
        say("saving the lbr-mini indexes the real-data pages open (a first build embeds them) …")
        _save_indexes(data_dir, cache_dir, REAL_COLUMNS)
    demo = ensure_demo_corpus(cache_dir)
    shots: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results"
        say("running the demo sweep for the Curves page …")
        sweep = demo_sweep(available_datasets(demo), chunk_sizes=(500,))
        run_with_progress(sweep, demo, cache_dir, results / sweep.name)
        with tempfile.TemporaryDirectory(dir=cache_dir) as db_dir:  # in the cache: the page shows a relative path
            db_file = Path(db_dir) / "review.sqlite"
            token = _review_session(demo, cache_dir, f"sqlite:///{db_file.resolve()}")
            env = {"SAC_CACHE_DIR": relative_to_project(cache_dir), "SAC_RESULTS_DIR": relative_to_project(results),
                   "SAC_REVIEW_DB": f"sqlite:///{relative_to_project(db_file)}"}  # fmt: skip
            _shoot_pages(out, env, Path(tmp), data_dir, say, shots, token)
    return shots


PLOTS_2 = "() => document.querySelectorAll('.js-plotly-plot').length === 2"  # Map: both indexes drawn


def _hits(count: int) -> str:
    """A ready check: Compare shows all its cards (each column appears when its index is built)."""
    return f"() => document.querySelectorAll('.sac-hit').length === {count}"


def _answers(count: int) -> str:
    """A ready check: Compare shows an answer under each of its ``count`` columns."""
    return f"() => document.querySelectorAll('.sac-answer').length === {count}"


def _visit(
    page: Any, out: Path, shots: list[Path], name: str, url: str, ready: str, timeout: float = BUILD_TIMEOUT
) -> None:
    """Open ``url``, wait until ``ready`` (a CSS or ``text=`` selector, or a JS function) holds, shoot
    ``name``; a page that never gets there is a :class:`ScreenshotError` naming it."""
    from playwright.sync_api import TimeoutError as PageTimeout  # the browser driver, only when one is driven

    page.goto(url)
    try:
        if ready.startswith("() =>"):
            page.wait_for_function(ready, timeout=timeout)
        else:
            page.wait_for_selector(ready, timeout=timeout)
    except PageTimeout:
        raise ScreenshotError(f"the {name} page was not ready after {timeout / 1000:.0f} s: not shot") from None
    _shoot(page, out, name, shots)


def _shoot_pages(
    out: Path, env: dict[str, str], tmp: Path, data_dir: Path | None, say: Callable[[str], None], shots: list[Path],
    review_token: str,
) -> None:  # fmt: skip
    """Every page on the demo corpus in one server (Review through a reviewer's link), then Compare
    and Map on ``data_dir`` if given."""
    with browser.session(env, Path(tmp) / "streamlit.log") as (server, page):
        demo_query = "dataset=demo_nda&q=demo_nda%2F1&k=3"
        say("compare (five columns), curves, tune, map, documents (demo) …")
        five = "cols=baseline,sac-generic,sac-expert,doc-aware,recommended"
        _visit(page, out, shots, "compare", f"{server.url}/?{demo_query}&{five}", _answers(5))
        _visit(page, out, shots, "curves", f"{server.url}/curves", ".js-plotly-plot", 60_000)
        # the demo sweep covers Tune's default stop: answered at once
        _visit(page, out, shots, "tune", f"{server.url}/tune", "text=At k = 8")
        _visit(page, out, shots, "map", f"{server.url}/map?{demo_query}", PLOTS_2)
        _visit(page, out, shots, "documents", f"{server.url}/documents", ".sac-doc", 60_000)
        say("review …")
        page.goto(f"{server.url}/review?{review.PARAM}={review_token}")
        page.wait_for_selector(".sac-hit", timeout=60_000)
        note = page.get_by_placeholder("note (optional)").first
        note.fill("Right clause, but it only covers written disclosures;\nthe oral ones are in § 2.")
        note.press("Tab")  # saved when it loses focus
        browser.settle(page)
        _shoot(page, out, "review", shots)
    if data_dir is not None:
        env["SAC_DATA_DIR"] = relative_to_project(data_dir)
        with browser.session(env, Path(tmp) / "streamlit-real.log") as (server, page):
            say("compare and map (LegalBench-RAG, lbr-mini) …")
            # a ContractNLI question whose four baseline chunks all come from other NDAs (DRM@4 = 1 in
            # results/methods-lbr-mini) while SAC and the document-aware method find its NDA: the
            # baseline's answer is flagged, the others' are not
            url = f"{server.url}/?dataset=contractnli&q=contractnli%2F912&k=4&cols={','.join(REAL_COLUMNS)}"
            _visit(page, out, shots, "compare-lbr-mini", url, _answers(3))
            _visit(page, out, shots, "map-lbr-mini", f"{server.url}/map?dataset=contractnli&k=8", PLOTS_2)
