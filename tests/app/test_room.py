"""Issue 27, "Ready for a room of lawyers": every point seen in headless Chromium on the demo corpus.

One served app for most points (demo corpus, a review database, ``$SAC_DATA_ROOT`` with data
folders that try to read outside it, a results root with a sweep of hostile names); points 6, 7 and 8
need a server of their own (an injected failure; an OpenAI address where nothing listens; an empty
cache on a generated benchmark slow enough to embed that its builds can be watched). The
server log of the shared app is checked last: no stack trace, a handful of lines.

Skipped without Chromium, as ``test_browser.py``; under CI (``$CI`` set) a missing Chromium fails.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select

from sac_core.dashboard import compare, state
from sac_core.dashboard import review as rv
from sac_core.dashboard.demo_sweep import demo_sweep, run_with_progress
from sac_core.dashboard.review.db import AnswerLabel, Label, ReviewChunk, ReviewItem
from sac_core.engine.data import Benchmark, available_datasets, load_benchmark
from sac_core.experiments import Workspace
from sac_core.tooling import browser
from sac_core.tooling.browser import CHROMIUM, STEP_TIMEOUT, settle

if not CHROMIUM.exists() and os.environ.get("CI"):
    pytest.fail(
        f"{CHROMIUM} not found although CI should have installed it (scripts/install_browser.sh)", pytrace=False
    )
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} not found: run `bash scripts/install_browser.sh`", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Python package 'playwright' not installed")

TIMEOUT = 240_000  # ms: a build on a busy 2-core machine
SECRET = "root:x:0:0:SECRET-OF-ISSUE-27"
EVIL = "evil.example"


@dataclass(frozen=True)
class Room:
    url: str
    log: Path
    root: Path  # $SAC_DATA_ROOT
    outside: Path
    review_db: str
    demo: Path
    demo_ws: Workspace
    columns: tuple
    settings: state.Settings


def _benchmark(folder: Path, dataset: str, docs: dict[str, str], cite: bool = True) -> Path:
    """A data folder with one dataset; a query per document when ``cite``."""
    (folder / "corpus" / dataset).mkdir(parents=True, exist_ok=True)
    tests = []
    for name, text in docs.items():
        path = folder / "corpus" / dataset / name
        if not path.is_symlink():
            path.write_text(text, encoding="utf-8")
        if cite:
            tests.append({"query": f"What does {name} say?", "snippets": [
                {"file_path": f"{dataset}/{name}", "span": [0, 5], "answer": text[:5]}]})  # fmt: skip
    (folder / "benchmarks").mkdir(parents=True, exist_ok=True)
    (folder / "benchmarks" / f"{dataset}.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    return folder


def _data_root(base: Path) -> tuple[Path, Path]:
    """``root`` (the server's $SAC_DATA_ROOT) with data folders whose links lead ``outside``."""
    root, outside = base / "root", base / "outside"
    (outside / "corpus").mkdir(parents=True)
    (outside / "passwd").write_text(SECRET + "\n", encoding="utf-8")
    (outside / "corpus" / "secret.txt").write_text(SECRET + " in a linked corpus folder\n", encoding="utf-8")
    summaries = [{"file_path": "ds/a.txt", "prompt": p, "chars": n, "summary": SECRET} for p in ("generic", "expert")
                 for n in (150, 300)]  # fmt: skip
    (outside / "llm.jsonl").write_text("".join(json.dumps(r) + "\n" for r in summaries), encoding="utf-8")
    text = "Alpha agreement between Alpha Ltd and Beta Inc. Governing law: Delaware."

    linked = root / "linked-document"  # a cited document is a link to a file outside the root
    (linked / "corpus" / "ds").mkdir(parents=True)
    (linked / "corpus" / "ds" / "b.txt").symlink_to(outside / "passwd")
    _benchmark(linked, "ds", {"a.txt": text, "b.txt": SECRET})

    summaries_out = _benchmark(root / "linked-summaries", "ds", {"a.txt": text})  # summaries/llm.jsonl leads out
    (summaries_out / "summaries").mkdir()
    (summaries_out / "summaries" / "llm.jsonl").symlink_to(outside / "llm.jsonl")

    corpus_out = root / "linked-corpus"  # protocol corpus lists corpus/<dataset>, a link out of the root
    (corpus_out / "corpus").mkdir(parents=True)
    (corpus_out / "corpus" / "mine").symlink_to(outside / "corpus", target_is_directory=True)
    (corpus_out / "benchmarks").mkdir()
    (corpus_out / "benchmarks" / "mine.json").write_text(json.dumps({"tests": []}), encoding="utf-8")
    (corpus_out / "ingest").mkdir()  # as written by `sac ingest`: the page opens it with protocol corpus

    _benchmark(root / "autolink", f"www.{EVIL}", {"a.txt": text})  # a dataset named like a host
    return root, outside


def _hostile_sweep(results: Path, bench: Benchmark) -> None:
    """A sweep folder on ``bench`` (two cells, a per-query table) whose second cell is of a plug-in not
    loaded here, named as a plug-in's cells are by default (variant = method = its name): a URL and a
    host, the text the page names that method by."""
    folder = results / "http-sweep"
    folder.mkdir(parents=True)
    variants = ("baseline", f"sac-http://{EVIL}/x-www.{EVIL}")
    ran_on = f'full,"{",".join(bench.datasets)}",{len(bench.queries)},{len(bench.documents)}'  # as `sac sweep` says
    rows = ["cell,dataset,variant,method,k,drm,precision,recall,chunk_size,summary_chars,semantic_weight,model,"
            "protocol,datasets,n_queries,n_documents"]  # fmt: skip
    per_query = ["cell,query_id,dataset,k,drm,precision,recall,hit,mrr,ndcg,variant"]
    queries = [q.query_id for q in bench.queries if q.query_id.startswith("demo_nda/")][:3]
    for n, variant in enumerate(variants):
        for k in (1, 2, 4, 8):
            rows.append(f'c{n},ALL,"{variant}","{variant}",{k},0.5,0.1,0.2,500,150,1.0,m,{ran_on}')
            for q, query in enumerate(queries):
                per_query.append(f'c{n},{query},demo_nda,{k},{0.2 * n + 0.1 * q},0.1,0.2,1,1,1,"{variant}"')
    (folder / "results.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "per_query.csv.gz").write_bytes(gzip.compress(("\n".join(per_query) + "\n").encode()))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, embed_cache: Path) -> Iterator[Room]:
    base = tmp_path_factory.mktemp("room")
    demo = state.ensure_demo_corpus(embed_cache)
    datasets = available_datasets(demo)
    results = base / "results"
    run_with_progress(demo_sweep(datasets, chunk_sizes=(500,), prompts=("generic",)), demo, embed_cache,
                      results / "demo")  # fmt: skip
    settings = state.Settings(state.resolve_data_source("", embed_cache), embed_cache, "full", datasets, "file", 150)
    bench = load_benchmark(demo, datasets, "full")
    _hostile_sweep(results, bench)
    columns = compare.compare_columns(settings.base_config())
    ws = Workspace.open(bench, columns, demo, embed_cache, save=True)  # Compare's indexes, as after `sac index`
    root, outside = _data_root(base)
    db = f"sqlite:///{base / 'review.sqlite'}"
    env = {"SAC_CACHE_DIR": str(embed_cache), "SAC_RESULTS_DIR": str(results), "SAC_REVIEW_DB": db,
           "SAC_DATA_ROOT": str(root)}  # fmt: skip
    log = base / "streamlit.log"
    with browser.serve(env, log) as server:
        yield Room(server.url, log, root, outside, db, demo, ws, columns, settings)


@pytest.fixture
def page(room: Room) -> Iterator:
    with sync_api.sync_playwright() as p, browser.chromium(p) as chrome:
        context = chrome.new_context(viewport=browser.VIEWPORT)
        yield context.new_page()
        context.close()


def _main(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


def _everything(page) -> str:
    return page.locator('[data-testid="stApp"]').inner_text()


def _links(page) -> list[str]:
    return page.eval_on_selector_all("a", "els => els.map(e => (e.getAttribute('href') || '') + ' ' + e.innerText)")


def _data_folder(page, folder: str | Path) -> None:
    """Type a folder into the sidebar's Data directory (this session only)."""
    field = page.get_by_role("textbox", name="Data directory")
    field.fill(str(folder))
    field.press("Enter")
    settle(page)


def _nav(page, title: str) -> None:
    """Another page in the same session (a new URL would start a new session)."""
    page.locator('[data-testid="stSidebarNav"] a').filter(has_text=title).click()
    settle(page)


def _selected(page, label: str) -> str:
    """What a select box shows (its label, its value: text or the value of its input)."""
    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    return box.evaluate("e => e.textContent + ' ' + [...e.querySelectorAll('input')].map(i => i.value).join(' ')")


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in a select box: typed to filter the list (long lists render only some options)."""
    page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first.click()
    page.keyboard.type(option)
    page.get_by_role("option", name=option).first.click()
    settle(page)
    assert option in _selected(page, label), (label, option, _selected(page, label))


def _open_review(page, room: Room, name: str = "alice", session: str = "on the demo") -> None:
    """Review through ``name``'s link to ``session`` (issued as its owner would), or without a link
    when there is no such session."""
    db = rv.ReviewDB(room.review_db)
    made = {x.name: x.id for x in db.sessions()}
    token = rv.issue(db, made[session], rv.REVIEWER, name) if session in made else None
    db.dispose()
    page.goto(f"{room.url}/review" + (f"?access={token}" if token else ""))
    settle(page)


def _labels(db_url: str, reviewer: str) -> dict[int, tuple[str | None, str]]:
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        return {r.chunk_id: (r.label, r.note) for r in s.scalars(select(Label).where(Label.reviewer == reviewer))}


def _answer_labels(db_url: str, reviewer: str) -> dict[int, tuple[str | None, str]]:
    db = rv.ReviewDB(db_url)
    with db.session() as s:
        rows = s.scalars(select(AnswerLabel).where(AnswerLabel.reviewer == reviewer))
        return {r.answer_id: (r.label, r.note) for r in rows}


def _overflowing(page, selector: str) -> list[str]:
    """Texts of the elements matching ``selector`` whose text is cut (an element inside them, or
    they themselves, wider inside than shown: scrollWidth > clientWidth)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter(e =>
               [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)).map(e => e.innerText)""",
        selector,
    )


# --------------------------------------------------------------------------- 1-3: Review


@pytest.fixture(scope="module")
def sessions(room: Room) -> dict[str, int]:
    """A session on the demo, then a newer one made on another data folder (the old default)."""
    db = rv.ReviewDB(room.review_db)
    queries = rv.sample_queries(room.demo_ws.bench, room.demo_ws.bench.datasets, 3, 1)
    ids = {
        "on the demo": rv.create_session(
            db,
            room.demo_ws,
            rv.SessionPlan("on the demo", "a", "demo · full", room.columns, queries, 3, 5, {}, folder=room.demo),
        ),
        "on LegalBench-RAG": rv.create_session(
            db,
            room.demo_ws,
            rv.SessionPlan(
                "on LegalBench-RAG",
                "a",
                "legalbench-rag · lbr-mini · cuad",
                room.columns,
                queries,
                3,
                5,
                {},
                folder=room.root / "legalbench-rag",
            ),
        ),
    }
    with db.session() as s:  # its documents exist only in that other folder
        for chunk in s.scalars(
            select(ReviewChunk).join(ReviewItem).where(ReviewItem.session_id == ids["on LegalBench-RAG"])
        ):
            chunk.file_path = f"cuad/only-there-{chunk.id}.txt"
    db.dispose()
    return ids


def test_point_1_review_opens_this_folders_session_without_a_traceback(room: Room, sessions, page) -> None:
    _open_review(page, room, "a new reviewer")
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    shown = _everything(page)
    assert "Traceback" not in shown and "BenchmarkError" not in shown and "document not found" not in shown
    _open_review(page, room, "a new reviewer", "on LegalBench-RAG")
    main = _main(page)
    assert "was made on another data folder (legalbench-rag · lbr-mini · cuad)" in main
    assert "Traceback" not in main and page.locator(".sac-hit").count() == 0


def test_point_2_notes_are_kept_with_or_without_a_label(room: Room, sessions, page) -> None:
    _open_review(page, room, "bob")
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    note = page.get_by_placeholder("note (optional)").first  # the outlined chunk's: no label yet
    note.fill("clause 7 of the other NDA")
    note.press("Tab")
    settle(page)
    bob = lambda: _labels(room.review_db, "bob")
    ((chunk, stored),) = browser.eventually(bob, lambda rows: len(rows) == 1, "bob's note").items()
    assert stored == (None, "clause 7 of the other NDA")  # stored without a label
    page.reload()
    _open_review(page, room, "bob")
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    settle(page)  # the page has run to its end
    note = page.get_by_placeholder("note (optional)").first
    # after a reload (a box of the first run can still be on the page under load: its replacement shows the note)
    try:
        sync_api.expect(note).to_have_value("clause 7 of the other NDA", timeout=STEP_TIMEOUT)
    except AssertionError as e:  # once in about ten runs under load (not reproduced alone): say what was shown
        boxes = page.get_by_placeholder("note (optional)").evaluate_all(
            "els => els.map(e => [e.getAttribute('aria-label'), e.value, !!e.closest('[data-stale=\"true\"]')])"
        )
        raise AssertionError(f"{e}\nstored: {bob()}\nnote boxes (label, value, stale): {boxes}\n"
                             f"page: {_main(page)[:800]}") from e  # fmt: skip
    note.fill("typed, then key 1")
    page.locator("h1").first.click()  # out of the field, then the key
    settle(page)
    page.keyboard.press("1")
    settle(page)
    browser.eventually(
        bob, lambda rows: rows[chunk] == ("relevant", "typed, then key 1"), "bob's label"
    )  # not an empty note
    sync_api.expect(page.get_by_placeholder("note (optional)").first).to_have_value(
        "typed, then key 1", timeout=STEP_TIMEOUT
    )

    # the answer of column A: labelled by mouse, then a note; both kept, the label with the note
    answer = page.locator('[role="radiogroup"][aria-label="Answer label of A"]')
    answer.locator("button").filter(has_text="unsupported by the excerpts").click()
    settle(page)
    answers = lambda: _answer_labels(room.review_db, "bob")
    ((answer_id, stored),) = browser.eventually(answers, lambda rows: len(rows) == 1, "the answer's label").items()
    assert stored == ("unsupported", "")
    answer_note = page.get_by_placeholder("note on the answer (optional)").first
    answer_note.fill("the excerpts say nothing of it")
    answer_note.press("Tab")
    settle(page)
    browser.eventually(
        answers,
        lambda rows: rows == {answer_id: ("unsupported", "the excerpts say nothing of it")},
        "the answer's note",
    )
    assert _labels(room.review_db, "bob")[chunk] == ("relevant", "typed, then key 1")  # the chunk's untouched


def test_point_3_blind_columns_never_say_which_share_a_chunk(room: Room, sessions, page) -> None:
    _open_review(page, room, "carol")
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    shared = False
    for position in range(3):  # the session's queries
        page.wait_for_function(  # the rerun has replaced the previous query's cards and controls
            "() => document.querySelectorAll('[role=radiogroup][aria-label^=\"Label of\"]').length"
            " === document.querySelectorAll('.sac-hit').length",
            timeout=STEP_TIMEOUT,
        )
        cards = page.locator(".sac-hit").all_inner_texts()
        heads = [c.split("\n")[0] for c in cards]
        assert "same chunk" not in _main(page).lower()
        assert page.locator('[role="radiogroup"][aria-label^="Label of"]').count() == len(cards)  # each labellable
        shared = shared or len({c.split("\n", 1)[1] for c in cards}) < len(cards)  # a chunk in two columns
        assert all(re.fullmatch(r"[A-E]#\d+ .*", h) for h in heads), heads
        if position < 2:
            page.get_by_role("button", name="Skip").click()
            settle(page)
    assert shared, "no query of the session has a chunk two methods retrieved"


# --------------------------------------------------------------------------- 4: confinement


def test_point_4_nothing_outside_the_data_root_is_read_or_named(room: Room, page) -> None:
    page.goto(f"{room.url}/documents")
    page.wait_for_selector(".sac-doc", timeout=STEP_TIMEOUT)
    _data_folder(page, room.root / "linked-document")  # a cited document links to a file outside
    _nav(page, "Documents")
    shown = _everything(page)
    assert SECRET not in shown
    assert (
        f"{room.root / 'linked-document' / 'corpus' / 'ds' / 'b.txt'}: outside the folders this server may read"
        in shown
    )

    _data_folder(page, room.root / "linked-summaries")  # summaries/llm.jsonl links outside
    _nav(page, "Documents")
    page.wait_for_selector(".sac-doc", timeout=STEP_TIMEOUT)
    assert SECRET not in _everything(page)

    _data_folder(page, room.root / "linked-corpus")  # corpus/<dataset> links outside (protocol corpus)
    _nav(page, "Documents")
    shown = _everything(page)
    assert SECRET not in shown and "corpus/mine: outside the folders this server may read" in shown

    _data_folder(page, room.outside)  # a folder outside: refused without naming the roots
    shown = _everything(page)
    assert f"{room.outside}: outside the folders this server may read" in shown
    assert str(room.root) not in shown and "SAC_DATA_ROOT" not in shown


# --------------------------------------------------------------------------- 5: no autolinks


def test_point_5_urls_and_hosts_in_names_never_become_links(room: Room, page) -> None:
    page.goto(room.url)
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    _data_folder(page, f"http://{EVIL}/data/www.{EVIL}")  # the sidebar error repeats the path
    page.wait_for_selector("text=no such folder", timeout=STEP_TIMEOUT)
    assert f"http://{EVIL}/data/www.{EVIL}: no such folder" in _everything(page).replace("\u2060", "")
    assert not [a for a in _links(page) if EVIL in a]

    _data_folder(page, room.root / "autolink")  # a dataset named www.evil.example: the Documents label
    _nav(page, "Documents")
    page.wait_for_selector(".sac-doc", timeout=STEP_TIMEOUT)
    assert f"in www.{EVIL}; type to search" in _main(page).replace("\u2060", "")
    assert not [a for a in _links(page) if EVIL in a]

    _data_folder(page, "")  # the demo again: the data the hostile sweep ran on
    _nav(page, "Curves")  # a method named with a URL and a host: the flipped-queries caption
    _choose(page, "Sweep", "http-sweep")
    page.wait_for_selector("text=queries whose", timeout=STEP_TIMEOUT)
    page.wait_for_selector("text=Flipped query", timeout=STEP_TIMEOUT)  # the sweep's data is the folder in use
    caption = _main(page).replace("\u2060", "")
    assert f"differs between Baseline and sac-http://{EVIL}/x-www.{EVIL}" in caption
    assert "needs the data this sweep ran on" not in caption
    assert not [a for a in _links(page) if EVIL in a]


# --------------------------------------------------------------------------- 9: 1280 px


def test_point_9_five_compare_columns_and_three_and_five_review_columns_at_1280_px(
    room: Room, sessions, page, tmp_path
):
    page.set_viewport_size({"width": 1280, "height": 900})
    cols = "baseline,sac-generic,sac-expert,doc-aware,sac-prior"
    page.goto(f"{room.url}/?cols={cols}&dataset=demo_nda&q=demo_nda%2F1&k=4")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=\"stMetricLabel\"]').length === 15",
                           timeout=TIMEOUT)  # fmt: skip
    settle(page)
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    assert sorted(set(labels)) == ["DRM@4", "precision@4", "recall@4"]
    assert _overflowing(page, '[data-testid="stMetricLabel"]') == []
    assert _overflowing(page, '[data-testid="stMetricValue"]') == []
    page.screenshot(path=str(tmp_path / "compare-5-columns-1280.png"), full_page=True)

    _open_review(page, room, "dave")
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    page.wait_for_function("() => document.querySelectorAll('h4').length >= 3", timeout=STEP_TIMEOUT)
    settle(page)
    assert page.locator("h4").all_inner_texts()[:3] == ["A", "B", "C"]  # three review columns
    keys = page.locator("button").filter(has_text=re.compile(r"^[1-5] · "))
    assert keys.count() == 5
    assert _overflowing(page, '[data-testid="stButton"] button') == []
    assert _overflowing(page, '[role="radiogroup"][aria-label^="Label of"] button') == []
    names = " ".join(page.locator('[role="radiogroup"][aria-label^="Label of"]').first.all_inner_texts())
    assert "wrong doc" in names and "can't tell" in names  # issue 36: short names, five in one row
    assert page.locator(".sac-answer").count() == 3  # each column's answer, above its chunks
    assert page.locator('[role="radiogroup"][aria-label^="Answer label of"]').count() == 3
    assert _overflowing(page, '[role="radiogroup"][aria-label^="Answer label of"] button') == []
    answer_names = " ".join(page.locator('[role="radiogroup"][aria-label="Answer label of C"]').all_inner_texts())
    assert "unsupported by the excerpts" in answer_names and "can't tell" in answer_names
    page.screenshot(path=str(tmp_path / "review-3-columns-1280.png"), full_page=True)
    assert (tmp_path / "compare-5-columns-1280.png").stat().st_size > 10_000

    # any Compare column can be reviewed: at five columns every label still reads whole (it wraps)
    five = compare.compare_columns(room.settings.base_config(), cols.split(","))
    ws = Workspace.open(room.demo_ws.bench, five, room.demo, room.settings.cache_dir)
    db = rv.ReviewDB(room.review_db)
    queries = rv.sample_queries(ws.bench, ws.bench.datasets, 1, 1)
    plan = rv.SessionPlan("five columns", "a", "demo · full", five, queries, 3, 5, {}, folder=room.demo)
    rv.create_session(db, ws, plan)
    db.dispose()
    _open_review(page, room, "erin", "five columns")
    page.wait_for_function("() => document.querySelectorAll('.sac-answer').length === 5", timeout=STEP_TIMEOUT)
    settle(page)
    assert page.locator("h4").all_inner_texts()[:5] == ["A", "B", "C", "D", "E"]
    assert _overflowing(page, '[role="radiogroup"][aria-label^="Answer label of"] button') == []
    assert _overflowing(page, '[role="radiogroup"][aria-label^="Label of"] button') == []
    answer_names = page.locator('[role="radiogroup"][aria-label="Answer label of E"]').inner_text()
    assert "unsupported by the excerpts" in " ".join(answer_names.split())  # whole, over two lines if need be
    page.screenshot(path=str(tmp_path / "review-5-columns-1280.png"), full_page=True)


# --------------------------------------------------------------------------- 10: nothing contradicts, nothing empty


def test_point_10_pages_agree_and_stay_filled(room: Room, page) -> None:
    page.goto(room.url)
    page.wait_for_selector("mark.gold", timeout=STEP_TIMEOUT)
    box = page.get_by_label("… or type your own question", exact=False)
    box.fill("Which law governs the agreement between Kestrel Aerospace and Lumen Optics?")
    box.press("Enter")
    page.wait_for_selector(".sac-hit.sac-free", timeout=STEP_TIMEOUT)
    settle(page)
    summaries = page.locator("table.sac-table").first.inner_text()
    assert "not gold" not in summaries and "✓" not in summaries  # free text: gold unknown, as said above it

    _nav(page, "Tune")  # the demo's default setting answers at once: no build, no "not computed yet"
    page.wait_for_selector("text=At k = 8", timeout=STEP_TIMEOUT)
    assert "not computed yet" not in _main(page) and re.search(r"⚡ instant: [\d, ]*\b500\b", _main(page))
    _data_folder(page, room.root / "autolink")  # another data folder: the query filter follows it
    _nav(page, "Tune")
    main = _main(page)
    assert "Choose at least one dataset" not in main
    assert f"www.{EVIL}" in page.locator('[data-testid="stMultiSelect"]').filter(has_text="Queries of").inner_text()
    _data_folder(page, "")

    _nav(page, "Curves")  # the demo's sweep: its flipped query opens on Compare, in this tab
    page.wait_for_selector("text=Open in Compare", timeout=STEP_TIMEOUT)
    query_id = re.search(r"demo_\w+/\d+", _selected(page, "Flipped query")).group(0)
    page.get_by_role("button", name="Open in Compare").click()
    page.wait_for_selector(".sac-hit", timeout=STEP_TIMEOUT)
    settle(page)
    assert len(page.context.pages) == 1  # no new tab
    assert f"q={query_id.replace('/', '%2F')}" in page.url and "k=8" in page.url
    assert query_id in page.locator(".sac-context").first.inner_text()  # that query, not the default one
    assert "Demo corpus" in _main(page)  # the session's data

    _nav(page, "Curves")
    page.wait_for_selector("text=Open in Compare", timeout=STEP_TIMEOUT)
    _data_folder(page, room.root / "autolink")  # a sweep of other data: no link, a line saying so
    page.wait_for_selector("text=needs the data this sweep ran on", timeout=STEP_TIMEOUT)
    settle(page)
    assert page.get_by_role("button", name="Open in Compare").count() == 0


# --------------------------------------------------------------------------- 11: the log (last: it reads the log)


def test_point_11_the_shared_servers_log_is_short_and_has_no_stack_trace(room: Room, page) -> None:
    page.goto(f"{room.url}/tune")  # a build in a worker process: chunk 450 is in no sweep here
    page.wait_for_selector("text=At k = 8", timeout=STEP_TIMEOUT)
    page.get_by_text("Another setting: computed on request").click()  # the sliders stop at 500 only
    box = page.get_by_label("Chunk size (characters)", exact=True).last  # the expander's number input
    box.fill("450")
    box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Compute this setting in the background").click()
    page.wait_for_selector("text=computed here", timeout=TIMEOUT)
    settle(page)
    _open_review(page, room)  # the reruns that logged a stack trace for an empty label
    for _ in range(3):
        page.locator("h1").first.click()
        page.keyboard.press("n")
        settle(page)
    log = room.log.read_text(encoding="utf-8")
    assert "Traceback" not in log and "missing ScriptRunContext" not in log and "label` got an empty" not in log
    assert len(log.splitlines()) < 20, log


# --------------------------------------------------------------------------- 8: a room of twelve

# What a reader sees at one instant (stale elements of the previous run left out): the column headings,
# the ranked chunks on screen and the build progress bars' texts.
SNAPSHOT = """() => {
    const live = sel => [...document.querySelectorAll(sel)].filter(e =>
        !e.closest('[data-stale="true"]') && e.getClientRects().length > 0);
    return {heads: live('[data-testid="stMain"] h4').map(e => e.innerText.trim()),
            hits: live('.sac-hit').length,
            bars: live('[data-testid="stProgress"]').map(e => e.innerText.trim())};
}"""


def test_point_8_a_built_column_shows_its_chunks_while_another_still_builds(
    slower_data: Path, tmp_path: Path, fresh_cache: Path
):
    """On an empty cache Compare's columns need two indexes (Recommended ranks the baseline's, after
    preparing its stages), built one after the other; the first one's column is on screen with its
    ranked chunks while the others still show their progress."""
    cache = fresh_cache
    env = {"SAC_CACHE_DIR": str(cache), "SAC_DATA_DIR": str(slower_data)}
    with browser.session(env, tmp_path / "streamlit.log") as (server, page):
        page.goto(f"{server.url}/?k=4")
        page.wait_for_function(f"() => {{ const s = ({SNAPSHOT})(); return s.hits > 0 && s.bars.length > 0; }}",
                               timeout=TIMEOUT)  # fmt: skip
        seen = page.evaluate(SNAPSHOT)
        statuses = {json.loads(f.read_text())["label"]: json.loads(f.read_text())["state"]
                    for f in (cache / "builds").glob("*.json")}  # fmt: skip
        done = [label for label, state in statuses.items() if state == "done"]
        active = [label for label, state in statuses.items() if state in ("queued", "running")]
        assert len(done) == 1 and active, statuses  # one built, the others not yet
        assert seen["hits"] == 4 and len(seen["heads"]) == 1, seen  # its column: k = 4 ranked chunks
        (shown,) = seen["heads"]
        assert done[0].startswith(shown) and not any(a.startswith(shown) for a in active), (seen, statuses)
        assert any(bar.startswith(a) for bar in seen["bars"] for a in active), (seen, statuses)  # their progress
        browser.wait_for_count(page, ".sac-hit", 3 * 4, TIMEOUT / 1000)  # then the other columns fill in
        assert len(page.evaluate(SNAPSHOT)["heads"]) == 3


# --------------------------------------------------------------------------- 6: a failure shows a reference


HOOK = """
import sac_core.dashboard.documents as documents

def _broken(text):
    raise RuntimeError("injected failure reading /srv/secret/contracts")

documents.section_rows = _broken  # issue 27 test: the Documents page fails unexpectedly
"""


def test_point_6_an_unexpected_error_shows_a_reference_and_logs_the_traceback(embed_cache, tmp_path) -> None:
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = {"SAC_CACHE_DIR": str(embed_cache), "PYTHONPATH": str(tmp_path / "hook")}
    with browser.session(env, tmp_path / "streamlit.log") as (server, page):
        page.goto(f"{server.url}/documents")
        page.wait_for_selector("text=Something went wrong", timeout=STEP_TIMEOUT)
        settle(page)
        shown = _everything(page)
        ref = re.search(r"reference ([0-9a-f]{8})", shown).group(1)
        assert "Traceback" not in shown and "RuntimeError" not in shown and "/srv/secret" not in shown
        assert page.locator('[data-testid="stException"]').count() == 0
        assert "Documents: chunks" in shown  # the page drew what it could
    log = (tmp_path / "streamlit.log").read_text(encoding="utf-8")
    assert f"reference {ref}" in log and "Traceback" in log and "injected failure reading /srv/secret" in log


# --------------------------------------------------------------------------- 7: no network, no endless spinner


def test_point_7_the_openai_provider_without_a_network_ends_with_a_message_and_the_server_stops(
    embed_cache, tmp_path
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"  # closed once the socket is: refused
    env = {"SAC_CACHE_DIR": str(tmp_path / "cache"), "OPENAI_BASE_URL": nowhere}
    with browser.session(env, tmp_path / "streamlit.log", stop_timeout=10) as (server, page):
        page.goto(server.url)
        page.wait_for_selector("text=Demo corpus", timeout=STEP_TIMEOUT)
        settle(page)
        _choose(page, "Summary provider", "openai (needs a key)")
        page.get_by_role("button", name="Request the summaries").click()
        page.wait_for_selector("text=Could not open the index", timeout=180_000)
        settle(page)
        main = _main(page)
        assert "cannot connect to" in main and "gave up after" in main
        assert "Opening the saved indexes" not in main  # nothing left spinning
        page.get_by_role("button", name="Request the summaries").click()  # asked again, not re-sent unasked
        page.wait_for_timeout(1500)  # requests in flight (backing off) while the server is told to stop
        process = server.process
    assert process.returncode is not None and process.returncode != -9  # stopped by SIGTERM, not killed
