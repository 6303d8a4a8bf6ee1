"""Issue 41, Review: what the page shows of its database (point 6) and who can see and change what
(point 3; the promises of docs/serving.md, "Review: who sees and changes what"), under AppTest on
the demo corpus."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from sqlalchemy import text
from streamlit.testing.v1 import AppTest

from sac_core.dashboard import compare, state
from sac_core.dashboard import review as rv
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 240


def _page(**params: str) -> AppTest:
    """The Review page in a fresh browser session, opened with ``params`` in its URL."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/review.py")
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(value: str) -> str:
    """What a reader sees of markdown: escapes undone, the page's style sheet (never shown) left out."""
    return re.sub(r"\\(.)", r"\1", re.sub(r"<style>.*?</style>", "", value, flags=re.S))


# --------------------------------------------------------------------------- point 6


def test_point_6_an_unreachable_review_database_is_named_by_its_kind_only(env, monkeypatch, caplog):
    """The page said ``cannot open the review database postgresql+psycopg://qauser:***@127.0.0.1:1/sacdb:
    connection failed: …\\n\\tIs the server running …``; the details belong to the server log."""
    monkeypatch.setenv("SAC_REVIEW_DB", "postgresql+psycopg://qauser:s3cret-pw@127.0.0.1:1/sacdb")
    caplog.set_level(logging.WARNING, logger="sac_core.dashboard")
    at = _page()
    (error,) = [_unmd(e.value) for e in at.main.error]
    assert error.startswith("The review database (PostgreSQL) cannot be opened"), error
    for detail in ("127.0.0.1", "qauser", "sacdb", "s3cret", "postgresql+psycopg", "***", "\\n", "\\t", "\n"):
        assert detail not in error, (detail, error)
    logged = [r.getMessage() for r in caplog.records if "review database" in r.getMessage()]
    assert len(logged) == 1 and "postgresql+psycopg://qauser:***@127.0.0.1:1/sacdb" in logged[0], logged
    assert "s3cret" not in caplog.text and "\n" not in logged[0] and "\t" not in logged[0]


def test_point_6_the_cli_names_the_database_in_one_line(tmp_path, capsys) -> None:
    from sac_core.cli import main

    url = "postgresql+psycopg://qauser:s3cret-pw@127.0.0.1:1/sacdb"
    assert main(["review", "list", "--db", url]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "qauser:***@127.0.0.1:1/sacdb" in err and "s3cret" not in err, err


# --------------------------------------------------------------------------- point 3


def _workspace(cache: Path):
    demo = state.ensure_demo_corpus(cache)
    datasets = available_datasets(demo)
    settings = state.Settings(state.resolve_data_source("", cache), cache, "full", datasets, "file", 150)
    cols = compare.compare_columns(settings.base_config())
    return Workspace.open(load_benchmark(demo, datasets, "full"), cols, demo, cache), cols, demo


def _linked(env: Path, url: str, reviewers=("alice", "bob"), *, name: str = "linked", size: int = 2):
    """A session made by "olga" with a link per reviewer: (session id, owner's token, name → token)."""
    ws, cols, demo = _workspace(env)
    plan = rv.SessionPlan(name, "olga", "demo", cols, rv.sample_queries(ws.bench, ws.bench.datasets, size, 1), 2, 5,
                          {}, demo)  # fmt: skip
    return rv.create_with_links(rv.ReviewDB(url), ws, plan, reviewers)


def _finish(url: str, sid: int, reviewer: str, note: str = "") -> None:
    db = rv.ReviewDB(url)
    for position in range(rv.progress(db, sid, reviewer).items):
        view = rv.item_view(db, sid, position, reviewer)
        for chunk in view.chunks:
            rv.set_label(db, chunk.chunk_id, reviewer, "cant_tell", note)
        rv.set_preference(db, view.item_id, reviewer, rv.TIE)
    assert rv.progress(db, sid, reviewer).finished


def _everything(at: AppTest) -> str:
    parts = [e.value for e in (*at.main.markdown, *at.main.caption, *at.main.subheader, *at.main.info,
                                *at.main.success, *at.main.warning, *at.main.error, *at.main.code)]  # fmt: skip
    parts += [str(d.value) for d in at.main.dataframe]
    for widget in (*at.main.selectbox, *at.main.segmented_control, *at.main.button, *at.main.text_area):
        parts.append(str(widget.label))
        parts.extend(str(o) for o in getattr(widget, "options", []) or [])
    return _unmd("\n".join(parts))


METHODS = ("Baseline", "SAC generic", "Recommended")  # the default columns (issue 45)


def test_point_3_a_name_in_the_url_opens_nothing(env, tmp_path, monkeypatch) -> None:
    """``/review?reviewer=Alice`` showed finished Alice's results, both exports and which method each column
    was, and stored labels clicked there as hers."""
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, _ = _linked(env, url)
    _finish(url, sid, "alice", "alice's private note")
    for params in ({"reviewer": "alice"}, {"reviewer": "Alice"}, {}, {"access": "alice"}, {"access": "x" * 43}):
        at = _page(**params)
        shown = _everything(at)
        assert not [w for w in at.segmented_control if w.key and w.key.startswith(("rv_label", "rv_pref"))]
        assert not at.get("download_button") and not at.main.dataframe, params
        assert "linked" not in shown and "alice's private note" not in shown and "The columns were" not in shown
        assert not [m for m in METHODS if m in shown.replace("Methods under review", "")], params
        assert "Reviews are opened by links, not by names" in shown
        assert ("opens nothing" in shown) == ("access" in params), params
    assert {r.reviewer for r in rv.label_table(rv.ReviewDB(url), sid).itertuples()} == {"alice"}


def test_point_3_a_reviewer_link_reaches_only_that_reviewers_labels(env, tmp_path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, links = _linked(env, url)
    db = rv.ReviewDB(url)
    view = rv.item_view(db, sid, 0, "bob")
    rv.set_label(db, view.chunks[0].chunk_id, "bob", "wrong_document", "bob's own note")
    at = _page(access=links["alice"])
    shown = _everything(at)
    assert "You review as **alice** through your own link" in shown and "keep it to yourself" in shown
    assert "bob's own note" not in shown and "wrong_document" not in str(_label_values(at))
    first = next(w for w in at.segmented_control if w.key.startswith("rv_label::"))
    first.set_value("relevant").run()
    assert not at.exception
    stored = {(r.reviewer, r.chunk_id): (r.label, r.note) for r in rv.label_table(db, sid).itertuples()}
    chunk = int(first.key.split("::")[1])
    assert stored[("alice", chunk)] == ("relevant", "") and stored[("bob", view.chunks[0].chunk_id)] == (
        "wrong_document",
        "bob's own note",
    )
    assert at.query_params["access"] == links["alice"]  # a reload or a bookmark resumes
    assert "reviewer" not in at.query_params


def _label_values(at: AppTest) -> dict[str, object]:
    return {w.key: w.value for w in at.segmented_control if w.key and w.key.startswith("rv_label::")}


def test_point_3_a_reviewer_sees_results_once_finished_and_only_their_own(env, tmp_path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, _, links = _linked(env, url)
    _finish(url, sid, "bob", "bob's private note")
    at = _page(access=links["alice"])
    at.segmented_control(key="rv_mode").set_value("Results").run()
    assert not at.main.dataframe and not at.get("download_button")
    assert any("hidden until you have finished this session" in _unmd(i.value) for i in at.main.info)
    _finish(url, sid, "alice", "alice's note")
    at.run()
    assert len(at.main.dataframe) == 3 and "Your own judgements" in _everything(at)
    by_method = at.main.dataframe[0].value  # a chunk counts for every method that retrieved it
    mine = [r for r in rv.label_table(rv.ReviewDB(url), sid).itertuples() if r.reviewer == "alice"]
    assert by_method["labelled chunks"].sum() == sum(len(r.ranks) for r in mine)  # bob's labels left out
    csv, count = rv.export_bytes(rv.ReviewDB(url), "linked", "csv", "alice")
    assert b"bob" not in csv and count > 0
    labels = [d.label for d in at.get("download_button")]
    assert labels == [f"Export {count} rows (CSV)", f"Export {count} rows (JSONL)"]


def test_point_3_the_owner_link_manages_reviewers_and_links(env, tmp_path, monkeypatch) -> None:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    sid, owner, links = _linked(env, url)
    _finish(url, sid, "bob")
    at = _page(access=owner)
    shown = _everything(at)
    assert "owner's link" in shown and not [w for w in at.segmented_control if w.key.startswith("rv_label::")]
    (people,) = [d.value for d in at.main.dataframe]
    assert list(people["reviewer"]) == ["alice", "bob"] and list(people["queries done"]) == ["0 of 2", "2 of 2"]
    at.text_input(key=next(w.key for w in at.text_input if w.label == "Reviewer's name")).input("carol")
    next(b for b in at.button if "Add the reviewer" in b.label).click().run()
    assert not at.exception, [e.value for e in at.exception]
    (code,) = [c.value for c in at.main.code]
    carol = code.split("access=")[1]
    assert rv.open_link(rv.ReviewDB(url), carol) == rv.Grant(sid, "linked", rv.REVIEWER, "carol")
    at.selectbox(key="rv_reissue_who").set_value("alice").run()
    next(b for b in at.button if b.key == "rv_reissue").click().run()
    new_alice = [c.value for c in at.main.code][-1].split("access=")[1]
    assert rv.open_link(rv.ReviewDB(url), links["alice"]) is None  # the old link stops working
    assert rv.open_link(rv.ReviewDB(url), new_alice).name == "alice"
    assert "opens nothing" in _everything(_page(access=links["alice"]))
    at.segmented_control(key="rv_mode").set_value("Results").run()
    assert not at.main.dataframe  # the team's results only when asked for
    at.toggle(key="rv_team").set_value(True).run()
    assert len(at.main.dataframe) == 3 and any(m in _everything(at) for m in METHODS)


def test_point_3_links_are_stored_hashed_never_raw(env, tmp_path, monkeypatch, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "review.sqlite"
    url = f"sqlite:///{path}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    _, owner, links = _linked(env, url)
    _page(access=links["alice"])
    rv.ReviewDB(url).dispose()
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("review.sqlite*"))
    for token in (owner, *links.values()):
        assert len(token) >= 43 and token.encode() not in stored and rv.digest(token).encode() in stored
        assert token not in caplog.text


def test_point_3_a_session_made_before_links_gets_them_from_the_cli(env, tmp_path, monkeypatch, capsys) -> None:
    from sac_core.cli import main

    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    monkeypatch.setenv("SAC_REVIEW_DB", url)
    ws, cols, demo = _workspace(env)
    db = rv.ReviewDB(url)
    plan = rv.SessionPlan("old", "olga", "demo", cols, rv.sample_queries(ws.bench, ws.bench.datasets, 2, 1), 2, 5,
                          {}, demo)  # fmt: skip
    sid = rv.create_session(db, ws, plan)  # as before links: no link at all
    chunk = rv.item_view(db, sid, 0, "alice").chunks[0].chunk_id
    rv.set_label(db, chunk, "alice", "partly", "from before links")
    assert (
        main(["review", "link", "--session", "old", "--reviewer", "alice", "--db", url, "--url", "http://h:8501"]) == 0
    )
    printed = capsys.readouterr()
    (line,) = printed.out.splitlines()
    assert line.startswith("http://h:8501/review?access=") and "old one stops working" in printed.err
    at = _page(access=line.split("access=")[1])
    assert f"rv_label::{chunk}::A" in _label_values(at) or "partly" in _label_values(at).values()
    assert at.text_area(key=next(k for k in _note_keys(at) if f"::{chunk}::" in k)).value == "from before links"
    assert main(["review", "link", "--session", "old", "--db", url]) == 0  # the owner's
    owner = capsys.readouterr().out.strip().split("access=")[1]
    people = _page(access=owner).main.dataframe[0].value
    assert list(people["reviewer"]) == ["alice"] and list(people["link"]) == ["issued"]


def _note_keys(at: AppTest) -> list[str]:
    return [w.key for w in at.text_area if w.key and w.key.startswith("rv_note::")]


def test_point_3_a_database_of_version_4_is_upgraded_and_keeps_its_labels(env, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    sid, _, _ = _linked(env, url, reviewers=())
    db = rv.ReviewDB(url)
    chunk = rv.item_view(db, sid, 0, "alice").chunks[0].chunk_id
    rv.set_label(db, chunk, "alice", "relevant", "kept")
    with db.engine.begin() as conn:
        conn.execute(text("DROP TABLE review_access"))
        conn.execute(text("UPDATE review_meta SET value = '4' WHERE key = 'schema_version'"))
    db.dispose()
    again = rv.ReviewDB(url)
    assert rv.item_view(again, sid, 0, "alice").labels[chunk] == ("relevant", "kept")
    assert rv.members(again, sid) == [rv.Member("alice", None, linked=False, judged=True)]
    with again.session() as s:
        assert s.scalar(text("SELECT value FROM review_meta WHERE key = 'schema_version'")) == "5"


def test_point_3_the_deployments_login_maps_to_a_reviewer(env, tmp_path) -> None:
    """``SAC_REVIEW_LOGIN=1``: Streamlit's login (``st.user``) names the person; the owner gave each
    reviewer's e-mail. No OIDC provider is needed to test the mapping."""
    assert rv.login_of({"is_logged_in": True, "email": " Alice@Firm.example ", "name": "A"}) == "alice@firm.example"
    assert rv.login_of({"is_logged_in": False, "email": "alice@firm.example"}) is None
    assert rv.login_of({"is_logged_in": True, "email": "alice@firm.example", "email_verified": False}) is None
    assert rv.login_of({"is_logged_in": True, "name": "no e-mail"}) is None
    url = f"sqlite:///{tmp_path / 'review.sqlite'}"
    sid, _, _ = _linked(env, url, reviewers=())
    db = rv.ReviewDB(url)
    rv.add_reviewer(db, sid, "Alice", "ALICE@firm.example")
    (grant,) = rv.grants_of_login(db, rv.login_of({"is_logged_in": True, "email": "alice@firm.example"}))
    assert grant == rv.Grant(sid, "linked", rv.REVIEWER, "Alice")
    assert rv.grants_of_login(db, "mallory@firm.example") == []
