"""Every dashboard page under Streamlit's AppTest, on the embedded demo corpus (no SAC_DATA_DIR):
it loads without exception, and its widgets change what is shown."""

from __future__ import annotations

import html
import json
import logging
import os
import re
import shutil
import time
from html import unescape
from pathlib import Path

import diskcache
from sqlalchemy import func, select
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import builds, compare, demo_picks, state
from sac_core.dashboard import review as rv
from sac_core.dashboard.review.db import AnswerLabel, Label, ReviewAnswer, ReviewChunk, ReviewItem
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets, ingest_folder, load_benchmark
from sac_core.experiments import Workspace

TIMEOUT = 240  # seconds for a run: the first one builds the demo indexes
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _app(page: str | None = None, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page:
        at.switch_page(page)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _html(at: AppTest) -> str:
    return "".join(m.value for m in at.main.markdown)


def _shown(at: AppTest) -> str:
    """The main area's text as a reader sees it: HTML references decoded."""
    return html.unescape(_html(at))


def _unmd(value: str) -> str:
    """A Markdown string as a reader sees it: backslash escapes removed, the page's style sheet (never
    shown) left out."""
    return re.sub(r"\\(.)", r"\1", re.sub(r"<style>.*?</style>", "", value, flags=re.S))


def _cards(at: AppTest) -> int:
    return _html(at).count('<div class="sac-hit ')


def _plotly(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


# --------------------------------------------------------------------------- Compare


def test_compare_loads_on_the_embedded_demo(env):
    at = _app()
    assert any("Demo corpus" in i.value for i in at.info)
    assert at.sidebar.text_input(key="sac_data_dir").value == ""
    assert _cards(at) == 3 * 4  # baseline, SAC generic, recommended × default k 4
    headings = [_unmd(m.value) for m in at.main.markdown if m.value.startswith("####")]
    assert headings[:3] == ["#### Baseline", "#### SAC generic", "#### Recommended"]  # short: one line at 1280 px
    html = _html(at)
    assert 'mark class="gold"' in html and "Gold spans" in "".join(s.value for s in at.subheader)
    assert len(at.metric) == 3 * 3  # DRM, precision, recall per index
    assert at.query_params["k"] == "4" and at.query_params["q"].startswith("demo_")


def test_compare_offers_the_clause_exemplar_column_once_built(env):
    """Issue 24's passage method is a Compare column: its background build (what the page starts when
    the column is not saved) embeds the exemplar bank once; then the page opens it without a model."""
    demo = ensure_demo_corpus(env)
    settings = state.Settings(state.resolve_data_source("", env), env, "full", available_datasets(demo), "file", 150)
    columns = compare.compare_columns(settings.base_config(), ["baseline", "doc-aware-exemplars"])
    Workspace.open(load_benchmark(demo, settings.datasets, "full"), columns, demo, env, save=True)
    at = _app(cols="baseline,doc-aware-exemplars")
    headings = [_unmd(m.value) for m in at.main.markdown if m.value.startswith("####")]
    assert headings == ["#### Baseline", "#### Document-aware, within-document ranking + clause exemplars"]
    assert _cards(at) == 2 * 4 and len(at.metric) == 2 * 3


def test_compare_k_slider_changes_the_number_of_chunks_and_the_url(env):
    at = _app()
    at.slider(key="cmp_k").set_value(2).run()
    assert _cards(at) == 3 * 2
    assert at.metric[0].label == "DRM@2"
    assert at.query_params["k"] == "2"


def test_compare_takes_the_selection_from_the_url(env):
    at = _app(dataset="demo_privacy", q="demo_privacy/4", k="3")
    assert at.selectbox(key="cmp_dataset").value == "demo_privacy"
    assert at.selectbox(key="cmp_query::demo_privacy").value == "demo_privacy/4"
    assert _cards(at) == 3 * 3
    assert "demo_privacy/4" in _shown(at)


def test_compare_opens_on_the_typical_query_and_offers_the_demo_picks(env, results_dir):
    """The default query is computed from the committed per-query results, never chosen by hand."""
    demo = ensure_demo_corpus(env)
    settings = state.Settings(state.resolve_data_source("", env), env, "full", available_datasets(demo), "file", 150)
    bench = load_benchmark(demo, settings.datasets, "full")
    cells = demo_picks.sweep_cells([results_dir], compare.compare_columns(settings.base_config()), bench)
    assert cells is not None  # the tiny demo sweep ran the default columns' setting
    found = demo_picks.picks(cells, 4)
    typical = demo_picks.default_pick(found)
    assert typical is not None
    at = _app()
    assert at.query_params["q"] == typical.query_id
    captions = " ".join(_unmd(c.value).replace("\u2060", "") for c in at.caption)  # no autolink joiners
    said = demo_picks.describe(typical.query_id, found)
    assert said and all(phrase in captions for phrase in said) and "per-query results of demo" in captions
    assert typical.change_text() in captions
    picker = at.selectbox(key="cmp_demo")
    assert picker.value is None and len(picker.options) == len(found)
    # its label is its accessible name too: plain words, no sweep name with Markdown escapes in it
    assert picker.label == "Demo query: typical, biggest gain or biggest loss against the baseline"
    loss = next((p for p in found if p.kind != "typical" and p.query_id != typical.query_id), None)
    if loss is not None:
        picker.set_value(loss).run()
        assert at.query_params["q"] == loss.query_id and at.selectbox(key="cmp_demo").value is None


def test_compare_query_selection_and_free_text(env):
    at = _app()
    first = _html(at)
    at.selectbox(key="cmp_query::demo_nda").set_value("demo_nda/9").run()
    assert at.query_params["q"] == "demo_nda/9"
    assert _html(at) != first
    at.text_input(key="cmp_text").input("Which law governs the Kestrel Aerospace agreement?").run()
    html = _html(at)
    assert "sac-free" in html and 'mark class="gold"' not in html and "✗ wrong document" not in html
    assert len(at.metric) == 0  # free text has no gold, so no metrics
    assert at.query_params["text"] == "Which law governs the Kestrel Aerospace agreement?"
    summaries = next(m.value for m in at.main.markdown if '<table class="sac-table">' in m.value)
    assert "not gold" not in summaries and "✓ gold" not in summaries  # nor in the summaries table


def test_compare_shows_the_summaries_and_their_prompts(env):
    at = _app()
    html = _html(at)
    assert '<table class="sac-table">' in html and "Mutual NDA between Acme Robotics" in _shown(at)
    prompts = [m.value for m in at.main.markdown if m.value.startswith('<div class="sac-prompt">')]
    assert len(prompts) == 1 and "{document}" in unescape(prompts[0])  # one SAC column (generic) by default


def test_no_dataset_chosen_asks_for_one(env):
    at = _app()
    at.sidebar.multiselect[0].set_value([]).run()
    assert not at.exception
    assert any("Choose at least one dataset" in w.value for w in at.warning)
    assert _cards(at) == 0


def test_openai_provider_needs_a_key_then_asks_before_spending(env, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    at = _app()
    provider = next(s for s in at.sidebar.selectbox if s.label == "Summary provider")
    provider.set_value("openai").run()
    assert not at.exception
    assert any("needs an API key" in w.value for w in at.warning)
    assert _cards(at) == 0  # nothing is built or requested
    at.sidebar.text_input(key="sac_api_key").input("sk-test-secret").run()
    assert not at.exception
    assert any("requests 36 summaries" in w.value for w in at.warning)  # 18 documents × 2 prompts
    assert any(b.label == "Request the summaries" for b in at.button)
    shown = [e.value for e in (*at.markdown, *at.warning, *at.info, *at.caption, *at.error)]
    assert all("sk-test-secret" not in str(v) for v in [*shown, *at.query_params.values()])


def test_document_markup_is_escaped_not_rendered(env, tmp_path, monkeypatch, prebuild):
    doc = (
        'MASTER AGREEMENT between Alpha Ltd and Beta Inc.\n\n<script>alert("pwned")</script> '
        "The fee is $5 or <b>$6</b>.\n\nThis Agreement is governed by the laws of Delaware.\n"
    )
    other = doc.replace("Alpha Ltd", "Gamma plc").replace("Delaware", "Texas").replace("pwned", "other")
    (tmp_path / "corpus" / "evil").mkdir(parents=True)
    (tmp_path / "corpus" / "evil" / "a.txt").write_text(doc)
    (tmp_path / "corpus" / "evil" / "b.txt").write_text(other)
    start = doc.index("<script>")
    end = doc.index("Delaware.") + len("Delaware.")
    o_start, o_end = other.index("This Agreement"), len(other.rstrip())
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "evil.json").write_text(
        json.dumps(
            {
                "tests": [
                    {
                        "query": "Which law governs the agreement between Alpha Ltd and Beta Inc.?",
                        "snippets": [{"file_path": "evil/a.txt", "span": [start, end], "answer": doc[start:end]}],
                    },
                    {
                        "query": "Which law governs the agreement between Gamma plc and Beta Inc.?",
                        "snippets": [
                            {"file_path": "evil/b.txt", "span": [o_start, o_end], "answer": other[o_start:o_end]}
                        ],
                    },
                ]
            }
        )
    )
    monkeypatch.setenv("SAC_DATA_DIR", str(tmp_path))
    prebuild(tmp_path, env, provider="extractive", protocol="lbr-mini")
    at = _app(k="2")
    assert not any("Demo corpus" in i.value for i in at.info)
    html = _html(at)
    assert _cards(at) == 3 * 2  # no summary file: baseline, SAC extractive and Recommended
    assert "<script" not in html and "<b>$6" not in html and "<b>&#36;6" not in html
    assert "&#60;script&#62;alert" in html and "&#36;5" in html
    assert '<script>alert("pwned")</script>' in _shown(at)
    at.switch_page("app_pages/documents.py")
    at.run()
    assert not at.exception
    doc_html = _html(at)
    assert "<script" not in doc_html and "&#60;script&#62;" in doc_html and 'class="sac-doc"' in doc_html


# --------------------------------------------------------------------------- Curves


def test_curves_plots_the_sweep_and_the_dataset_selector_changes_it(env):
    at = _app("app_pages/curves.py")
    charts = _plotly(at)
    assert len(charts) == 2  # curves and means over k
    lines = [t for t in charts[0]["data"] if t.get("mode") == "lines+markers"]
    assert len(lines) == 3 * 3 * 2  # metrics × (ALL, demo_nda, demo_privacy) × variants
    assert any(d.label == "Download the shown data (CSV)" for d in at.get("download_button"))
    datasets = next(m for m in at.multiselect if m.label == "Datasets" and m.key.startswith("curves_ds"))
    datasets.set_value(["ALL"]).run()
    lines = [t for t in _plotly(at)[0]["data"] if t.get("mode") == "lines+markers"]
    assert len(lines) == 3 * 1 * 2
    assert any("Significance" in s.value for s in at.subheader)
    flips = at.dataframe[-1].value
    assert {"query", "Baseline", "change"} <= set(flips.columns) and len(flips) > 0  # issue 36: names, not ids
    # issue 35: no server path in the sweep list; fractions shown as percentages like every other figure
    assert at.selectbox(key="curves_sweep").options == ["demo"]  # was "demo (/tmp/…/results/demo)"
    formats = {c: json.loads(d.proto.columns).get(c, {}).get("type_config", {}).get("format")
               for d in at.dataframe for c in d.value.columns}  # fmt: skip
    assert formats["mean of a"] == formats["mean of b"] == formats["Baseline"] == "%.1f%%"  # one decimal
    assert formats["change"] == "%+.1f pts"


def test_curves_means_table_shows_the_paper_beside_ours(env):
    at = _app("app_pages/curves.py")
    table = next(d.value for d in at.dataframe if "source" in d.value.columns)
    assert "paper SAC" in set(table["source"]) and "Baseline" in set(table["source"])


def test_curves_without_results_says_how_to_make_them(env, monkeypatch, tmp_path):
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))  # no demo sweep there either
    at = _app("app_pages/curves.py")
    assert any("sac sweep --config sweeps/lbr-mini-grid.toml" in i.value for i in at.info)
    assert any(b.label == "Run the demo sweep" for b in at.button)


# --------------------------------------------------------------------------- Tune


def test_tune_answers_a_committed_stop_at_once_without_a_model(env, monkeypatch, tmp_path):
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))  # the session cache may hold built stops (300)

    def no_model(*args, **kwargs):
        raise AssertionError("Tune created an embedder for a stop the committed results cover")

    monkeypatch.setattr("sac_core.engine.embedding.embedder.Embedder.__init__", no_model)
    at = _app("app_pages/tune.py")
    first = at.dataframe[0].value
    assert set(first["method"]) == {"Baseline", "SAC generic"} and "previous" not in first.columns
    assert any("committed" in c.value for c in at.caption)
    marks = next(c.value for c in at.caption if c.value.startswith("⚡ instant:"))  # under the chunk slider
    assert marks == "⚡ instant: 500"  # the demo sweep covers chunk 500 only
    at.select_slider(key="tune_k").set_value(4).run()
    at.multiselect(key="tune_datasets").set_value(["demo_nda"]).run()
    assert not at.exception
    diff = at.dataframe[0].value
    assert {"previous", "new", "change"} <= set(diff.columns) and diff["previous"].notna().all()
    now = next(m.value for m in at.main.markdown if m.value.startswith("**Now:**"))
    assert "queries of demo_nda" in _unmd(now) and "At k = 4" in [s.value for s in at.subheader]


def test_tune_off_the_committed_grid_offers_a_background_build(env, monkeypatch, tmp_path):
    monkeypatch.setenv(
        "SAC_CACHE_DIR", str(tmp_path / "cache")
    )  # chunk 300 not built there (the browser test builds it)
    at = _app("app_pages/tune.py")
    at.multiselect(key="tune_methods").set_value(["baseline", "sac-expert"]).run()  # the demo sweep has no SAC expert
    assert not at.exception
    assert any("not computed yet for SAC expert" in _unmd(w.value) for w in at.warning)
    assert any(b.label == "Build this setting in the background" for b in at.button)


# --------------------------------------------------------------------------- Documents


def test_documents_draws_chunks_and_the_chunk_size_changes_them(env):
    at = _app("app_pages/documents.py")
    html = _html(at)
    n_500 = html.count('<sup class="cno">')
    assert n_500 >= 2 and "gold" in html
    summaries = [c for c in at.main.markdown if '<div class="sac-context">' in c.value]
    assert len(summaries) == 2  # generic and expert
    at.number_input(key="doc_chunk").set_value(200).run()
    assert _html(at).count('<sup class="cno">') > n_500
    assert any("chunks (rcts, 200 characters" in s.value for s in at.subheader)


def test_documents_page_on_the_real_benchmark(real_data, monkeypatch, tmp_path):
    """Real LegalBench-RAG (skipped without SAC_DATA_DIR): the page needs no embeddings, only the
    benchmark, the chunker and the summary file."""
    monkeypatch.setenv("SAC_DATA_DIR", str(real_data))
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path))
    at = AppTest.from_file(str(Path(APP).parent / "app_pages" / "documents.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="doc_dataset").value == "contractnli"
    html = _html(at)
    assert html.count('<sup class="cno">') >= 2 and "gold" in html
    if (real_data / "summaries" / "llm.jsonl").is_file():
        assert len([m for m in at.main.markdown if '<div class="sac-context">' in m.value]) == 2


# --------------------------------------------------------------------------- Hardening


def _write_benchmark(root: Path, dataset: str, docs: dict[str, str], tests: list[dict]) -> Path:
    for name, text in docs.items():
        (root / "corpus" / dataset).mkdir(parents=True, exist_ok=True)
        (root / "corpus" / dataset / name).write_text(text, encoding="utf-8")
    (root / "benchmarks").mkdir(parents=True, exist_ok=True)
    (root / "benchmarks" / f"{dataset}.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return root


def _errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]  # the sidebar's too


def test_a_300_character_data_path_is_one_clear_error(env):
    at = _app()
    long = "/tmp/" + "d" * 300
    at.text_input(key="sac_data_dir").input(long).run()
    assert not at.exception
    errors = [_unmd(e) for e in _errors(at)]
    assert errors == [f"{long}: path too long ({len(long)} characters). Showing the demo corpus instead."]
    assert any("Demo corpus" in i.value for i in at.info)
    for page in ("app_pages/curves.py", "app_pages/tune.py", "app_pages/documents.py"):
        at.switch_page(page).run()
        assert not at.exception, page


def test_a_folder_outside_sac_data_root_is_refused(env, demo_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SAC_DATA_ROOT", str(tmp_path / "allowed"))
    (tmp_path / "allowed").mkdir()
    at = _app()
    dotdot = tmp_path / "allowed" / os.path.relpath(demo_dir, tmp_path / "allowed")  # allowed/../../demo
    for attempt in (str(demo_dir), str(dotdot)):
        at.text_input(key="sac_data_dir").input(attempt).run()
        assert not at.exception
        (error,) = _errors(at)
        assert "outside the folders this server may read" in _unmd(error), error
        assert any("Demo corpus" in i.value for i in at.info)


def test_sac_data_dir_outside_the_root_is_refused_too(env, demo_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SAC_DATA_ROOT", str(tmp_path))
    monkeypatch.setenv("SAC_DATA_DIR", str(demo_dir))
    at = _app()
    assert "outside the folders this server may read" in _unmd(_errors(at)[0])
    monkeypatch.setenv("SAC_DATA_ROOT", str(demo_dir.parent))
    at = _app()
    assert not _errors(at) and not any("Demo corpus" in i.value for i in at.info)


def test_tune_with_an_empty_benchmark_says_there_are_no_queries(env, tmp_path, monkeypatch):
    monkeypatch.setenv("SAC_DATA_DIR", str(_write_benchmark(tmp_path, "empty", {"a.txt": "Text."}, [])))
    at = _app("app_pages/tune.py")
    assert [w.value for w in at.warning] and "no queries" in at.warning[0].value
    assert not at.select_slider  # nothing to tune


HOSTILE = "[x](javascript:alert(1))"


def test_a_dataset_named_like_a_markdown_link_is_shown_as_it_is(env, tmp_path, monkeypatch, prebuild):
    text = "Alpha agreement.\n\nGoverning law: Delaware."
    span = [18, len(text)]
    tests = [
        {"query": "Which law?", "snippets": [{"file_path": f"{HOSTILE}/a.txt", "span": span, "answer": text[18:]}]}
    ]
    monkeypatch.setenv("SAC_DATA_DIR", str(_write_benchmark(tmp_path, HOSTILE, {"a.txt": text}, tests)))
    prebuild(tmp_path, env, provider="extractive", protocol="lbr-mini")
    at = _app()
    assert not at.exception
    label = at.selectbox(key=f"cmp_query::{HOSTILE}").label
    assert HOSTILE in _unmd(label) and "](" not in label  # shown exactly, not as a link
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception
    assert any(HOSTILE in _unmd(sb.label) and "](" not in sb.label for sb in at.selectbox)


def test_a_missing_document_is_named_exactly(env, tmp_path, monkeypatch):
    missing = f"demo_nda/{HOSTILE}.txt"
    tests = [{"query": "q", "snippets": [{"file_path": missing, "span": [0, 1], "answer": "x"}]}]
    root = _write_benchmark(tmp_path, "demo_nda", {}, tests)
    monkeypatch.setenv("SAC_DATA_DIR", str(root))
    at = _app()
    assert not at.exception
    (error,) = _errors(at)
    assert _unmd(error) == f"Could not load the benchmark: {root / 'corpus' / missing}: document not found"
    assert "](" not in error


# --------------------------------------------------------------------------- background builds


def _wait_for_builds(cache: Path, timeout: float = 1800) -> list[dict]:
    """Until every status file under the cache says done (or failed), then their contents."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = list((cache / "builds").glob("*.json"))
        statuses = [json.loads(f.read_text()) for f in files]
        if files and all(s["state"] in ("done", "failed", "cancelled") for s in statuses):
            return statuses
        time.sleep(0.3)
    raise AssertionError("the background builds did not end")


def test_compare_builds_missing_indexes_in_the_background_and_fills_in(
    env, demo_dir, tmp_path, monkeypatch, fresh_cache
):
    cache = fresh_cache  # no saved index, no embedding
    monkeypatch.setenv("SAC_CACHE_DIR", str(cache))
    monkeypatch.setenv("SAC_DATA_DIR", str(demo_dir))
    at = _app()
    assert any("Building the indexes" in i.value for i in at.info)
    assert _cards(at) == 0  # nothing is blocked on the build: the script ended
    # issue 45: the total for every column (not only the first build's time left), the one command, the demo
    total = next(i.value for i in at.info if "in all on this machine" in i.value)
    assert "3 columns wait for 2 indexes" in total  # the recommended method works on the baseline's index
    assert any(c.value.startswith(f"sac index --data {demo_dir} --protocol ") for c in at.code)
    statuses = _wait_for_builds(cache)
    assert sorted(s["state"] for s in statuses) == ["done"] * 3
    at.run()
    assert not at.exception
    assert _cards(at) == 3 * 4  # three indexes, k = 4
    assert not any("in all on this machine" in i.value for i in at.info)  # built: nothing to prepare


def test_real_data_not_prebuilt_offers_the_demo_corpus_meanwhile(env, demo_dir, tmp_path, monkeypatch):
    """Issue 45, point 12: while the real data's indexes wait to be built, one click opens the demo corpus."""
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "fresh-cache"))  # nothing built
    monkeypatch.setenv("SAC_DATA_DIR", str(demo_dir))
    monkeypatch.setattr(builds.BuildManager, "request", lambda self, job, key=None: None)  # no build is started
    at = _app()
    assert any("in all on this machine" in i.value for i in at.info)
    assert at.sidebar.text_input(key="sac_data_dir").value == str(demo_dir)
    at.button(key="sac_use_demo").click().run()
    assert not at.exception and at.sidebar.text_input(key="sac_data_dir").value == ""
    assert any("Demo corpus" in i.value for i in at.info)
    assert not any("in all on this machine" in i.value for i in at.info)  # the demo: nothing to prepare ahead


# --------------------------------------------------------------------------- your own documents


def test_ingested_documents_without_gold_answer_free_text_questions(env, demo_dir, tmp_path, monkeypatch, prebuild):
    source = tmp_path / "mine"
    source.mkdir()
    for path in sorted((demo_dir / "corpus" / "demo_nda").glob("*.txt"))[:4]:
        (source / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    data = tmp_path / "data"
    ingest_folder(source, data, "mine")
    monkeypatch.setenv("SAC_DATA_DIR", str(data))
    prebuild(data, env, provider="extractive", protocol="corpus")
    at = _app()
    assert at.selectbox(key=f"sac_protocol::{data}").value == "corpus"
    assert any("4 documents, no benchmark questions" in i.value for i in at.info)
    at.text_input(key="cmp_text").input("Which law governs the agreement?").run()
    assert not at.exception
    html = _html(at)
    assert html.count('<div class="sac-hit free sac-free" id=') == 2 * 4 and not at.metric  # no gold: no metrics
    at.switch_page("app_pages/documents.py").run()
    assert not at.exception and 'class="sac-doc"' in _html(at)


# --------------------------------------------------------------------------- Map


def test_map_draws_both_indexes_with_the_query_marked_and_separation_figures(env):
    at = _app("app_pages/map.py", q="demo_nda/1", k="3")
    assert not at.exception, [e.value for e in at.exception]
    charts = _plotly(at)
    assert len(charts) == 2  # the baseline and a SAC index
    for chart in charts:
        names = [t.get("name") for t in chart["data"]]
        assert {"gold chunks", "top-k", "the query"} <= set(names)
        assert all(t["type"] == "scattergl" for t in chart["data"])  # WebGL: 30,000 points stay responsive
    shares = {m.label: m.value for m in at.metric if m.label == "own-document neighbours"}
    assert shares and all(v.endswith("%") for v in shares.values())
    at.radio(key="map_scope").set_value("this question's").run()
    at.radio(key="map_colour").set_value("dataset").run()
    assert not at.exception and len(_plotly(at)) == 2


def test_map_offers_the_recommended_method_and_opens_on_compares_query(env):
    """Issue 45: Map offers Recommended beside the baseline (drawn on the baseline's index it ranks, its
    own top-k marked), and a fresh session opens on the same query as Compare's."""
    compare_at = _app()
    at = _app("app_pages/map.py")
    assert at.query_params["q"] == compare_at.query_params["q"]
    picker = at.selectbox(key="map_sac")
    recommended = next(o for o in picker.options if o.startswith("Recommended"))
    picker.set_value(recommended).run()
    assert not at.exception and len(_plotly(at)) == 2
    assert any(c.value.startswith("Ranks the Baseline index's chunks") for c in at.caption)


def test_map_projection_and_separation_are_kept_in_the_store(env):
    _app("app_pages/map.py")
    with diskcache.Cache(str(env / "projections")) as kept:  # the store's kind: by the vectors' digest
        assert len(kept) >= 4  # a projection and the separation figures of each of the two indexes
    assert not list(env.glob("indexes/*/projection-*")) and not list(env.glob("indexes/*/separation.json"))


def test_compare_explains_a_wrong_document_hit(env):
    at = _app(dataset="demo_nda", q="demo_nda/1", k="3")
    assert "Why this wrong document?" in [h.value for h in at.subheader]
    html = _html(at)
    assert 'table class="sac-table sac-why"' in html and "query · summary + chunk" in html
    options = at.selectbox(key="cmp_why").options
    assert options and all("#" in o for o in options)


# --------------------------------------------------------------------------- Review

METHODS = ("Baseline", "SAC generic", "Recommended")  # the default columns (issue 45)


def _review(name: str = "alice", session: str | None = None) -> AppTest:
    """The Review page through ``name``'s link to ``session`` (the newest by default), issued as its
    owner would (``name``'s earlier link stops working); the page without a link when there is no session."""
    db = rv.ReviewDB(os.environ["SAC_REVIEW_DB"])
    made = db.sessions()
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    if made:
        target = made[-1] if session is None else next(x for x in made if x.name == session)
        at.query_params["access"] = rv.issue(db, target.id, rv.REVIEWER, name)
    db.dispose()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _shown_text(at: AppTest) -> str:
    """Everything the main area writes (markdown, captions, headings, notices, widget labels and options)."""
    parts = [e.value for e in (*at.main.markdown, *at.main.caption, *at.main.subheader, *at.main.info,
                                *at.main.success, *at.main.warning)]  # fmt: skip
    parts.extend(str(p.proto.text) for p in at.main.get("progress"))
    for widget in (*at.main.selectbox, *at.main.segmented_control, *at.main.button, *at.main.text_input,
                   *at.main.text_area):  # fmt: skip
        parts.append(str(widget.label))
        parts.extend(str(o) for o in getattr(widget, "options", []) or [])
    return re.sub(r"<style>.*?</style>", "", "\n".join(parts), flags=re.S)  # the style sheet is never shown


def _finish(url: str, session: str, reviewer: str) -> None:
    """Every chunk of the session labelled and every query given a preference by ``reviewer``."""
    db = rv.ReviewDB(url)
    sid = rv.session_by_name(db, session).id
    for position in range(rv.progress(db, sid, reviewer).items):
        view = rv.item_view(db, sid, position, reviewer)
        for _, column in view.columns:
            for chunk in column:
                if view.label(chunk.chunk_id) is None:
                    rv.set_label(db, chunk.chunk_id, reviewer, "cant_tell")
        if view.preference is None:
            rv.set_preference(db, view.item_id, reviewer, rv.TIE)
    assert rv.progress(db, sid, reviewer).finished
    db.dispose()


def test_a_short_blind_review_session_and_its_resume(env, tmp_path, monkeypatch):
    monkeypatch.setenv("SAC_REVIEW_DB", f"sqlite:///{tmp_path / 'review.sqlite'}")
    owner = _review()  # no session yet: the page offers to make one
    owner.text_input(key="rv_new_name").input("demo review").run()
    owner.text_input(key="rv_new_owner").input("olga").run()
    owner.text_area(key="rv_new_reviewers").input("alice").run()
    owner.number_input(key="rv_new_size").set_value(2).run()
    owner.slider(key="rv_new_k").set_value(2).run()
    next(b for b in owner.button if b.key == "rv_create").click().run()
    assert not owner.exception, [e.value for e in owner.exception]
    links = [c.value for c in owner.main.code]  # the owner's page, with the links shown once
    assert len(links) == 2 and all("/review?access=" in link for link in links)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    at.query_params["access"] = links[1].split("access=")[1]  # alice's link
    at.run()
    text = _shown_text(at)
    assert "0 of 2 queries done" in text
    assert not [m for m in METHODS if m in text]  # blind: no method name anywhere before a preference

    labels = [w for w in at.segmented_control if w.key.startswith("rv_label::")]
    assert labels
    labels[0].set_value("relevant").run()  # by mouse
    next(b for b in at.button if b.key == "rv_key::1").click().run()  # by keyboard ("2": partly relevant)
    assert not at.exception
    stored = {_base(w.key): w.value for w in at.segmented_control if w.key.startswith("rv_label::")}
    assert list(stored.values())[:2] == ["relevant", "partly"]
    assert not [m for m in METHODS if m in _shown_text(at)]

    pref = next(w for w in at.segmented_control if w.key.startswith("rv_pref::"))
    pref.set_value("A").run()
    next(b for b in at.button if b.key.startswith("rv_save_pref::")).click().run()
    assert any("The columns were" in s.value for s in at.success)
    assert any(m in _shown_text(at) for m in METHODS)  # now revealed

    again = _review()  # a new browser session: everything was committed
    assert not again.exception
    resumed = {_base(w.key): w.value for w in again.segmented_control if w.key.startswith("rv_label::")}
    assert {k: v for k, v in resumed.items() if v} == {k: v for k, v in stored.items() if v}
    assert any("The columns were" in s.value for s in again.success)
    other = _review("bob")  # another reviewer: blind again
    assert not [m for m in METHODS if m in _shown_text(other)]

    again.segmented_control(key="rv_mode").set_value("Results").run()  # not finished: nothing by method
    assert not again.exception and len(again.dataframe) == 0 and not again.get("download_button")
    _finish(os.environ["SAC_REVIEW_DB"], "demo review", "alice")
    again.run()
    assert not again.exception and len(again.dataframe) == 3
    csv, jsonl = (d.label for d in again.get("download_button"))
    assert csv.endswith("rows (CSV)") and jsonl == csv.replace("CSV", "JSONL")


def _demo_workspace(cache: Path) -> tuple[Workspace, tuple]:
    demo = ensure_demo_corpus(cache)
    datasets = available_datasets(demo)
    settings = state.Settings(state.resolve_data_source("", cache), cache, "full", datasets, "file", 150)
    bench = load_benchmark(demo, datasets, "full")
    cols = compare.compare_columns(settings.base_config())
    return Workspace.open(bench, cols, demo, cache), cols


def _stored_labels(url: str) -> dict[int, tuple[str | None, str]]:
    db = rv.ReviewDB(url)
    with db.session() as s:
        return {r.chunk_id: (r.label, r.note) for r in s.scalars(select(Label))}


def test_review_opens_a_session_of_this_data_folder_never_another_folders(env, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    ws, cols = _demo_workspace(env)
    db = rv.ReviewDB(url)
    queries = rv.sample_queries(ws.bench, ws.bench.datasets, 2, 1)
    rv.create_session(
        db, ws, rv.SessionPlan("on the demo", "a", "demo · full", cols, queries, 2, 5, {}, folder=_demo_folder(env))
    )
    rv.create_session(
        db,
        ws,
        rv.SessionPlan(
            "on LegalBench-RAG",
            "a",
            "legalbench-rag · lbr-mini · cuad",
            cols,
            queries,
            2,
            5,
            {},
            folder=tmp_path / "legalbench-rag",
        ),
    )
    old = rv.create_session(db, ws, rv.SessionPlan("before folders", "a", "somewhere", cols, queries, 2, 5, {}))
    with db.session() as s:  # a session of schema 1 whose documents are not in this folder
        for chunk in s.scalars(select(ReviewChunk).join(ReviewItem).where(ReviewItem.session_id == old)):
            chunk.file_path = f"cuad/gone-{chunk.id}.txt"
    at = _review(session="on the demo")
    assert not at.exception and not at.error and _cards(at) > 0
    at = _review(session="on LegalBench-RAG")
    assert not at.exception and _cards(at) == 0
    assert any("made on another data folder (legalbench-rag · lbr-mini · cuad)" in _unmd(w.value) for w in at.warning)
    _finish(url, "on LegalBench-RAG", "alice")
    at.segmented_control(key="rv_mode").set_value("Results").run()  # its results can be read from here
    assert not at.exception and len(at.dataframe) == 3
    at = _review(session="before folders")
    assert not at.exception and _cards(at) == 0
    (error,) = [_unmd(e.value) for e in at.error]
    assert error.startswith("This session's documents cannot be read in the current data folder: ")
    assert "gone-" in error and "Traceback" not in error


def _demo_folder(cache: Path) -> Path:
    return ensure_demo_corpus(cache)


def _open_review_session(env: Path, tmp_path: Path, monkeypatch) -> tuple[AppTest, str]:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    ws, cols = _demo_workspace(env)
    queries = rv.sample_queries(ws.bench, ws.bench.datasets, 3, 1)
    rv.create_session(
        rv.ReviewDB(url), ws, rv.SessionPlan("notes", "a", "demo", cols, queries, 3, 5, {}, folder=_demo_folder(env))
    )
    return _review(), url


def _chunk_of(key: str) -> int:
    return int(key.split("::")[1])


def _base(key: str) -> str:
    """A Review widget's key without its generation (a new widget is drawn when the value changed elsewhere)."""
    return key.rsplit("::", 1)[0]


def _widget(widgets, base: str):
    """The widget of ``base`` (a label's, a note's …) as drawn now."""
    return next(w for w in widgets if w.key and _base(w.key) == base)


def test_review_keeps_every_note_with_or_without_a_label(env, tmp_path, monkeypatch):
    at, url = _open_review_session(env, tmp_path, monkeypatch)
    notes = [w for w in at.text_area if w.key.startswith("rv_note::")]
    first = notes[0]
    first.input("a note before any label").run()
    assert not at.exception
    assert _stored_labels(url)[_chunk_of(first.key)] == (None, "a note before any label")
    again = _review()  # a reload: the note is there
    assert again.text_area(key=first.key).value == "a note before any label"

    # a note typed on the outlined chunk, then key 1: the label is stored with the note, not an empty one
    assert _chunk_of(first.key) == _chunk_of(notes[0].key)
    again.text_area(key=first.key).input("typed, then labelled with key 1").run()
    next(b for b in again.button if b.key == "rv_key::0").click().run()
    assert not again.exception
    assert _stored_labels(url)[_chunk_of(first.key)] == ("relevant", "typed, then labelled with key 1")
    assert again.text_area(key=first.key).value == "typed, then labelled with key 1"
    assert _review().text_area(key=first.key).value == "typed, then labelled with key 1"


def test_review_gives_no_hint_which_columns_share_a_chunk(env, tmp_path, monkeypatch):
    at, url = _open_review_session(env, tmp_path, monkeypatch)
    for _ in range(3):  # every query of the session
        assert "same chunk" not in _shown_text(at).lower()
        labels = [w for w in at.segmented_control if w.key.startswith("rv_label::")]
        assert len(labels) == _cards(at)  # every card can be labelled where it is
        keys = [w.key for w in labels]
        shared = [k for k in keys if sum(_chunk_of(o) == _chunk_of(k) for o in keys) > 1]
        if shared:
            break
        next(b for b in at.button if b.key == "rv_skip").click().run()
    assert shared, "no query of the sample has a chunk two methods retrieved"
    one, other = shared[0], next(k for k in shared[1:] if _chunk_of(k) == _chunk_of(shared[0]))
    at.segmented_control(key=other).set_value("partly").run()  # labelled in its later column
    assert not at.exception
    both = [_widget(at.segmented_control, _base(k)).value for k in (one, other)]
    assert both == ["partly", "partly"]
    assert _stored_labels(url)[_chunk_of(one)][0] == "partly"  # one label for the chunk
    _widget(at.text_area, _base(one).replace("rv_label", "rv_note")).input("shared note").run()
    assert _widget(at.text_area, _base(other).replace("rv_label", "rv_note")).value == "shared note"


def _on_query(at: AppTest) -> int:
    """The query the reviewer is on (1-based), as the progress bar says."""
    (bar,) = at.main.get("progress")
    return int(re.search(r"you are on query (\d+)", bar.proto.text).group(1))


def _click(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_next_open_goes_to_the_next_open_query_of_the_same_session(env, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    ws, cols = _demo_workspace(env)
    queries = rv.sample_queries(ws.bench, ws.bench.datasets, 3, 1)
    for name in ("older", "newer"):
        plan = rv.SessionPlan(name, "a", "demo", cols, queries, 2, 5, {}, folder=_demo_folder(env))
        rv.create_session(rv.ReviewDB(url), ws, plan)
    assert _on_query(_review()) == 1  # the newer one
    at = _review(session="older")
    _click(at, "Skip ▶")
    assert _on_query(at) == 2
    _click(at, "Next open")  # an older session: stays in it, on the next open query
    assert _on_query(at) == 3 and rv.open_link(rv.ReviewDB(url), at.query_params["access"]).session == "older"
    _click(at, "Next open")  # on query 3 with queries 1 and 2 open: round to query 1
    assert _on_query(at) == 1


def test_results_by_method_stay_hidden_from_a_reviewer_still_blind(env, tmp_path, monkeypatch):
    """The leak of the issue: label a chunk only column A returned, open Results, see which method's count
    rose. Until the reviewer has finished, Results show no method at all, and say why."""
    at, url = _open_review_session(env, tmp_path, monkeypatch)
    for _ in range(3):
        labels = [w.key for w in at.segmented_control if w.key.startswith("rv_label::")]
        alone = [k for k in labels if sum(_chunk_of(o) == _chunk_of(k) for o in labels) == 1]
        if alone:
            break
        _click(at, "Skip ▶")
    at.segmented_control(key=alone[0]).set_value("relevant").run()  # a chunk only one column returned
    at.segmented_control(key="rv_mode").set_value("Results").run()
    assert not at.exception
    shown = _shown_text(at) + "".join(str(d.value) for d in at.dataframe)
    assert not [m for m in METHODS if m in shown] and len(at.dataframe) == 0  # no count by method, no export
    assert not at.get("download_button")
    (why,) = [_unmd(i.value) for i in at.main.info if "hidden" in i.value]
    assert "hidden until you have finished this session (0 of 3 queries done)" in why
    assert "which column is which method" in why
    _finish(url, "notes", "alice")  # finished: every column was revealed to alice anyway
    at.run()
    assert len(at.dataframe) == 3 and any(m in "".join(str(d.value) for d in at.dataframe) for m in METHODS)
    bob = _review("bob")  # another reviewer, still blind
    bob.segmented_control(key="rv_mode").set_value("Results").run()
    assert len(bob.dataframe) == 0 and any("0 of 3 queries done" in _unmd(i.value) for i in bob.info)


def test_review_shows_no_server_path(env, tmp_path, monkeypatch):
    at, _ = _open_review_session(env, tmp_path, monkeypatch)
    shown = _unmd(_shown_text(at))
    assert str(tmp_path) not in shown and "sqlite" not in shown and "review database" in shown


def test_a_new_session_while_an_index_builds_names_the_methods_it_would_lack(
    env, demo_dir, tmp_path, monkeypatch, fresh_cache
):
    cache = fresh_cache  # only the baseline's index saved
    monkeypatch.setenv("SAC_CACHE_DIR", str(cache))
    monkeypatch.setenv("SAC_DATA_DIR", str(demo_dir))
    monkeypatch.setenv("SAC_REVIEW_DB", f"sqlite:///{tmp_path / 'review.sqlite'}")
    datasets = available_datasets(demo_dir)
    settings = state.Settings(state.resolve_data_source(str(demo_dir), cache), cache, "lbr-mini", datasets, "file", 150)
    bench = load_benchmark(demo_dir, datasets, "lbr-mini")
    Workspace.open(bench, compare.compare_columns(settings.base_config(), ["baseline"]), demo_dir, cache, save=True)
    at = _review()  # no session yet: the page offers to make one
    assert not at.exception
    (warning,) = [_unmd(w.value) for w in at.main.warning if "Still being built" in w.value]
    assert "SAC generic" in warning and "Recommended" in warning and "reviews only the methods built" in warning
    _wait_for_builds(cache)  # leave no build running


def _stored_answer_labels(url: str) -> dict[int, tuple[str | None, str]]:
    db = rv.ReviewDB(url)
    with db.session() as s:
        return {r.answer_id: (r.label, r.note) for r in s.scalars(select(AnswerLabel))}


def test_review_labels_each_columns_answer_blind_and_results_count_it(env, tmp_path, monkeypatch):
    at, url = _open_review_session(env, tmp_path, monkeypatch)
    shown = _shown(at)  # HTML references decoded
    assert len(re.findall(r'<div class="sac-answer(?: flagged)?">', shown)) == 3  # one per column, above its chunks
    assert not [m for m in METHODS if m in _shown_text(at)]  # blind
    links = re.findall(r'href="#([^"]+)"', shown)
    assert links and all(re.fullmatch(r"sac-[a-c]-\d", a) for a in links)  # the blind letter, never a method
    assert all(shown.count(f'id="{a}"') == 1 for a in links)  # every citation leads to a card of its column
    assert "sac-cite ok" not in shown and "sac-cite bad" not in shown  # no ✓/✗ while gold is hidden
    answers = [w for w in at.segmented_control if w.key.startswith("rv_alabel::")]
    assert [w.label for w in answers] == ["Answer label of A", "Answer label of B", "Answer label of C"]
    assert list(answers[0].options) == [
        "correct", "wrong document", "unsupported by the excerpts", "can't tell"]  # fmt: skip
    first = int(answers[0].key.split("::")[1])
    _widget(at.text_area, f"rv_anote::{first}").input("a note before the label").run()
    assert _stored_answer_labels(url) == {first: (None, "a note before the label")}  # saved without a label
    at.segmented_control(key=answers[0].key).set_value("unsupported").run()
    assert not at.exception
    assert _stored_answer_labels(url) == {first: ("unsupported", "a note before the label")}
    assert not [m for m in METHODS if m in _shown_text(at)]  # labelling says nothing of the method
    at.toggle(key="rv_gold").set_value(True).run()
    shown = _shown(at)
    assert "sac-cite ok" in shown or "sac-cite bad" in shown  # with gold shown, citations are checked

    again = _review()  # a reload: the label and the note are there
    assert _widget(again.segmented_control, f"rv_alabel::{first}").value == "unsupported"
    assert _widget(again.text_area, f"rv_anote::{first}").value == "a note before the label"
    _review("bob")  # another reviewer sees the same answers: written once
    db = rv.ReviewDB(url)
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(ReviewAnswer)) == 3
        item_id = s.get(ReviewAnswer, first).item_id
    method = rv.method_of(db, item_id, "A")
    _finish(url, "notes", "alice")
    again.segmented_control(key="rv_mode").set_value("Results").run()
    assert not again.exception and len(again.dataframe) == 3
    table = again.dataframe[1].value.set_index("method")
    assert table.loc[method, "unsupported by the excerpts"] == 1 and table["labelled answers"].sum() == 1
    assert "Answers by method" in [h.value for h in again.subheader]


# --------------------------------------------------------------------------- unexpected errors


def test_an_unexpected_error_shows_a_reference_and_logs_the_traceback(env, monkeypatch, caplog):
    def broken(text: str) -> list:
        raise RuntimeError("failure inside /srv/secret/path")

    monkeypatch.setattr("sac_core.dashboard.documents.entity_rows", broken)
    caplog.set_level(logging.ERROR, logger="sac_core.dashboard")
    at = _app("app_pages/documents.py")  # no exception reaches Streamlit
    (error,) = [e.value for e in at.error]
    ref = re.search(r"reference ([0-9a-f]{8})", error).group(1)
    assert "Documents page" in error and "/srv/secret" not in error and "Traceback" not in error
    (record,) = [r for r in caplog.records if ref in r.getMessage()]
    assert record.exc_info and "failure inside /srv/secret/path" in caplog.text  # the details: in the log only
    assert any("Documents: chunks" in t.value for t in at.title)  # the page drew what it could


def test_tune_evaluates_at_once_a_setting_whose_indexes_compare_built(env, monkeypatch, tmp_path):
    cache = tmp_path / "cache"
    shutil.copytree(env / "indexes", cache / "indexes")  # Compare's three indexes at chunk 500, nothing evaluated
    monkeypatch.setenv("SAC_CACHE_DIR", str(cache))
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "no-results"))
    at = _app("app_pages/tune.py")
    assert not any("not computed yet" in w.value for w in at.warning)
    assert any("its indexes are built" in _unmd(i.value) for i in at.info)
    assert not [b for b in at.button if b.label == "Build this setting in the background"]  # nothing to ask for
    states = [s["state"] for s in _wait_for_builds(cache)]  # one evaluation per method Tune shows (and prepared stages)
    assert len(states) >= 2 and set(states) == {"done"}
    at.run()
    assert not at.exception and "At k = 8" in [s.value for s in at.subheader]
    assert any("computed here" in c.value for c in at.caption)


def test_tune_keeps_its_query_filter_when_the_data_folder_changes(env, tmp_path):
    text = "Alpha agreement.\n\nGoverning law: Delaware."
    tests = [
        {"query": "Which law?", "snippets": [{"file_path": "mine/a.txt", "span": [18, len(text)], "answer": text[18:]}]}
    ]
    other = _write_benchmark(tmp_path / "other", "mine", {"a.txt": text}, tests)
    at = _app("app_pages/tune.py")
    assert at.multiselect(key="tune_datasets").value == ["demo_nda", "demo_privacy"]
    at.text_input(key="sac_data_dir").input(str(other)).run()
    assert not at.exception
    assert at.multiselect(key="tune_datasets").value == ["mine"]
    assert not any("Choose at least one dataset" in w.value for w in at.warning)
    at.text_input(key="sac_data_dir").input("").run()  # back to the demo
    assert at.multiselect(key="tune_datasets").value == ["demo_nda", "demo_privacy"]


# --------------------------------------------------------------------------- Curves: links back to the data


def test_curves_opens_a_flipped_query_in_compare_in_the_same_session(env):
    at = _app("app_pages/curves.py")
    flips = at.dataframe[-1].value
    assert "open" not in flips.columns  # no link column: it opened a new tab on the server's default data
    pick = at.selectbox(key="curves_open_pick")
    pick.set_value(1).run()
    query_id, dataset = flips["query"].iloc[1], flips["dataset"].iloc[1]
    next(b for b in at.button if b.key == "curves_open").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=f"cmp_query::{dataset}").value == query_id  # this query, not the default one
    assert at.query_params["q"] == query_id and at.query_params["k"] == "8"
    assert _cards(at) == 3 * 8


def test_curves_links_no_query_of_a_sweep_made_on_other_data_and_prints_no_none(env, tmp_path, monkeypatch):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "lbr-mini-grid").symlink_to(Path(APP).parent / "results" / "lbr-mini-grid")
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    at = _app("app_pages/curves.py")  # on the demo corpus
    assert not at.exception
    assert not [b for b in at.button if b.key == "curves_open"]
    (caption,) = [_unmd(c.value) for c in at.caption if "needs the data this sweep ran on" in c.value]
    assert "protocol lbr-mini, datasets contractnli, cuad, maud, privacy_qa: 776 queries, 72 documents" in caption
    for frame in at.dataframe:  # the paper's rows included: a gap is a dash, never "None"
        values = frame.value.astype(str).to_numpy().ravel().tolist()
        assert "None" not in values and "nan" not in values, frame.value.head()
