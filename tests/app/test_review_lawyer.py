"""Issue 45, the lawyer's points 5–7, under AppTest on the demo corpus: any Compare column can be
reviewed (Recommended included), a blind answer arrives unjudged, and a finished session says so and
reads in words with the reviewer's notes beside them."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare, state
from sac_core.dashboard import review as rv
from sac_core.dashboard.answers import sources
from sac_core.dashboard.text import WORD_JOINER
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240


def _page(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _wait_for_builds(cache: Path, timeout: float = 600) -> None:
    """Until every build status under the cache says it has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = [json.loads(f.read_text()) for f in (cache / "builds").glob("*.json")]
        if all(s["state"] in ("done", "failed", "cancelled") for s in statuses):
            return
        time.sleep(0.5)
    raise AssertionError("the background builds did not end")


def _session(cache: Path, url: str, size: int, keys: tuple[str, ...] | None = None, k: int = 2):
    demo = state.ensure_demo_corpus(cache)
    datasets = available_datasets(demo)
    settings = state.Settings(state.resolve_data_source("", cache), cache, "full", datasets, "file", 150)
    cols = compare.compare_columns(settings.base_config(), keys)
    ws = Workspace.open(load_benchmark(demo, datasets, "full"), cols, demo, cache, save=True)
    plan = rv.SessionPlan("lawyer", "olga", "demo", cols, rv.sample_queries(ws.bench, datasets, size, 3), k, 5, {},
                          demo)  # fmt: skip
    return rv.create_with_links(rv.ReviewDB(url), ws, plan, ["lena"])


def test_point_5_any_compare_column_can_be_reviewed_recommended_included(env, tmp_path, monkeypatch) -> None:
    """New session offered only the columns Compare showed (then Baseline, SAC generic, SAC expert by default)."""
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    at = _page()  # no link: a new session
    methods = at.multiselect(key="rv_new_methods")
    base = state.Settings(state.resolve_data_source("", env), env, "full", ("demo_nda", "demo_privacy"), "file", 150)
    choices = compare.method_choices(base.base_config())
    assert set(methods.options) >= set(choices.values())  # every Compare column, by name
    recommended = next(k for k in choices if k == "recommended")
    methods.set_value(["baseline", recommended]).run()
    _wait_for_builds(env)  # Recommended's index, built in the background when not built yet
    at.run()
    at.text_input(key="rv_new_name").input("with recommended").run()
    at.text_input(key="rv_new_owner").input("olga").run()
    at.number_input(key="rv_new_size").set_value(2).run()
    next(b for b in at.button if b.key == "rv_create").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (session,) = rv.ReviewDB(url).sessions()
    assert [m["name"] for m in session.methods] == [choices["baseline"], choices[recommended]]


def test_point_6_a_blind_answer_arrives_without_a_verdict(env, tmp_path, monkeypatch) -> None:
    """ "⚠ Quotes 3 documents: …" told the reviewer what to think of a column before they judged it."""
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, links = _session(env, url, 6, k=4)
    at = _page(access=links["lena"])
    db = rv.ReviewDB(url)
    judged = 0  # answers that carry a verdict once the columns are revealed
    for position in range(6):
        view = rv.item_view(db, sid, position, "lena")
        page = html.unescape("".join(m.value for m in at.main.markdown))
        boxes = re.findall(r'<div class="sac-answer[^"]*">.*?</div></div>', page, flags=re.S)
        assert len(boxes) == len(view.columns)
        for box in boxes:
            assert "⚠" not in box and "sac-badge" not in box and "flagged" not in box, box
        stored = rv.column_answers(db, view, {}, lambda: None)  # written when the page opened the query
        judged += sum(bool(sources(a.answer, ())) or a.answer.problem is not None for a in stored)
        next(b for b in at.button if b.key == "rv_skip").click().run() if position < 5 else None
    assert judged, "no answer of the sample would have carried a verdict: the test shows nothing"
    pref = next(w for w in at.segmented_control if w.key.startswith("rv_pref::"))
    pref.set_value("A").run()
    next(b for b in at.button if b.key.startswith("rv_save_pref::")).click().run()
    assert any("The columns were" in s.value for s in at.success)  # revealed: verdicts may show again


def _finish_but_one_preference(url: str, sid: int, who: str) -> None:
    """Every chunk of the session labelled with a note, every answer labelled, every preference given
    but the last query's."""
    db = rv.ReviewDB(url)
    items = rv.progress(db, sid, who).items
    for position in range(items):
        view = rv.item_view(db, sid, position, who)
        for n, chunk in enumerate(view.chunks):
            rv.set_label(db, chunk.chunk_id, who, rv.LABELS[n % len(rv.LABELS)], f"note {position}.{n}")
        for answer in rv.column_answers(db, view, {c.chunk_id: "x" for c in view.chunks}, _extractive):
            rv.set_answer_label(db, answer.answer_id, who, "correct", "answers the question")
        if position < items - 1:
            rv.set_preference(db, view.item_id, who, rv.method_of(db, view.item_id, "A"))


def _extractive():
    from sac_core.engine.answers import Answer

    class Fixed:
        def answer(self, question, excerpts):
            return Answer("It says so [#1].", (), "extractive")

    return Fixed()


def test_point_7_a_lawyer_finishes_and_reads_the_results_in_words_with_the_notes(env, tmp_path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, links = _session(env, url, 3)
    at = _page(access=links["lena"])  # answers written as a reviewer opens each query
    for _ in range(2):
        next(b for b in at.button if b.key == "rv_skip").click().run()
    _finish_but_one_preference(url, sid, "lena")
    at = _page(access=links["lena"])  # resumes on the last open query: the third
    assert not any("finished this session" in _unmd(s.value) for s in at.success)
    # the preference and the way on are at the bottom: nothing to scroll back up for
    keys = [b.key for b in at.main.button]
    assert keys.index(next(k for k in keys if k.startswith("rv_save_pref::"))) < keys.index("rv_next_open_bottom")
    at.segmented_control(key=next(w.key for w in at.segmented_control if w.key.startswith("rv_pref::"))).set_value(
        "B"
    ).run()
    next(b for b in at.button if b.key.startswith("rv_save_pref::")).click().run()
    (done,) = [_unmd(s.value) for s in at.main.success if "finished this session" in _unmd(s.value)]
    assert "You have finished this session: all 3 queries" in done
    next(b for b in at.button if b.key == "rv_to_results").click().run()
    assert not at.exception, [e.value for e in at.exception]
    words = "\n".join(_unmd(m.value) for m in at.main.markdown)
    session = rv.ReviewDB(url).sessions()[0]
    for method in (m["name"] for m in session.methods):
        assert f"{method}: You labelled" in words and "You preferred its column on" in words
    assert "with 95 % confidence between" in words and "± half" not in words and "0.0 %" not in words
    (notes,) = [t.value for t in at.main.table]
    notes = notes.map(_unmd)  # each cell escaped for st.table, which reads Markdown
    assert "note 0.0" in set(notes["note"]) and "answers the question" in set(notes["note"])
    assert any(on.startswith("a chunk of ") and "(#" in on for on in notes["on"])
    assert "right document, wrong passage" in set(notes["label"])
    rows = [json.loads(line) for line in rv.export_bytes(rv.ReviewDB(url), "lawyer", "jsonl", "lena")[0].splitlines()]
    labelled = [r for r in rows if r["kind"] == "label"]
    assert {r["label_in_words"] for r in labelled} >= {"right document, wrong passage", "relevant"}
    assert all(re.fullmatch(r".+ \(#\d+\)( and .+ \(#\d+\))*|.+(, .+)* and .+", r["retrieved_by"]) for r in labelled)


def test_point_5_the_columns_chosen_on_compare_are_offered_first(env, tmp_path, monkeypatch) -> None:
    """The form took Compare's columns from a widget's key, which a page switch drops: it offered the
    default columns whatever Compare showed."""
    monkeypatch.setenv("SAC_REVIEW_DB", f"sqlite:///{tmp_path / 'review.sqlite'}")
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["cols"] = "baseline,recommended"
    at.run()
    _wait_for_builds(env)
    at.switch_page("app_pages/review.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="rv_new_methods").value == ["baseline", "recommended"]


MARKDOWN = MarkdownIt("commonmark").enable(["table", "strikethrough"])  # what st.table reads in each cell
HOSTILE = "3. see **clause 7** of [the other NDA](https://evil.example/x)"


def _as_shown(cell: str) -> tuple[set[str], str]:
    """(the tags, the text a reader sees) of a table cell rendered as Markdown, as st.table renders it."""
    rendered = MARKDOWN.render(cell)
    text = html.unescape(re.sub(r"<[^>]+>", "", rendered)).replace(WORD_JOINER, "").strip()
    return set(re.findall(r"<([a-z0-9]+)", rendered)), text


def test_point_7_the_notes_read_as_typed_not_as_markdown(env, tmp_path, monkeypatch) -> None:
    """st.table renders each cell as Markdown: every "N. question" of the notes became a numbered list
    (at 1280 px "10." lost its first digit, the number itself was no text), and a reviewer's note with
    [a link](…) became a link, **…** bold (issue 45 lawyer's session on real data)."""
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, links = _session(env, url, 2)
    at = _page(access=links["lena"])  # answers written as a reviewer opens each query
    next(b for b in at.button if b.key == "rv_skip").click().run()
    _finish_but_one_preference(url, sid, "lena")
    db = rv.ReviewDB(url)
    rv.set_note(db, rv.item_view(db, sid, 0, "lena").chunks[0].chunk_id, "lena", HOSTILE)
    last = rv.item_view(db, sid, 1, "lena")
    rv.set_preference(db, last.item_id, "lena", rv.method_of(db, last.item_id, "A"))
    at = _page(access=links["lena"])
    next(b for b in at.button if b.key == "rv_to_results").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = at.main.table
    shown = {column: [_as_shown(str(cell)) for cell in table.value[column]] for column in table.value.columns}
    assert all(tags <= {"p"} for cells in shown.values() for tags, _ in cells), shown  # no list, link or bold
    notes = [text for _, text in shown["note"]]
    assert HOSTILE in notes and "note 0.1" in notes, notes
    questions = [text for _, text in shown["query"]]
    assert {q.split(". ", 1)[0] for q in questions} == {"1", "2"}, questions  # the query's number is text
