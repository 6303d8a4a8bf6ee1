"""The review storage on SQLite and on a real PostgreSQL server: sessions, blind order, judgements
committed at once and exactly once (also under 8 concurrent writers), results, export and import."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import MetaData, Table, UniqueConstraint, create_engine, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from sac_core.dashboard import compare
from sac_core.dashboard import review as rv
from sac_core.dashboard.review.db import SCHEMA_VERSION, Base, Label, Meta, Preference, ReviewChunk, ReviewItem
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Workspace

DEMO = ("demo_nda", "demo_privacy")


@pytest.fixture(scope="module")
def workspace(demo_dir, embed_cache) -> Workspace:
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = compare.compare_columns(RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file")))
    return Workspace.open(bench, cols, demo_dir, embed_cache)


def _session(db: rv.ReviewDB, ws: Workspace, name: str = "s1", size: int = 5, k: int = 3) -> int:
    queries = rv.sample_queries(ws.bench, DEMO, size, seed=1)
    sample = {"datasets": list(DEMO), "size": size, "seed": 1}
    return rv.create_session(db, ws, rv.SessionPlan(name, "alice", "demo", ws.columns, queries, k, 7, sample))


def test_a_session_stores_every_query_with_a_reproducible_blind_order(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace)
    names = [c.name for c in workspace.columns]
    with db.session() as s:
        items = list(s.scalars(select(ReviewItem).where(ReviewItem.session_id == sid).order_by(ReviewItem.position)))
        assert len(items) == 5
        for item in items:
            assert item.order == rv.blind_order(7, item.query_id, names)  # from the seed, nothing else
            chunks = list(s.scalars(select(ReviewChunk).where(ReviewChunk.item_id == item.id)))
            assert len({(c.file_path, c.start, c.end) for c in chunks}) == len(chunks)  # each chunk once
            assert all(1 <= r <= 3 for c in chunks for r in c.ranks.values())
        shared = [c for item in items for c in s.scalars(select(ReviewChunk).where(ReviewChunk.item_id == item.id))
                  if len(c.ranks) > 1]  # fmt: skip
    assert shared  # SAC generic and SAC expert often retrieve the same chunk: stored and labelled once
    assert len({tuple(i.order) for i in items}) > 1  # the order changes from query to query
    with pytest.raises(rv.SessionError, match="exists already"):
        _session(db, workspace)


def test_the_blind_order_is_hidden_until_a_preference_is_given(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace)
    view = rv.item_view(db, sid, 0, "bob")
    assert [letter for letter, _ in view.columns] == ["A", "B", "C"] and view.methods is None
    assert all(isinstance(c.chunk_id, int) for _, chunks in view.columns for c in chunks)
    repeats = [c for _, chunks in view.columns for c in chunks if c.first is not None]
    assert all(r.first and r.first[0] in "ABC" for r in repeats)  # "same chunk as B#2": labelled there
    rv.set_preference(db, view.item_id, "bob", rv.TIE)
    after = rv.item_view(db, sid, 0, "bob")
    assert after.preference == rv.TIE and set(after.methods.values()) == {c.name for c in workspace.columns}
    assert rv.item_view(db, sid, 0, "carol").methods is None  # another reviewer still sees letters only


def test_a_judgement_is_one_row_updated_in_place(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace)
    view = rv.item_view(db, sid, 0, "bob")
    chunk = view.chunks[0]
    rv.set_label(db, chunk.chunk_id, "bob", "relevant", "first look")
    rv.set_label(db, chunk.chunk_id, "bob", "wrong_document", "second look", gold_shown=True)
    with db.session() as s:
        rows = list(s.scalars(select(Label).where(Label.chunk_id == chunk.chunk_id)))
    assert [(r.label, r.note, r.gold_shown) for r in rows] == [("wrong_document", "second look", True)]
    with pytest.raises(rv.SessionError, match="unknown label"):
        rv.set_label(db, chunk.chunk_id, "bob", "great")
    with pytest.raises(rv.SessionError, match="not a column"):
        rv.set_preference(db, view.item_id, "bob", "SAC nonexistent")
    progress = rv.progress(db, sid, "bob")
    assert (progress.items, progress.done, progress.labels, progress.next_open) == (5, 0, 1, 0)


def test_eight_concurrent_writers_store_every_label_exactly_once(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=3, k=2)
    chunks = [c.chunk_id for pos in range(3) for c in rv.item_view(db, sid, pos, "x").chunks]
    last: dict[tuple[str, int], str] = {}
    errors: list[BaseException] = []
    deadline = time.monotonic() + 4.0

    def writer(n: int) -> None:
        reviewer, i = f"reviewer-{n}", 0
        try:
            while time.monotonic() < deadline or i < len(chunks):  # at least one full pass each
                chunk = chunks[i % len(chunks)]
                label = rv.LABELS[(i + n) % len(rv.LABELS)]
                rv.set_label(db, chunk, reviewer, label)
                last[(reviewer, chunk)] = label
                i += 1
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    with db.session() as s:
        stored = {(r.reviewer, r.chunk_id): r.label for r in s.scalars(select(Label))}
    assert stored == last  # 8 × every chunk, each exactly once, each the writer's last word


def test_results_by_method_win_rates_and_agreement(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=4)
    names = [c.name for c in workspace.columns]
    for position in range(4):
        view = rv.item_view(db, sid, position, "alice")
        for n, chunk in enumerate(view.chunks):
            rv.set_label(db, chunk.chunk_id, "alice", "relevant" if n % 2 == 0 else "wrong_document")
            rv.set_label(db, chunk.chunk_id, "bob", "relevant" if n % 3 == 0 else "wrong_document")
        rv.set_preference(db, view.item_id, "alice", names[1] if position < 3 else rv.TIE)
    labels = rv.label_table(db, sid)
    table = rv.by_method(labels, names).set_index("method")
    mine = labels[[names[0] in r for r in labels["ranks"]]]
    assert table.loc[names[0], "labels"] == len(mine)
    expected = (mine["label"] == "relevant").mean()
    assert table.loc[names[0], "judged_relevant"] == pytest.approx(expected)
    chars = (mine["end"] - mine["start"]).sum()
    assert table.loc[names[0], "gold_precision"] == pytest.approx(mine["gold_chars"].sum() / chars)
    wins = rv.win_rates(rv.preference_table(db, sid), names).set_index("choice")
    assert wins.loc[names[1], "wins"] == 3 and wins.loc[rv.TIE, "wins"] == 1 and wins.loc[names[1], "of"] == 4
    assert wins.loc[names[1], "ci_low"] < 0.75 < wins.loc[names[1], "ci_high"]
    agree = rv.agreement(labels)
    assert agree["statistic"] == "Cohen's kappa" and agree["chunks"] == labels["chunk_id"].nunique()


def test_kappa_by_hand():
    labels = pd.DataFrame({
        "chunk_id": [1, 2, 3, 4] * 2,
        "reviewer": ["a"] * 4 + ["b"] * 4,
        "label": ["relevant", "relevant", "wrong_document", "wrong_document",
                  "relevant", "wrong_document", "wrong_document", "wrong_document"],
    })  # fmt: skip
    # observed agreement 3/4; chance (0.5 · 0.25 + 0.5 · 0.75) = 1/2 → kappa (0.75 - 0.5) / 0.5 = 0.5
    assert rv.agreement(labels)["kappa"] == pytest.approx(0.5)
    three = pd.concat([labels, labels[labels.reviewer == "a"].assign(reviewer="c")])
    fleiss = rv.agreement(three)
    assert fleiss["statistic"] == "Fleiss' kappa" and fleiss["reviewers"] == 3 and -1 <= fleiss["kappa"] <= 1


def test_export_and_import_without_duplicates(db_url, workspace, tmp_path):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=2)
    view = rv.item_view(db, sid, 0, "alice")
    rv.set_label(db, view.chunks[0].chunk_id, "alice", "partly", 'a "quoted" note, with commas')
    rv.set_preference(db, view.item_id, "alice", workspace.columns[0].name)
    assert rv.export(db, "s1", tmp_path / "s1.jsonl") == 2
    assert rv.export(db, "s1", tmp_path / "s1.csv") == 2
    rows = [json.loads(line) for line in (tmp_path / "s1.jsonl").read_text().splitlines()]
    assert rows[0]["kind"] == "label" and rows[0]["label"] == "partly" and rows[0]["reviewer"] == "alice"
    assert rows[0]["file_path"] == view.chunks[0].file_path and rows[0]["query_id"] == view.query_id
    assert pd.read_csv(tmp_path / "s1.csv")["note"].iloc[0] == 'a "quoted" note, with commas'
    assert rv.import_jsonl(db, tmp_path / "s1.jsonl") == {"labels": 1, "answer_labels": 0, "preferences": 1}
    rv.import_jsonl(db, tmp_path / "s1.jsonl")  # twice: still one row each
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Label)) == 1
        assert s.scalar(select(func.count()).select_from(Preference)) == 1
    (tmp_path / "bad.jsonl").write_text('{"kind": "label", "session": "s1", "query_id": "nope"}\n')
    with pytest.raises(rv.SessionError, match=r"bad\.jsonl, line 1"):
        rv.import_jsonl(db, tmp_path / "bad.jsonl")


def test_another_schema_version_is_refused_clearly(db_url):
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        s.get(Meta, "schema_version").value = "0"
    db.dispose()
    with pytest.raises(rv.ReviewError, match="schema version 0"):
        rv.ReviewDB(db_url)


def test_the_password_never_shows(clean_postgres):
    postgres_url = clean_postgres
    password = postgres_url.split(":")[2].split("@")[0]
    assert password not in rv.safe_url(postgres_url) and "***" in rv.safe_url(postgres_url)
    wrong = postgres_url.replace(password, "not-the-" + password)
    with pytest.raises(rv.ReviewError) as info:
        rv.ReviewDB(wrong)
    assert "not-the-" + password not in str(info.value) and "***" in str(info.value)
    assert password not in repr(rv.ReviewDB(postgres_url))


def test_the_cli_lists_reports_exports_and_imports(workspace, tmp_path, capsys):
    from sac_core.cli import main

    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    db = rv.ReviewDB(url)
    sid = _session(db, workspace, size=2)
    view = rv.item_view(db, sid, 0, "alice")
    rv.set_label(db, view.chunks[0].chunk_id, "alice", "relevant")
    assert main(["review", "list", "--db", url]) == 0
    assert "s1" in capsys.readouterr().out
    assert main(["review", "report", "--session", "s1", "--db", url]) == 0
    report = capsys.readouterr().out
    assert "by method" in report and "Baseline" in report
    assert main(["review", "export", "--session", "s1", "--db", url, "--out", str(tmp_path / "x.jsonl")]) == 0
    assert main(["review", "import", str(tmp_path / "x.jsonl"), "--db", url]) == 0
    assert "imported 1 labels" in capsys.readouterr().out
    assert main(["review", "report", "--session", "nope", "--db", url]) == 2  # a clear error, exit 2


# --------------------------------------------------------------------------- notes, folders, old databases


def test_a_note_without_a_label_is_stored_and_a_label_keeps_the_note(db_url, workspace):
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace)
    first, second = rv.item_view(db, sid, 0, "bob").chunks[:2]
    rv.set_note(db, first.chunk_id, "bob", "looks like the other NDA")
    view = rv.item_view(db, sid, 0, "bob")
    assert view.label(first.chunk_id) is None and view.note(first.chunk_id) == "looks like the other NDA"
    assert view.unlabelled == first  # a note is not a label: keys 1–5 still go to this chunk
    assert rv.progress(db, sid, "bob").labels == 0
    rv.set_label(db, first.chunk_id, "bob", "wrong_document", gold_shown=True)  # a key press: no note given
    rv.set_note(db, second.chunk_id, "bob", "")
    rv.set_label(db, second.chunk_id, "bob", "relevant")
    view = rv.item_view(db, sid, 0, "bob")
    assert (view.label(first.chunk_id), view.note(first.chunk_id)) == ("wrong_document", "looks like the other NDA")
    rv.set_label(db, first.chunk_id, "bob", None)  # taken back: the note stays
    assert rv.item_view(db, sid, 0, "bob").labels[first.chunk_id] == (None, "looks like the other NDA")
    labels = rv.label_table(db, sid)
    assert len(labels) == 2 and labels["label"].isna().sum() == 1
    assert rv.by_method(labels, [c.name for c in workspace.columns])["labels"].sum() >= 1  # the labelled one only
    rows = [json.loads(line) for line in rv.export_bytes(db, "s1", "jsonl")[0].decode().splitlines()]
    assert {(r["label"], r["note"]) for r in rows} == {(None, "looks like the other NDA"), ("relevant", "")}


def test_sessions_belong_to_the_data_folder_they_were_made_on(db_url, workspace, demo_dir, tmp_path):
    db = rv.ReviewDB(db_url)
    queries = rv.sample_queries(workspace.bench, DEMO, 2, seed=1)
    for name, folder in (("here, older", demo_dir), ("elsewhere", tmp_path / "lbr"), ("here", demo_dir)):
        rv.create_session(
            db, workspace, rv.SessionPlan(name, "alice", "x", workspace.columns, queries, 2, 7, {}, folder=folder)
        )
        time.sleep(0.01)  # distinct creation times
    plan = rv.SessionPlan(
        "elsewhere, newest", "alice", "x", workspace.columns, queries, 2, 7, {}, folder=tmp_path / "other"
    )
    rv.create_session(db, workspace, plan)
    choice = rv.session_choice(db.sessions(), demo_dir)
    assert choice.names[:2] == ("here", "here, older") and choice.index == 0  # this folder's newest by default
    assert choice.elsewhere == {"elsewhere", "elsewhere, newest"} and not choice.unknown
    assert rv.session_choice(db.sessions(), tmp_path / "lbr").names[0] == "elsewhere"
    nothing = rv.session_choice(db.sessions(), tmp_path / "new-folder")
    assert nothing.index is None and len(nothing.elsewhere) == 4  # none of its own: no default at all
    link = tmp_path / "demo-link"
    link.symlink_to(demo_dir, target_is_directory=True)
    assert rv.session_choice(db.sessions(), link).index == 0  # the same folder by another path


def _v2_tables() -> list[Table]:
    """The tables of schema version 2: all of today's but the answers' (version 3 added only those)."""
    return [t for t in Base.metadata.sorted_tables if t.name not in ("review_answers", "review_answer_labels")]


def _v1_schema(url: str) -> None:
    """The tables as schema version 1 made them: no ``folder``, a label NOT NULL; one label in them."""
    engine = create_engine(make_url(url))
    v1 = MetaData()
    for table in _v2_tables():
        columns = [c._copy() for c in table.columns if (table.name, c.name) != ("review_sessions", "folder")]
        uniques = [UniqueConstraint(*c.columns.keys()) for c in table.constraints if isinstance(c, UniqueConstraint)]
        Table(table.name, v1, *columns, *uniques)
    v1.tables["review_labels"].c.label.nullable = False
    v1.create_all(engine)
    with engine.begin() as conn:
        t = v1.tables
        conn.execute(t["review_meta"].insert().values(key="schema_version", value="1"))
        conn.execute(t["review_sessions"].insert().values(id=1, name="old", created_by="a", data="lbr · lbr-mini",
                     methods=[{"name": "A"}, {"name": "B"}], k=2, seed=1, sample={}))  # fmt: skip
        conn.execute(t["review_items"].insert().values(id=1, session_id=1, position=0, query_id="q", dataset="d",
                     query_text="Which law?", gold=[], order=["A", "B"]))  # fmt: skip
        conn.execute(t["review_chunks"].insert().values(id=1, item_id=1, file_path="d/a.txt", start=0, end=5,
                     ranks={"A": 1}, gold_chars=0))  # fmt: skip
        conn.execute(t["review_chunks"].insert().values(id=2, item_id=1, file_path="d/b.txt", start=0, end=5,
                     ranks={"B": 1}, gold_chars=0))  # fmt: skip
        conn.execute(t["review_labels"].insert().values(chunk_id=1, reviewer="alice", label="relevant", note="kept"))
        with pytest.raises(IntegrityError), conn.begin_nested():  # what version 1 could not store
            conn.execute(t["review_labels"].insert().values(chunk_id=2, reviewer="alice", label=None, note="n"))
    engine.dispose()


def test_a_version_1_database_is_upgraded_in_place_and_keeps_its_labels(db_url):
    _v1_schema(db_url)
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        assert s.get(Meta, "schema_version").value == SCHEMA_VERSION == "5"
    (old,) = db.sessions()
    assert old.folder is None and rv.session_choice([old], Path("/anywhere")).unknown == {"old"}
    assert rv.session_choice([old], Path("/anywhere")).index == 0  # it may be this folder's: offered first
    view = rv.item_view(db, old.id, 0, "alice")
    assert view.labels == {1: ("relevant", "kept")}
    rv.set_note(db, 2, "alice", "a note, no label")  # what version 2 adds
    rv.set_label(db, 1, "alice", "partly")
    assert rv.item_view(db, old.id, 0, "alice").labels == {1: ("partly", "kept"), 2: (None, "a note, no label")}
    db.dispose()
    assert rv.ReviewDB(db_url).sessions()[0].name == "old"  # opened again: nothing to upgrade


def test_next_open_is_the_next_open_position_after_this_one_round_to_the_first():
    progress = rv.Progress(items=5, done=2, labels=0, preferences=0, next_open=0, open_positions=(0, 1, 3))
    assert [progress.open_after(p) for p in range(5)] == [1, 3, 3, 0, 0]
    assert rv.Progress(3, 2, 0, 0, 1, open_positions=(1,)).open_after(1) is None  # only this one is open
    assert rv.Progress(3, 3, 0, 0, None).open_after(0) is None


def test_a_reviewed_document_is_read_once_per_version_of_its_file(tmp_path):
    """Review reads a document's text once, and again after the file is edited (same length)."""
    path = tmp_path / "corpus" / "nda" / "a.txt"
    path.parent.mkdir(parents=True)
    path.write_text("The term is two years.", encoding="utf-8")
    assert rv.document_text(tmp_path, "nda/a.txt") == "The term is two years."
    path.write_text("The term is six years.", encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))  # a later edit
    assert rv.document_text(tmp_path, "nda/a.txt") == "The term is six years."


def test_a_label_key_labels_the_first_chunk_not_labelled_as_stored_now(db_url, workspace):
    """Issue 41: two presses label two chunks, whatever the page showed between them; a typed note stays."""
    db = rv.ReviewDB(db_url)
    sid = _session(db, workspace, size=1)
    chunks = [c.chunk_id for c in rv.item_view(db, sid, 0, "alice").chunks]
    rv.set_note(db, chunks[0], "alice", "typed first")
    assert rv.label_next(db, sid, 0, "alice", "relevant") == chunks[0]
    assert rv.label_next(db, sid, 0, "alice", "partly") == chunks[1]
    labels = rv.item_view(db, sid, 0, "alice").labels
    assert labels[chunks[0]] == ("relevant", "typed first") and labels[chunks[1]] == ("partly", "")
    for _ in chunks[2:]:
        rv.label_next(db, sid, 0, "alice", "cant_tell")
    assert rv.label_next(db, sid, 0, "alice", "relevant") is None  # every chunk labelled: nothing changes
    assert rv.item_view(db, sid, 0, "bob").labels == {}  # another reviewer's rows untouched
