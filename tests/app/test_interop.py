"""Another retriever in the dashboard: a LangChain retriever (listed by the operator) as a Compare
column and a Curves line, an imported run as a column on its own benchmark only (AppTest and
Chromium), and the shareable HTML report opened offline in Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import runs, state
from sac_core.engine.data import RunFileError, Snippet, available_datasets, load_benchmark, write_jsonl
from sac_core.experiments import RunConfig, Sweep, Workspace, catalogue_columns, run_sweep
from sac_core.experiments.html_report import render
from sac_core.experiments.run_store import remove_run
from sac_core.tooling import browser
from sac_core.tooling.browser import CHROMIUM, STEP_TIMEOUT, screenshot, settle, wait_for_count

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGCHAIN = "sac_core.engine.retrieval.langchain:example_retriever"
LISTED = f"LangChain demo={LANGCHAIN}"
KEY = "retriever:LangChain demo"


def _chromium():
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} not found although CI should have installed it", pytrace=False)
        pytest.skip(f"{CHROMIUM} not found: run `bash scripts/install_browser.sh`")
    return pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def demo(embed_cache: Path) -> Path:
    return state.ensure_demo_corpus(embed_cache)


@pytest.fixture(scope="module")
def sweep_results(demo: Path, embed_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sweep on the demo corpus with the baseline and the LangChain retriever (a Curves line each)."""
    base = RunConfig(protocol="full", datasets=available_datasets(demo))
    cells = (base, base.with_(method="retriever", options={"retriever.factory": LANGCHAIN}))
    root = tmp_path_factory.mktemp("results")
    run_sweep(Sweep("interop", cells), demo, embed_cache, root / "interop", progress=False)
    bench = load_benchmark(demo, base.datasets, "full")
    Workspace.open(
        bench, catalogue_columns(base, ["baseline"]), demo, embed_cache, save=True
    )  # Compare's baseline prebuilt
    return root


def _app(embed_cache: Path, monkeypatch: pytest.MonkeyPatch, cols: str) -> AppTest:
    for name in ("SAC_DATA_DIR", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    monkeypatch.setenv("SAC_RETRIEVERS", LISTED)
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["cols"] = cols
    at.query_params["k"] = "3"
    return at


def test_a_listed_langchain_retriever_and_an_imported_run_are_compare_columns(
    demo: Path, embed_cache: Path, sweep_results: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    s = state.Settings(
        state.resolve_data_source("", embed_cache), embed_cache, "full", available_datasets(demo), "file", 150
    )
    table = pd.read_csv(sweep_results / "interop" / "results.csv")
    cell = table.loc[table["variant"] == "baseline", "cell"].iloc[0]
    run = (sweep_results / "interop" / "runs" / f"{cell}.jsonl.gz").read_bytes()
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    done = runs.import_upload(run, "baseline.jsonl.gz", "demo-baseline", s)
    assert done.key == "run:demo-baseline" and done.results.is_file()
    assert pd.read_csv(done.results)["recall"].tolist() == table.loc[table["cell"] == cell, "recall"].tolist()
    with pytest.raises(RunFileError, match=r"bad.jsonl, line 1: field 'query_id': unknown query"):
        runs.import_upload(b'{"query_id": "nope/1", "snippets": []}\n', "bad.jsonl", "bad", s)

    at = _app(embed_cache, monkeypatch, f"baseline,{KEY},{done.key}")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    headings = [m.value for m in at.main.markdown if m.value.startswith("####")]
    assert headings == ["#### Baseline", "#### LangChain demo", "#### Run demo\\-baseline"]
    html = "".join(m.value for m in at.main.markdown)
    assert html.count('<div class="sac-hit ') == 3 * 3
    assert len(at.metric) == 3 * 3  # DRM, precision and recall against gold for every column

    # on another benchmark (one dataset only) the run is not offered, the listed retriever is
    at = _app(embed_cache, monkeypatch, f"baseline,{KEY}")
    at.run()
    at.sidebar.multiselect[0].set_value([available_datasets(demo)[0]]).run()
    assert not at.exception, [e.value for e in at.exception]
    options = at.main.multiselect[0].options
    assert "LangChain demo" in options and not any("demo-baseline" in o for o in options)
    remove_run(embed_cache, "demo-baseline")  # the session's shared cache: leave no imported run behind
    done.results.unlink()


@pytest.fixture(scope="module")
def server(embed_cache: Path, sweep_results: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"SAC_CACHE_DIR": str(embed_cache), "SAC_RESULTS_DIR": str(sweep_results), "SAC_RETRIEVERS": LISTED}
    with browser.serve(env, tmp_path_factory.mktemp("log") / "streamlit.log") as running:
        yield running.url


def test_the_langchain_retriever_in_chromium_compare_column_and_curves_line(server: str, tmp_path: Path) -> None:
    sync_api = _chromium()
    with sync_api.sync_playwright() as p, browser.chromium(p) as chrome:
        page = chrome.new_page(viewport=browser.VIEWPORT)
        page.goto(
            f"{server}/?{urlencode({'cols': f'baseline,{KEY}', 'dataset': 'demo_nda', 'q': 'demo_nda/1', 'k': 3})}"
        )
        page.wait_for_selector("mark.gold", timeout=240_000)
        wait_for_count(page, ".sac-hit", 2 * 3)  # each column appears when it is ready
        main = page.locator('[data-testid="stMain"]')
        assert main.get_by_role("heading", name="LangChain demo").count() == 1
        screenshot(page, tmp_path / "compare-langchain.png")
        page.goto(f"{server}/curves")
        page.wait_for_selector(".js-plotly-plot", timeout=STEP_TIMEOUT)
        settle(page)
        legend = page.locator(".js-plotly-plot .legendtext").evaluate_all("els => els.map(e => e.textContent)")
        assert "Baseline" in legend and "LangChain demo" in legend, legend  # human names; ids in the tooltips
        screenshot(page, tmp_path / "curves-langchain.png")


def test_the_import_panel_names_its_file_and_forgets_it_once_imported(
    server: str, demo: Path, embed_cache: Path, tmp_path: Path
) -> None:
    """Issue 35: the name comes from the file; the button says which file it imports; after an import
    the uploader is empty, so a file the uploader then refuses (70 MB) leaves nothing to import."""
    sync_api = _chromium()
    bench = load_benchmark(demo, available_datasets(demo), "full")
    run = {q.query_id: [Snippet(s.file_path, s.start, s.end) for s in q.gold] for q in bench.queries}
    good, big = tmp_path / "my run.jsonl", tmp_path / "big.jsonl"
    good.write_text(write_jsonl({q.query_id: q for q in bench.queries}, run), encoding="utf-8")
    big.write_bytes(b"x" * (70 * 1024 * 1024))
    with sync_api.sync_playwright() as p, browser.chromium(p) as chrome:
        page = chrome.new_page(viewport=browser.VIEWPORT)
        page.goto(f"{server}/?{urlencode({'cols': f'baseline,{KEY}', 'k': 3})}")
        wait_for_count(page, ".sac-hit", 2 * 3)
        page.get_by_text("Import a run").click()
        files = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
        name = page.get_by_role("textbox", name="Name")
        files.set_input_files(str(good))
        page.wait_for_function("() => [...document.querySelectorAll('input[aria-label=Name]')].some(e => e.value)")
        assert name.input_value() == "my-run"  # from the file's name
        button = page.get_by_role("button", name="Import and score")
        assert button.inner_text() == f"Import and score my run.jsonl ({good.stat().st_size / 1024:.1f} KB) as my-run"
        button.click()
        page.get_by_text("Imported my-run: 66 queries (full)").wait_for(timeout=240_000)
        settle(page)
        assert name.input_value() == "" and button.is_disabled() and button.inner_text() == "Import and score"
        files.set_input_files(str(big))
        page.get_by_text("File must be 64.0MB or smaller").wait_for(timeout=STEP_TIMEOUT)
        settle(page)
        assert button.is_disabled() and name.input_value() == ""  # the imported file is not offered again
        screenshot(page, tmp_path / "import-refused.png")
    remove_run(embed_cache, "my-run")  # the session's shared cache: leave no imported run behind
    (runs.demo_results_root(embed_cache) / runs.IMPORTED / "my-run.csv").unlink()


def test_the_html_report_renders_offline_and_fetches_nothing(sweep_results: Path, tmp_path: Path) -> None:
    sync_api = _chromium()
    table = pd.read_csv(sweep_results / "interop" / "results.csv")
    sig = pd.read_csv(sweep_results / "interop" / "significance.csv")
    path = tmp_path / "report.html"
    path.write_text(render(table, significance=sig, title="<b>demo</b> report"), encoding="utf-8")
    requests: list[str] = []
    with sync_api.sync_playwright() as p, browser.chromium(p) as chrome:
        context = chrome.new_context(viewport=browser.VIEWPORT, offline=True)
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=STEP_TIMEOUT)
        for section in ("curves", "means", "lbr", "at-k", "significance", "examples"):
            assert page.locator(f"#{section}").is_visible(), section
        assert page.locator(".js-plotly-plot .scatterlayer .trace").count() >= 2
        assert page.locator("h1").inner_text() == "<b>demo</b> report"  # a title from data stays text
        page.screenshot(path=str(tmp_path / "report.png"))
    assert requests == [path.as_uri()]
