"""Each column's answer in a review session (SQLite and PostgreSQL): written once per item and method
from the column's chunks, labelled blind with notes, counted by method with agreement, exported and
imported back without loss, and a version-2 database upgraded in place."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.engine import make_url

from sac_core.dashboard import compare
from sac_core.dashboard import review as rv
from sac_core.dashboard.review.answers import store_answer
from sac_core.dashboard.review.db import (
    SCHEMA_VERSION,
    AnswerLabel,
    Base,
    Label,
    Meta,
    Preference,
    ReviewAnswer,
    ReviewItem,
)
from sac_core.engine.answers import Answer, Citation, ExtractiveAnswerer
from sac_core.engine.answers.types import cite as cite_text
from sac_core.engine.data import load_benchmark
from sac_core.engine.embedding import Embedder
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Workspace

DEMO = ("demo_nda", "demo_privacy")


@pytest.fixture(scope="module")
def workspace(demo_dir, embed_cache) -> Workspace:
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = compare.compare_columns(RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file")))
    return Workspace.open(bench, cols, demo_dir, embed_cache)


@pytest.fixture(scope="module")
def embedder(embed_cache) -> Embedder:
    return Embedder(RunConfig().model, embed_cache, backend=RunConfig().backend)


def _session(db: rv.ReviewDB, ws: Workspace, name: str = "s1", size: int = 3, k: int = 3) -> int:
    queries = rv.sample_queries(ws.bench, DEMO, size, seed=1)
    return rv.create_session(db, ws, rv.SessionPlan(name, "alice", "demo", ws.columns, queries, k, 7, {}))


def _texts(view: rv.ItemView, demo_dir: Path) -> dict[int, str]:
    return {
        c.chunk_id: rv.document_text(demo_dir, c.file_path)[c.start : c.end] for _, col in view.columns for c in col
    }


class Counting:
    """The extractive answerer, counting how often the page had to make one."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder, self.made = embedder, 0

    def __call__(self) -> ExtractiveAnswerer:
        self.made += 1
        return ExtractiveAnswerer(self.embedder)


def _answers(db, sid, position, reviewer, demo_dir, factory) -> tuple[rv.ItemView, tuple[rv.ColumnAnswer, ...]]:
    view = rv.item_view(db, sid, position, reviewer)
    return view, rv.column_answers(db, view, _texts(view, demo_dir), factory)


def test_each_column_answer_is_written_once_from_its_own_chunks_and_shared(db_url, workspace, embedder, demo_dir):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace)
    factory = Counting(embedder)
    view, answers = _answers(db, sid, 0, "alice", demo_dir, factory)
    assert factory.made == 1 and [a.letter for a in answers] == [letter for letter, _ in view.columns]
    for (_, chunks), shown in zip(view.columns, answers):
        by_label = {f"#{c.rank}": (c.file_path, c.start, c.end) for c in chunks}
        assert shown.answer.answerer == "extractive" and shown.answer.text
        for cite in shown.answer.citations:  # every citation is a chunk of this column, by its rank
            assert by_label[cite.label] == (cite.file_path, cite.start, cite.end)
            assert cite.gold_document is None  # checked only when the page shows gold
        expected = ExtractiveAnswerer(embedder).answer(
            view.query_text, rv.answers.excerpts(chunks, _texts(view, demo_dir))
        )
        assert shown.answer.text == expected.text  # what the extractive answerer says of these chunks
    assert any(a.answer.citations for a in answers)
    _, again = _answers(db, sid, 0, "bob", demo_dir, factory)  # another reviewer: the same answers, not rewritten
    assert factory.made == 1 and again == answers
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(ReviewAnswer)) == len(answers)
        order = s.get(ReviewItem, view.item_id).order
        stored = {r.id: r.method for r in s.scalars(select(ReviewAnswer))}
    assert [stored[a.answer_id] for a in answers] == order  # letter i is the method in blind position i
    assert not any(hasattr(a, "method") for a in answers)  # the page gets letters only


def test_an_answer_stored_first_is_kept(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=1)
    view = rv.item_view(db, sid, 0, "alice")
    method = workspace.columns[0].name
    store_answer(db, view.item_id, method, Answer("first [#1]", (Citation("#1", "a.txt", 0, 5),), "extractive"))
    store_answer(db, view.item_id, method, Answer("second", (), "extractive"))  # a second writer: nothing changes
    with db.session() as s:
        (row,) = s.scalars(select(ReviewAnswer))
    assert (row.text, row.citations, row.problem) == ("first [#1]", [["#1", "a.txt", 0, 5]], None)


def test_answer_labels_and_notes_are_saved_on_every_edit(db_url, workspace, embedder, demo_dir):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=1)
    _, answers = _answers(db, sid, 0, "bob", demo_dir, Counting(embedder))
    first, second = answers[0].answer_id, answers[1].answer_id
    rv.set_answer_note(db, first, "bob", "quotes the other NDA")  # a note, no label yet
    assert rv.answer_labels(db, [first, second], "bob") == {first: (None, "quotes the other NDA")}
    assert rv.progress(db, sid, "bob").answer_labels == 0
    rv.set_answer_label(db, first, "bob", "wrong_document", gold_shown=True)  # keeps the note
    rv.set_answer_label(db, second, "bob", "unsupported", "no excerpt says so")
    assert rv.answer_labels(db, [first, second], "bob") == {
        first: ("wrong_document", "quotes the other NDA"),
        second: ("unsupported", "no excerpt says so"),
    }
    assert rv.progress(db, sid, "bob").answer_labels == 2
    rv.set_answer_label(db, first, "bob", None)  # taken back: the note stays
    rv.set_answer_note(db, second, "bob", "")  # a note cleared: the label stays
    assert rv.answer_labels(db, [first, second], "bob") == {
        first: (None, "quotes the other NDA"),
        second: ("unsupported", ""),
    }
    assert rv.answer_labels(db, [first], "alice") == {}
    with pytest.raises(rv.SessionError, match="unknown answer label"):
        rv.set_answer_label(db, first, "bob", "relevant")
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(AnswerLabel)) == 2
        assert s.scalar(select(func.count()).select_from(Label)) == 0  # chunk labels are another table


def test_answers_by_method_counts_shares_and_agreement(db_url, workspace, embedder, demo_dir):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=3)
    names = [c.name for c in workspace.columns]
    by_method: dict[str, list[int]] = {}
    for position in range(3):
        view, answers = _answers(db, sid, position, "alice", demo_dir, Counting(embedder))
        for a in answers:
            by_method.setdefault(rv.method_of(db, view.item_id, a.letter), []).append(a.answer_id)
    base = by_method[names[0]]  # three answers: alice correct, correct, can't tell; bob correct, wrong, can't tell
    for answer_id, mine, theirs in zip(
        base, ("correct", "correct", "cant_tell"), ("correct", "wrong_document", "cant_tell")
    ):
        rv.set_answer_label(db, answer_id, "alice", mine)
        rv.set_answer_label(db, answer_id, "bob", theirs)
    rv.set_answer_note(db, by_method[names[1]][0], "alice", "a note only")  # judges nothing
    table = rv.answer_label_table(db, sid)
    assert len(table) == 7 and set(table["method"]) == {names[0], names[1]}
    assert table.loc[table["answer_id"] == base[0], "answer"].iloc[0]  # the answer text with every label
    result = rv.answers_by_method(table, names).set_index("method")
    row = result.loc[names[0]]
    assert (row["labels"], row["correct"], row["wrong_document"], row["unsupported"], row["cant_tell"]) == (
        6,
        3,
        1,
        0,
        2,
    )
    assert row["correct_share"] == pytest.approx(3 / 4) and row["wrong_document_share"] == pytest.approx(1 / 4)
    assert row["agreement"] == pytest.approx(2 / 3) and row["agreement_of"] == 3
    # Cohen's kappa by hand: observed 2/3; alice (correct 2/3, can't tell 1/3), bob (1/3 each of three)
    # chance = 2/3 · 1/3 + 1/3 · 1/3 = 1/3 → (2/3 − 1/3) / (1 − 1/3) = 0.5
    assert row["kappa"] == pytest.approx(0.5)
    other = result.loc[names[1]]
    assert other["labels"] == 0 and other["agreement_of"] == 0 and pd.isna(other["correct_share"])
    overall = rv.answer_agreement(table)
    assert overall == {"reviewers": 2, "answers": 3, "kappa": pytest.approx(0.5), "statistic": "Cohen's kappa"}


def test_kappa_is_undefined_not_a_warning_when_one_label_was_given_throughout():
    labels = pd.DataFrame({"answer_id": [1, 2, 1, 2], "reviewer": ["a", "a", "b", "b"], "label": ["correct"] * 4})
    result = rv.answer_agreement(labels)
    assert result["answers"] == 2 and pd.isna(result["kappa"])


def _label_everything(db, sid, demo_dir, embedder) -> None:
    for position in range(2):
        view, answers = _answers(db, sid, position, "alice", demo_dir, Counting(embedder))
        rv.set_label(db, view.chunks[0].chunk_id, "alice", "relevant")
        for a, label in zip(answers, rv.ANSWER_LABELS):
            rv.set_answer_label(db, a.answer_id, "alice", label, f'{label}, "quoted"', gold_shown=position == 1)
        rv.set_answer_label(db, answers[0].answer_id, "bob", "cant_tell")
        rv.set_answer_note(db, answers[1].answer_id, "bob", "a note without a label")
        rv.set_preference(db, view.item_id, "alice", rv.TIE)


def _without_times(content: bytes) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k != "at"} for line in content.decode().splitlines()]


def test_answers_and_their_labels_round_trip_through_an_export(db_url, workspace, embedder, demo_dir, tmp_path):
    source = rv.ReviewDB(f"sqlite:///{tmp_path / 'source.sqlite'}")
    sid = _session(source, workspace, size=2)
    _label_everything(source, sid, demo_dir, embedder)
    assert rv.export(source, "s1", tmp_path / "s1.jsonl") == rv.export(source, "s1", tmp_path / "s1.csv") == 14
    exported = _without_times((tmp_path / "s1.jsonl").read_bytes())
    answer_rows = [r for r in exported if r["kind"] == "answer_label"]
    assert len(answer_rows) == 10 and all(r["answer"] and r["method"] and r["answerer"] for r in answer_rows)
    assert any(r["citations"] for r in answer_rows) and {r["label"] for r in answer_rows} >= {*rv.ANSWER_LABELS, None}
    csv = pd.read_csv(tmp_path / "s1.csv", keep_default_na=False)
    csv_answers = csv[csv["kind"] == "answer_label"]
    assert [json.loads(c) for c in csv_answers["citations"]] == [r["citations"] for r in answer_rows]
    assert list(csv_answers["answer"]) == [r["answer"] for r in answer_rows]

    target = rv.ReviewDB(db_url)  # the same session made elsewhere: no answer written there yet
    _session(target, workspace, size=2)
    counts = rv.import_jsonl(target, tmp_path / "s1.jsonl")
    assert counts == {"labels": 2, "answer_labels": 10, "preferences": 2}
    assert _without_times(rv.export_bytes(target, "s1", "jsonl")[0]) == exported  # nothing lost
    rv.import_jsonl(target, tmp_path / "s1.jsonl")  # twice: still one row each
    with target.session() as s:
        assert s.scalar(select(func.count()).select_from(AnswerLabel)) == 10
        assert s.scalar(select(func.count()).select_from(ReviewAnswer)) == 2 * len(workspace.columns)
    changed = [dict(r, answer="another answer [#1]") if r["kind"] == "answer_label" else r for r in exported]
    (tmp_path / "changed.jsonl").write_text("".join(json.dumps(r) + "\n" for r in changed))
    with pytest.raises(rv.SessionError, match=r"changed\.jsonl, line 3: .*another answer"):
        rv.import_jsonl(target, tmp_path / "changed.jsonl")


# --------------------------------------------------------------------------- a version-2 database


def _v2_database(url: str) -> None:
    """A database as schema version 2 made it (today's tables but the answers'), with judgements."""
    engine = create_engine(make_url(url))
    tables = [t for t in Base.metadata.sorted_tables if t.name not in ("review_answers", "review_answer_labels")]
    Base.metadata.create_all(engine, tables=tables)
    t = Base.metadata.tables
    with engine.begin() as conn:
        conn.execute(t["review_meta"].insert().values(key="schema_version", value="2"))
        conn.execute(t["review_sessions"].insert().values(id=1, name="v2", created_by="a", data="demo", folder="/d",
                     methods=[{"name": "M1"}, {"name": "M2"}], k=1, seed=1, sample={}))  # fmt: skip
        conn.execute(t["review_items"].insert().values(id=1, session_id=1, position=0, query_id="q", dataset="d",
                     query_text="Which law governs?", gold=[["d/a.txt", 0, 5]], order=["M2", "M1"]))  # fmt: skip
        for chunk_id, fp, ranks in ((1, "d/a.txt", {"M1": 1}), (2, "d/b.txt", {"M2": 1})):
            conn.execute(t["review_chunks"].insert().values(id=chunk_id, item_id=1, file_path=fp, start=0, end=5,
                         ranks=ranks, gold_chars=5 if chunk_id == 1 else 0))  # fmt: skip
        conn.execute(t["review_labels"].insert().values(chunk_id=1, reviewer="alice", label="relevant", note="kept"))
        conn.execute(t["review_labels"].insert().values(chunk_id=2, reviewer="alice", label=None, note="a note"))
        conn.execute(t["review_preferences"].insert().values(item_id=1, reviewer="alice", choice="M1"))
    assert not {"review_answers", "review_answer_labels"} & set(inspect(engine).get_table_names())
    engine.dispose()


def test_a_version_2_database_is_upgraded_in_place_and_keeps_its_judgements(db_url):
    _v2_database(db_url)
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        assert s.get(Meta, "schema_version").value == SCHEMA_VERSION == "5"
        assert s.scalar(select(func.count()).select_from(Preference)) == 1
    assert {"review_answers", "review_answer_labels"} <= set(inspect(db.engine).get_table_names())
    view = rv.item_view(db, 1, 0, "alice")
    assert view.labels == {1: ("relevant", "kept"), 2: (None, "a note")} and view.preference == "B"
    texts = {1: "Delaware law.", 2: "Paris court."}
    answers = rv.column_answers(db, view, texts, lambda: FixedAnswerer())  # what version 3 adds
    rv.set_answer_label(db, answers[0].answer_id, "alice", "correct", "fine")
    assert rv.answer_labels(db, [answers[0].answer_id], "alice") == {answers[0].answer_id: ("correct", "fine")}
    assert (
        rv.answers_by_method(rv.answer_label_table(db, 1), ["M1", "M2"]).set_index("method").loc["M2", "correct"] == 1
    )
    db.dispose()
    again = rv.ReviewDB(db_url)  # opened again: nothing to upgrade, nothing lost
    assert again.sessions()[0].name == "v2" and rv.item_view(again, 1, 0, "alice").labels[1] == ("relevant", "kept")
    assert rv.answer_labels(again, [answers[0].answer_id], "alice") == {answers[0].answer_id: ("correct", "fine")}
    again.dispose()


class FixedAnswerer:
    """Quotes the first excerpt (no model: the upgrade test needs no embedding)."""

    name = "extractive"

    def answer(self, question, excerpts, *, on_text=None) -> Answer:
        first = excerpts[0]
        return Answer(f"“{first.text}” [{first.label}]", (Citation(first.label, first.file_path, first.start, first.end),),
                      self.name)  # fmt: skip


def test_the_cli_reports_exports_and_imports_answer_labels(workspace, tmp_path, capsys):
    from sac_core.cli import main

    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    db = rv.ReviewDB(url)
    sid = _session(db, workspace, size=1)
    view = rv.item_view(db, sid, 0, "alice")
    texts = {c.chunk_id: f"text of chunk {c.chunk_id}" for _, col in view.columns for c in col}
    answers = rv.column_answers(db, view, texts, lambda: FixedAnswerer())
    rv.set_answer_label(db, answers[0].answer_id, "alice", "unsupported")
    rv.set_answer_label(db, answers[0].answer_id, "bob", "unsupported")
    assert main(["review", "report", "--session", "s1", "--db", url]) == 0
    report = capsys.readouterr().out
    assert "answers by method (2 answer labels" in report and "unsupported_share" in report
    assert "answer agreement: Cohen's kappa undefined (one label throughout) over 1 answers" in report
    assert main(["review", "export", "--session", "s1", "--db", url, "--out", str(tmp_path / "x.jsonl")]) == 0
    assert main(["review", "import", str(tmp_path / "x.jsonl"), "--db", url]) == 0
    assert "imported 0 labels, 2 answer labels and 0 preferences" in capsys.readouterr().out


def test_the_answer_box_links_by_blind_letter_and_marks_citations_only_with_gold():
    answer = Answer("Delaware [#1]; Paris [#2].", (Citation("#1", "d/a.txt", 0, 5), Citation("#2", "d/b.txt", 0, 5)),
                    "extractive")  # fmt: skip
    column = rv.ColumnAnswer("B", 7, answer)
    gold = [("d/a.txt", 0, 5)]
    hidden = rv.answer_box_html(column, gold, show_gold=False)
    assert 'href="#sac-b-1"' in hidden and 'href="#sac-b-2"' in hidden and rv.card_anchor("B", 2) == "sac-b-2"
    assert "✓" not in hidden and "✗" not in hidden and "another document" not in hidden
    shown = rv.answer_box_html(column, gold, show_gold=True)
    assert (
        '[#1 ✓ <span class="sac-cite-doc">a</span>]' in shown and '[#2 ✗ <span class="sac-cite-doc">b</span>]' in shown
    )
    assert "answer cites another document" in shown and "Quotes 2 documents" in shown  # each quote names its document


class BracketAnswerer:
    """Quotes a contract sentence with its own brackets and curly marks, as the extractive answerer does."""

    name = "extractive"
    SENTENCE = "Released pursuant to SCHEDULE [1]” of the CA [#9]"

    def answer(self, question, excerpts, *, on_text=None) -> Answer:
        first = excerpts[0]
        text = f"“{self.SENTENCE}” [{first.label}]"
        return cite_text(text, excerpts, self.name, quotes=((0, len(self.SENTENCE) + 2),))


def test_a_stored_answer_keeps_its_quotations_through_the_database_and_an_export(db_url, workspace, tmp_path):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=1)
    view = rv.item_view(db, sid, 0, "alice")
    texts = {c.chunk_id: "chunk text" for _, col in view.columns for c in col}
    (first, *_) = rv.column_answers(db, view, texts, lambda: BracketAnswerer())
    assert first.answer.quotes == ((0, len(BracketAnswerer.SENTENCE) + 2),) and first.answer.problem is None
    box = rv.answer_box_html(first, view.gold, show_gold=False)
    assert box.count('<a class="sac-cite') == 1 and "Malformed" not in box  # "[1]" and "[#9]" stay text
    rv.set_answer_label(db, first.answer_id, "alice", "correct")
    rv.export(db, "s1", tmp_path / "s1.jsonl")
    (row,) = [json.loads(line) for line in (tmp_path / "s1.jsonl").read_text().splitlines()
              if json.loads(line)["kind"] == "answer_label"]  # fmt: skip
    assert row["answer_quotes"] == [[0, len(BracketAnswerer.SENTENCE) + 2]]
    target = rv.ReviewDB(f"sqlite:///{tmp_path / 'target.sqlite'}")
    _session(target, workspace, size=1)
    rv.import_jsonl(target, tmp_path / "s1.jsonl")
    again = rv.column_answers(target, rv.item_view(target, sid, 0, "alice"), texts, lambda: BracketAnswerer())
    assert again[0].answer.quotes == first.answer.quotes


def test_a_version_3_database_gets_quotes_and_shows_its_old_answers_quoted(db_url):
    _v2_database(db_url)
    engine = create_engine(make_url(db_url))
    Base.metadata.tables["review_answers"].create(engine)
    Base.metadata.tables["review_answer_labels"].create(engine)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE review_answers DROP COLUMN quotes"))  # the table as version 3 made it
        conn.execute(text("INSERT INTO review_answers (item_id, method, answerer, text, citations, at) VALUES "
                          "(1, 'M1', 'extractive', :t, :c, CURRENT_TIMESTAMP)"),
                     {"t": "“SCHEDULE [1] applies.” [#1]", "c": json.dumps([["#1", "d/a.txt", 0, 5]])})  # fmt: skip
        conn.execute(Base.metadata.tables["review_meta"].update().values(value="3"))
    engine.dispose()
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        assert s.get(Meta, "schema_version").value == SCHEMA_VERSION == "5"
    view = rv.item_view(db, 1, 0, "alice")
    answers = {a.letter: a for a in rv.column_answers(db, view, {1: "Delaware law.", 2: "Paris."}, FixedAnswerer)}
    old = next(a for a in answers.values() if a.answer.text.startswith("“SCHEDULE"))
    assert old.answer.quotes is None and old.answer.quote_spans == ((0, 23),)  # found in the text
    assert rv.answer_box_html(old, view.gold, show_gold=True).count('<a class="sac-cite') == 1
    db.dispose()
