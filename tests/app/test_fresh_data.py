"""Issue 31 in the dashboard: a reworded question or a document edited at the same length is never
answered from what was computed before (Compare and Tune under AppTest, on a copy of the demo)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import tune
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import OpenContext, RunConfig
from sac_core.experiments.cells import CellCache
from sac_core.experiments.sweep import evaluate_cell

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240


@pytest.fixture
def data(demo_dir: Path, tmp_path: Path, monkeypatch, prebuild) -> Path:
    """A copy of the demo as the sidebar's data folder, with Compare's indexes saved in a cache of its own."""
    copy = shutil.copytree(demo_dir, tmp_path / "data")
    monkeypatch.setenv("SAC_DATA_DIR", str(copy))
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "no-results"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    prebuild(copy, tmp_path / "cache", protocol="lbr-mini")
    return copy


def _reword_first_question(data: Path) -> str:
    path = data / "benchmarks" / "demo_nda.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    raw["tests"][0]["query"] = raw["tests"][0]["query"].rstrip("?") + ", put plainly?"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return raw["tests"][0]["query"]


def _edit_near_the_gold_span(data: Path, query_index: int) -> tuple[str, str]:
    """Reverse one word of the text just after a demo NDA query's gold span (shown with it on
    Compare; the span itself, hence its answer, unchanged): the document keeps its length."""
    raw = json.loads((data / "benchmarks" / "demo_nda.json").read_text(encoding="utf-8"))
    snippet = raw["tests"][query_index]["snippets"][0]
    path = data / "corpus" / snippet["file_path"]
    text = path.read_text(encoding="utf-8")
    end = snippet["span"][1]
    match = next(m for m in re.finditer(r"[A-Za-z]{6,}", text[end : end + 250]) if m.group() != m.group()[::-1])
    at = end + match.start()
    word = match.group()
    path.write_text(text[:at] + word[::-1] + text[at + len(word) :], encoding="utf-8")
    return word, word[::-1]


def _app(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _html(at: AppTest) -> str:
    return "".join(m.value for m in at.main.markdown)


def test_compare_shows_the_reworded_question_and_never_an_edited_documents_old_chunks(data, prebuild, tmp_path):
    at = _app(q="demo_nda/0", k="4")
    assert "put plainly" not in _html(at)
    _reword_first_question(data)
    at.run()
    assert not at.exception
    assert "put plainly" in _html(at)  # the question asked is the reworded one, retrieved anew
    word, reversed_word = _edit_near_the_gold_span(data, 0)
    assert word in _html(at)
    at.run()
    assert not at.exception
    # the saved indexes no longer match the documents: the page builds them anew, it shows no old chunk
    assert any("Building the indexes this page needs" in i.value for i in at.info)
    assert 'class="sac-hit' not in _html(at)
    prebuild(data, tmp_path / "cache", protocol="lbr-mini")  # as `sac index` (or the build) saves them
    at.run()
    assert not at.exception
    assert reversed_word in _html(at) and 'class="sac-hit' in _html(at)


def test_tune_recomputes_a_setting_after_a_reworded_question(data, tmp_path):
    cache = tmp_path / "cache"
    bench = load_benchmark(data, available_datasets(data), "lbr-mini")
    setting = tune.TuneSetting()
    base = RunConfig(protocol="lbr-mini", datasets=available_datasets(data))
    with CellCache(cache) as cells:  # the setting computed before, as a background build does
        for config in setting.variants(base).values():
            cells.put(evaluate_cell(config, OpenContext.new(bench, data, cache)))
    at = _app()
    at.switch_page("app_pages/tune.py")
    at.run()
    assert not at.exception
    assert any("computed here" in c.value for c in at.caption)
    _reword_first_question(data)
    at.run()
    assert not at.exception
    # the old cells were made from other questions: not shown; the setting is evaluated anew
    assert not any("computed here" in c.value for c in at.caption)
    said = [w.value for w in at.warning] + [i.value for i in at.info]
    assert any("not computed yet" in x or "evaluating every query on them now" in x for x in said), said


def test_compare_opens_sac_anew_after_an_edited_summary_file(data, prebuild, tmp_path):
    """The summaries are not part of the questions or documents: an edited summary file still makes
    SAC's saved index stale (its chunks embed the summaries), and Compare does not keep the ranker
    it opened before."""
    at = _app(q="demo_nda/0", k="4", cols="baseline,sac-generic")
    assert 'class="sac-hit' in _html(at)
    assert not any("Building the indexes this page needs" in i.value for i in at.info)
    path = data / "summaries" / "llm.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        row["summary"] = "Corrected: " + row["summary"]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    at.run()
    assert not at.exception
    assert any("Building the indexes this page needs" in i.value for i in at.info)
