"""Issue 41, points 1 and 2, as a property (Hypothesis): random sequences of label clicks, label keys,
note edits (of chunks and of answers), switches of the Mode, Skip and Back, and reloads, by one and
by two reviewers, through the real page (AppTest runs ``app_pages/review.py`` and its callbacks,
the write path of a browser): after every step the database holds, for every label and note, the
last value each reviewer set, and the page shows it.

AppTest alone reads a widget's value from the server, so it cannot see what the bug of point 1 was
made of: a browser that draws a widget anew (after a run without it) shows the widget's default
unless the server sends a value, and sends what it shows at the next interaction. :class:`Browser`
keeps what a browser would show, per widget, and sends that, as Chromium does.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare, state
from sac_core.dashboard import review as rv
from sac_core.dashboard.review.db import AnswerLabel, Label, ReviewAnswer, ReviewChunk, ReviewItem
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240
MODELLED = ("rv_label::", "rv_note::", "rv_alabel::", "rv_anote::", "rv_mode")
NOTES = ("", "see clause 7", "=SUM(A1)", "the other NDA")
Rows = dict[tuple[str, int], tuple[str | None, str]]  # (kind, id) → (label, note)


@dataclass
class Browser:
    """One reviewer's browser tab: the page under AppTest, and what the browser shows per widget id.

    After a run a widget shows the value the server sent (``set_value``), else what it showed
    before if it was on the page in the last run, else its default; an interaction sends every
    widget's shown value, the changed one with its new value."""

    at: AppTest
    shown: dict[str, object] = field(default_factory=dict)

    def widgets(self) -> Iterator:
        for w in itertools.chain(self.at.main.segmented_control, self.at.main.text_area):
            if w.key and w.key.startswith(MODELLED):
                yield w

    def observe(self) -> None:
        assert not self.at.exception, [e.value for e in self.at.exception]
        shown: dict[str, object] = {}
        for w in self.widgets():
            if w.proto.set_value:
                shown[w.id] = w.value
            elif w.id in self.shown:
                shown[w.id] = self.shown[w.id]
            else:
                shown[w.id] = _default(w)
        self.shown = shown

    def send(self, key: str | None = None, value: object = None, button: str | None = None) -> None:
        for w in self.widgets():
            if w.key == key:
                self.shown[w.id] = value  # the browser shows what the reviewer clicked or typed
            w.set_value(self.shown[w.id])
        if button is not None:
            self.at.button(key=button).click()
        self.at.run()
        self.observe()

    def value(self, key: str) -> object:
        return next(self.shown[w.id] for w in self.widgets() if w.key == key)

    def keys(self, prefix: str) -> list[str]:
        return [w.key for w in self.widgets() if w.key.startswith(prefix)]


def _default(w) -> object:
    """What a browser shows in a widget drawn anew: its default as sent in the element."""
    if w.type == "text_area":
        return w.proto.default
    options = rv.ANSWER_LABELS if w.key.startswith("rv_alabel::") else rv.LABELS
    return options[w.proto.default[0]] if w.proto.default else None


def _open(token: str) -> Browser:
    """A new browser tab on the Review page, opened by a reviewer's link."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    at.query_params["access"] = token
    at.run()
    browser = Browser(at)
    browser.observe()
    return browser


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, embed_cache: Path):
    """The demo corpus with Compare's indexes saved, and a review database for every example."""
    demo = state.ensure_demo_corpus(embed_cache)
    datasets = available_datasets(demo)
    settings_ = state.Settings(state.resolve_data_source("", embed_cache), embed_cache, "full", datasets, "file", 150)
    columns = compare.compare_columns(settings_.base_config())
    ws = Workspace.open(load_benchmark(demo, datasets, "full"), columns, demo, embed_cache, save=True)
    url = f"sqlite:///{tmp_path_factory.mktemp('property') / 'review.sqlite'}"
    return ws, columns, demo, url


@pytest.fixture
def page_env(monkeypatch: pytest.MonkeyPatch, embed_cache: Path, setup) -> tuple:
    url = setup[3]
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return setup


def _stored(url: str, sid: int, reviewer: str) -> Rows:
    """What the database holds for ``reviewer`` in session ``sid`` (rows with neither label nor note left out)."""
    db = rv.ReviewDB(url)
    try:
        with db.session() as s:
            chunks = s.scalars(select(Label).join(ReviewChunk).join(ReviewItem)
                               .where(Label.reviewer == reviewer, ReviewItem.session_id == sid))  # fmt: skip
            rows: Rows = {("chunk", r.chunk_id): (r.label, r.note) for r in chunks}
            answers = s.scalars(select(AnswerLabel).join(ReviewAnswer).join(ReviewItem)
                                .where(AnswerLabel.reviewer == reviewer, ReviewItem.session_id == sid))  # fmt: skip
            rows.update({("answer", r.answer_id): (r.label, r.note) for r in answers})
    finally:
        db.dispose()
    return {k: v for k, v in rows.items() if v != (None, "")}


STEP = st.tuples(
    st.integers(0, 1),  # which reviewer
    st.sampled_from(["label", "note", "answer label", "answer note", "key", "mode", "skip and back", "reload"]),
    st.integers(0, 30),  # which widget (modulo how many there are) or key
    st.integers(0, 5),  # which label (5: none, taken back) or mode
    st.sampled_from(NOTES),
)
_examples = itertools.count()


@pytest.mark.parametrize("reviewers", [1, 2])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])  # fmt: skip
@given(steps=st.lists(STEP, min_size=1, max_size=14))
def test_the_database_holds_the_last_value_each_reviewer_set(page_env, embed_cache, reviewers, steps) -> None:
    ws, columns, demo, url = page_env
    name = f"property {next(_examples)}"
    queries = rv.sample_queries(ws.bench, ws.bench.datasets, 2, 1)
    plan = rv.SessionPlan(name, "o", "demo", columns, queries, 2, 5, {}, demo)
    people = ["alice", "bob"][:reviewers]
    sid, _, links = rv.create_with_links(rv.ReviewDB(url), ws, plan, people)
    tabs = {who: _open(links[who]) for who in people}
    want: dict[str, Rows] = {who: {} for who in people}
    for who_n, kind, n, choice, text in steps:
        who = people[who_n % reviewers]
        tab, mine = tabs[who], want[who]
        db = rv.ReviewDB(url)
        view = rv.item_view(db, sid, 0, who)
        db.dispose()
        if kind in ("label", "answer label"):
            keys = tab.keys("rv_label::" if kind == "label" else "rv_alabel::")
            key = keys[n % len(keys)]
            options = rv.LABELS if kind == "label" else rv.ANSWER_LABELS
            label = None if choice >= len(options) else options[choice]
            tab.send(key, label)
            ident = ("chunk" if kind == "label" else "answer", int(key.split("::")[1]))
            mine[ident] = (label, mine.get(ident, (None, ""))[1])
        elif kind in ("note", "answer note"):
            keys = tab.keys("rv_note::" if kind == "note" else "rv_anote::")
            key = keys[n % len(keys)]
            tab.send(key, text)
            ident = ("chunk" if kind == "note" else "answer", int(key.split("::")[1]))
            mine[ident] = (mine.get(ident, (None, ""))[0], text)
        elif kind == "key":
            label = rv.LABELS[n % len(rv.LABELS)]
            target = next((c for c in view.chunks if mine.get(("chunk", c.chunk_id), (None, ""))[0] is None), None)
            if target is None:
                continue  # every chunk labelled: the keys are disabled
            tab.send(button=f"rv_key::{rv.LABELS.index(label)}")
            mine[("chunk", target.chunk_id)] = (label, mine.get(("chunk", target.chunk_id), (None, ""))[1])
        elif kind == "mode":
            tab.send("rv_mode", ["Results", "New session"][choice % 2])
            tab.send("rv_mode", "Review")
        elif kind == "skip and back":
            tab.send(button="rv_skip")
            tab.send(button="rv_back")
        else:
            tabs[who] = tab = _open(links[who])
        for person in people:
            want[person] = {k: v for k, v in want[person].items() if v != (None, "")}
            assert _stored(url, sid, person) == want[person], (person, kind)
        for key in tab.keys("rv_label::") + tab.keys("rv_note::"):  # the page shows what is stored
            label, note = mine.get(("chunk", int(key.split("::")[1])), (None, ""))
            assert tab.value(key) == (label if key.startswith("rv_label::") else note), key
