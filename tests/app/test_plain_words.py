"""Issue 36: every page reads as a lawyer expects, walked with AppTest on the demo corpus. No visible
text (markdown, captions, headings, notices, tables' column names and cells, metrics, widget labels and
options, chart legends) holds a snake_case id, a method's variant id or a path of the server."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare, state
from sac_core.dashboard import review as rv
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace

TIMEOUT = 240
APP = str(Path(__file__).resolve().parents[2] / "app.py")
TEXT_ELEMENTS = ("markdown", "caption", "title", "header", "subheader", "info", "warning", "error", "success",
                 "text", "exception")  # fmt: skip
WIDGETS = ("selectbox", "multiselect", "radio", "select_slider", "slider", "text_input", "text_area", "number_input",
           "button", "toggle", "checkbox", "segmented_control", "download_button", "expander")  # fmt: skip
SNAKE = re.compile(r"(?<![\w/.\\{-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/}-]|\.\w)")  # not {a_placeholder}
LEGALBENCH = {"contractnli", "cuad", "maud", "privacy_qa"}  # the paper's datasets, named in its table
VARIANT = re.compile(r"\bsac-(?:file|extractive|openai)-|\bbaseline\+")
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u2060"))


def _plain(value: object) -> str:
    """What a reader sees of a string: HTML tags dropped, references decoded, Markdown escapes removed."""
    text = re.sub(r"<[^>]+>", " ", str(value))
    return re.sub(r"\\(.)", r"\1", html.unescape(text)).translate(INVISIBLE)


def _frames(at: AppTest) -> list[str]:
    out = []
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        for column in frame.value.columns:
            out.append(str((config.get(str(column)) or {}).get("label") or column))
        out.extend(frame.value.astype(str).to_numpy().ravel().tolist())
    return out


def _charts(at: AppTest) -> list[str]:
    out = []
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        out.extend(str(t.get("name", "")) for t in spec["data"] if t.get("showlegend", True))
        out.extend(str(a.get("text", "")) for a in spec.get("layout", {}).get("annotations", []))
    return out


def visible_text(at: AppTest) -> list[str]:
    """Every text of the page a reader sees (tooltips, ``help=``, excepted: the ids go there)."""
    parts = [e.value for kind in TEXT_ELEMENTS for e in at.get(kind)]
    for kind in WIDGETS:
        for widget in at.get(kind):
            parts.append(getattr(widget, "label", ""))
            parts.extend(str(o) for o in (getattr(widget, "options", None) or []))
    for metric in at.metric:
        parts.extend([metric.label, metric.value, metric.delta or ""])
    parts.extend(str(p.proto.text) for p in at.get("progress"))
    return [_plain(p) for p in [*parts, *_frames(at), *_charts(at)]]


def offences(at: AppTest, allowed: set[str], paths: list[str]) -> list[str]:
    found = []
    for text in visible_text(at):
        prose = re.sub(r"`[^`]*`", "", text)  # a file format's field names in `code` are literal, not ids
        found += [f"snake_case {m!r} in {text[:120]!r}" for m in SNAKE.findall(prose) if m not in allowed]
        found += [f"variant id in {text[:120]!r}" for _ in VARIANT.findall(text)]
        found += [f"path {p!r} in {text[:120]!r}" for p in paths if p in text]
    return found


def _app(page: str | None = None, **params: str) -> AppTest:
    """A page opened with ``params`` in its URL (Compare, the first page, rewrites the URL: a page
    opened from it gets them after Compare's run, as a browser opening its address would)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page:
        for key, value in params.items():
            at.query_params[key] = value
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _review_session(cache: Path, url: str) -> dict[str, str]:
    """A session of two queries that alice finished (a label and a note on every chunk, a preference
    each); the tokens of alice's and bob's links."""
    demo = ensure_demo_corpus(cache)
    datasets = available_datasets(demo)
    settings = state.Settings(state.resolve_data_source("", cache), cache, "full", datasets, "file", 150)
    bench = load_benchmark(demo, datasets, "full")
    cols = compare.compare_columns(settings.base_config())
    ws = Workspace.open(bench, cols, demo, cache)
    db = rv.ReviewDB(url)
    plan = rv.SessionPlan("words", "alice", "demo", cols, rv.sample_queries(bench, datasets, 2, 1), 2, 5, {}, demo)
    sid = rv.create_session(db, ws, plan)
    for position in range(2):
        view = rv.item_view(db, sid, position, "alice")
        for n, (_, column) in enumerate(view.columns):
            for chunk in column:
                rv.set_label(db, chunk.chunk_id, "alice", rv.LABELS[n % len(rv.LABELS)])
                rv.set_note(db, chunk.chunk_id, "alice", "A note\non two lines.")
        rv.set_preference(db, view.item_id, "alice", rv.method_of(db, view.item_id, "A"), gold_shown=False)
    links = {name: rv.issue(db, sid, rv.REVIEWER, name) for name in ("alice", "bob")}
    db.dispose()
    return links


def _walk(name: str, env: Path, tmp_path: Path, monkeypatch) -> list[AppTest]:
    if name == "compare":
        return [_app(), _app(dataset="demo_nda", q="demo_nda/1", k="3")]
    if name == "tune":
        at = _app("app_pages/tune.py")
        at.multiselect(key="tune_datasets").set_value(["demo_nda"]).run()  # now a change against before
        return [at]
    if name == "review":
        url = f"sqlite:///{tmp_path / 'review.sqlite'}"
        monkeypatch.setenv("SAC_REVIEW_DB", url)
        token = _review_session(env, url)["alice"]
        at = _app("app_pages/review.py", access=token)
        shown = [at, _app("app_pages/review.py")]  # and without a link
        at_results = _app("app_pages/review.py", access=token)
        at_results.segmented_control(key="rv_mode").set_value("Results").run()
        new = _app("app_pages/review.py", access=token)
        new.segmented_control(key="rv_mode").set_value("New session").run()
        new.radio(key="rv_new_how").set_value("queries that flipped between two sweep cells").run()
        assert new.selectbox(key="rv_new_a").options  # the sweep's cells, by method name
        return [*shown, at_results, new]
    if name == "map":
        at = _app("app_pages/map.py")
        dataset = _app("app_pages/map.py")
        dataset.radio(key="map_colour").set_value("dataset").run()
        return [at, dataset]
    return [_app(f"app_pages/{name}.py")]


@pytest.mark.parametrize("page", ["compare", "curves", "tune", "map", "documents", "review"])
def test_every_page_speaks_plain_words(env, tmp_path, monkeypatch, page):
    allowed = LEGALBENCH | set(available_datasets(ensure_demo_corpus(env)))  # the data's own names (demo_nda) are names
    paths = [str(env), str(tmp_path), "/tmp/", "/work/", "/home/", "/root/", "sqlite:"]
    for at in _walk(page, env, tmp_path, monkeypatch):
        assert not at.exception, [e.value for e in at.exception]
        assert visible_text(at), page
        found = offences(at, allowed, paths)
        assert not found, f"{page}:\n" + "\n".join(dict.fromkeys(found))


def test_review_remembers_the_reviewer_keeps_notes_of_several_lines_and_links_the_outlined_chunk(
    env, tmp_path, monkeypatch
):
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    token = _review_session(env, url)["bob"]
    at = _app("app_pages/review.py", access=token)  # a bookmark: ?access=<bob's link>
    assert at.query_params["access"] == token and "You review as **bob**" in "".join(c.value for c in at.caption)
    page = html.unescape("".join(m.value for m in at.main.markdown))
    (target,) = re.findall(r'<a class="sac-jump" href="#([^"]+)">↓ Go to the outlined chunk \(A#1\)</a>', page)
    assert page.count(f'id="{target}"') == 1 and 'class="sac-hit sac-free sac-current" id="' + target in page
    labels = [w for w in at.segmented_control if w.key.startswith("rv_label::")]
    assert list(labels[0].options) == ["relevant", "partly", "right doc", "wrong doc", "can't tell"]  # one row
    note = next(w for w in at.text_area if w.key.startswith("rv_note::"))
    note.input("First line.\nSecond line, not cut.").run()
    assert not at.exception
    at.switch_page("app_pages/documents.py").run()
    at.switch_page("app_pages/review.py").run()  # the link outlives the page switch
    assert at.query_params["access"] == token
    assert at.text_area(key=note.key).value == "First line.\nSecond line, not cut."


def test_documents_jumps_to_a_gold_span_with_a_link_to_its_anchor(env):
    at = _app("app_pages/documents.py")
    jump = next(s for s in at.selectbox if s.key.startswith("doc_jump::"))
    jump.set_value(jump.options[1]).run()  # the first gold span
    assert not at.exception
    page = html.unescape("".join(m.value for m in at.main.markdown))
    (target,) = re.findall(r'<a class="sac-jump" href="#(sac-gold-\d+)">↓ Go to the gold span of ', page)
    assert f'<span class="sac-anchor" id="{target}"></span><span class="' in page
    table = next(d.value for d in at.dataframe if "question" in d.value.columns)
    assert not table["question"].str.startswith("Consider").any()  # the question first, the document after
