"""Review sessions: a sample of queries, the top-k of 2–5 methods for each, judged **blind**.

For each query the methods' columns are shown as A, B, C … in an order shuffled per query from the
session's seed (``random.Random(f"{seed}:{query_id}")``: reproducible, and different from query to
query). A chunk retrieved by several methods is stored once and labelled once; the page shows it
(and its label) in every column that retrieved it, never saying which other column has it too.
Which method a letter stands for is revealed only after the reviewer has stated a preference for
that query.

A session belongs to the data folder it was made on (:func:`folder_key`); :func:`session_choice`
puts the current folder's sessions first and says which belong elsewhere.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite

from ...engine.data import Benchmark, Query, Span, confined, read_document
from ...experiments import Column, Workspace
from ...experiments.significance import flipped_queries
from ..labels import LABELS
from .db import (
    TIE,
    AnswerLabel,
    Label,
    Preference,
    ReviewAnswer,
    ReviewChunk,
    ReviewDB,
    ReviewItem,
    ReviewSession,
    now,
)

LETTERS = "ABCDE"


class SessionError(ValueError):
    """A session cannot be made as asked (the message says why)."""


def blind_order(seed: int, query_id: str, methods: Sequence[str]) -> list[str]:
    """The methods in the column order shown for one query (A first)."""
    return random.Random(f"{seed}:{query_id}").sample(list(methods), len(methods))


def sample_queries(bench: Benchmark, datasets: Sequence[str], size: int, seed: int) -> list[Query]:
    """``size`` queries of ``datasets``, drawn with ``seed`` (all of them when there are fewer)."""
    pool = [q for q in bench.queries if q.dataset in datasets]
    return random.Random(seed).sample(pool, min(size, len(pool)))


def flipped_sample(
    bench: Benchmark, per_query: pd.DataFrame, cell_a: str, cell_b: str, metric: str, k: int, size: int, seed: int
) -> list[Query]:
    """Queries whose ``metric@k`` differs between two sweep cells (from the significance tables'
    per-query results), ``size`` of them drawn with ``seed``."""
    changed = flipped_queries(per_query, cell_a, cell_b, metric, k, key="cell")
    known = {q.query_id: q for q in bench.queries}
    flipped = [known[qid] for qid in changed["query_id"] if qid in known]
    return random.Random(seed).sample(flipped, min(size, len(flipped)))


def folder_key(data_dir: Path) -> str:
    """What identifies a data folder in a session: its resolved path (links and ``..`` followed)."""
    return os.path.realpath(data_dir)


@dataclass(frozen=True)
class SessionChoice:
    """The sessions as the page offers them: this folder's newest first, then those of unknown
    folders (made before sessions recorded one), then other folders'; ``index`` of the default:
    this folder's newest, else the newest of an unknown folder (it may be this one: opened, it
    says so if its documents are not here), else None (never another folder's)."""

    names: tuple[str, ...]
    index: int | None
    elsewhere: frozenset[str]  # made on another data folder: not opened here
    unknown: frozenset[str]  # made before sessions recorded their folder


def session_choice(sessions: Sequence[ReviewSession], data_dir: Path) -> SessionChoice:
    here = folder_key(data_dir)
    newest = sorted(sessions, key=lambda x: x.created_at, reverse=True)
    mine = [x.name for x in newest if x.folder == here]
    unknown = [x.name for x in newest if x.folder is None]
    other = [x.name for x in newest if x.folder is not None and x.folder != here]
    default = 0 if mine or unknown else None
    return SessionChoice(tuple(mine + unknown + other), default, frozenset(other), frozenset(unknown))


def _gold_chars(query: Query, file_path: str, start: int, end: int) -> int:
    return sum(max(0, min(end, g.end) - max(start, g.start)) for g in query.gold if g.file_path == file_path)


@dataclass(frozen=True)
class SessionPlan:
    """A session to create: its name, who creates it, a label of the data, the methods (2–5
    columns of the workspace) and queries to review, how many chunks of each (``k``), the seed of
    the blind order, how the queries were sampled (kept with the session), and the data folder the
    queries come from (recorded as :func:`folder_key`, so the session opens only there)."""

    name: str
    reviewer: str
    data: str
    methods: Sequence[Column]
    queries: Sequence[Query]
    k: int
    seed: int
    sample: Mapping[str, object]
    folder: Path | None = None


def create_session(db: ReviewDB, ws: Workspace, plan: SessionPlan) -> int:
    """Retrieve the top ``k`` of every method for every query and store the session; its id."""
    name, methods, queries, k, seed = plan.name, plan.methods, plan.queries, plan.k, plan.seed
    names = [m.name for m in methods]
    if not 2 <= len(names) <= len(LETTERS) or len(set(names)) != len(names):
        raise SessionError("choose 2 to 5 different methods to review")
    if not queries:
        raise SessionError("the sample has no queries")
    if not name.strip():
        raise SessionError("give the session a name")
    with db.session() as s:
        if s.scalar(select(ReviewSession.id).where(ReviewSession.name == name)) is not None:
            raise SessionError(f"a session named {name!r} exists already: open it to resume")
        session = ReviewSession(
            name=name, created_by=plan.reviewer, data=plan.data, k=k, seed=seed, sample=dict(plan.sample),
            folder=None if plan.folder is None else folder_key(plan.folder),
            methods=[{"name": m.name, "config": m.config.columns()} for m in methods],
        )  # fmt: skip
        s.add(session)
        s.flush()
        subset = Workspace(ws.bench, methods, ws.retrievers, ws.summaries, ws.data_key)
        for position, query in enumerate(queries):
            item = ReviewItem(
                session_id=session.id, position=position, query_id=query.query_id, dataset=query.dataset,
                query_text=query.text, gold=[[g.file_path, g.start, g.end] for g in query.gold],
                order=blind_order(seed, query.query_id, names),
            )  # fmt: skip
            s.add(item)
            s.flush()
            chunks: dict[tuple[str, int, int], dict[str, int]] = {}
            for result in subset.search(query.text, k, query):
                for rank, hit in enumerate(result.hits, start=1):
                    key = (hit.chunk.file_path, hit.chunk.start, hit.chunk.end)
                    chunks.setdefault(key, {})[result.column.name] = rank
            for (fp, start, end), ranks in chunks.items():
                s.add(ReviewChunk(item_id=item.id, file_path=fp, start=start, end=end, ranks=ranks,
                                  gold_chars=_gold_chars(query, fp, start, end)))  # fmt: skip
        return session.id


# --------------------------------------------------------------------------- judgements


def upsert(db: ReviewDB, table: type, values: dict, keys: tuple[str, ...], update: tuple[str, ...]) -> None:
    """Insert a row, or update it when its natural key exists (``update`` empty: leave it as it is):
    atomic in the database, so two writers of the same row leave exactly one."""
    dialect = db.engine.dialect.name
    statement: sqlite.Insert | postgresql.Insert
    if dialect == "sqlite":
        lite = sqlite.insert(table).values(**values)
        statement = (lite.on_conflict_do_update(index_elements=list(keys), set_={c: lite.excluded[c] for c in update})
                     if update else lite.on_conflict_do_nothing(index_elements=list(keys)))  # fmt: skip
    elif dialect == "postgresql":
        pg = postgresql.insert(table).values(**values)
        statement = (pg.on_conflict_do_update(index_elements=list(keys), set_={c: pg.excluded[c] for c in update})
                     if update else pg.on_conflict_do_nothing(index_elements=list(keys)))  # fmt: skip
    else:
        raise SessionError(f"review databases are SQLite or PostgreSQL, not {dialect}")
    with db.session() as s:
        s.execute(statement)


def set_label(
    db: ReviewDB, chunk_id: int, reviewer: str, label: str | None, note: str | None = None, gold_shown: bool = False
) -> None:
    """Store a reviewer's label of a chunk (None: no label, e.g. one taken back); ``note`` None
    keeps the note already stored, so a label given by a key press never clears a typed note."""
    if label is not None and label not in LABELS:
        raise SessionError(f"unknown label {label!r}; choose one of {', '.join(LABELS)}")
    values = {"chunk_id": chunk_id, "reviewer": reviewer, "label": label, "note": note or "", "gold_shown": gold_shown,
              "at": now()}  # fmt: skip
    update = ("label", "gold_shown", "at") if note is None else ("label", "note", "gold_shown", "at")
    upsert(db, Label, values, ("chunk_id", "reviewer"), update)


def set_note(db: ReviewDB, chunk_id: int, reviewer: str, note: str) -> None:
    """Store a reviewer's note on a chunk, labelled or not (the label stays as it is)."""
    values = {"chunk_id": chunk_id, "reviewer": reviewer, "label": None, "note": note, "gold_shown": False,
              "at": now()}  # fmt: skip
    upsert(db, Label, values, ("chunk_id", "reviewer"), ("note", "at"))


def set_preference(db: ReviewDB, item_id: int, reviewer: str, choice: str, gold_shown: bool = False) -> None:
    """``choice``: a method name of the item's session, or ``"tie"``."""
    with db.session() as s:
        item = s.get(ReviewItem, item_id)
        if item is None or (choice != TIE and choice not in item.order):
            raise SessionError(f"{choice!r} is not a column of this query")
    values = {"item_id": item_id, "reviewer": reviewer, "choice": choice, "gold_shown": gold_shown, "at": now()}
    upsert(db, Preference, values, ("item_id", "reviewer"), ("choice", "gold_shown", "at"))


# --------------------------------------------------------------------------- what the page shows


@dataclass(frozen=True)
class ChunkView:
    chunk_id: int
    file_path: str
    start: int
    end: int
    rank: int
    first: str | None  # "B#2" when this chunk is shown first in another column (never shown: blind)


@dataclass(frozen=True)
class ItemView:
    """One query as a reviewer sees it: blind columns, their own labels and preference."""

    item_id: int
    position: int
    total: int
    query_id: str
    query_text: str
    gold: tuple[tuple[str, int, int], ...]
    columns: tuple[tuple[str, tuple[ChunkView, ...]], ...]  # (letter, chunks in rank order)
    labels: Mapping[int, tuple[str | None, str]]  # chunk id → (label or None, note) of this reviewer
    preference: str | None  # the letter (or "tie") this reviewer preferred, None before
    methods: Mapping[str, str] | None  # letter → method name: only once a preference is given

    @property
    def gold_spans(self) -> list[Span]:
        return [Span(fp, start, end) for fp, start, end in self.gold]

    @property
    def chunks(self) -> list[ChunkView]:
        """Every chunk once, in the order shown (column A first)."""
        return [c for _, chunks in self.columns for c in chunks if c.first is None]

    def label(self, chunk_id: int) -> str | None:
        return self.labels.get(chunk_id, (None, ""))[0]

    def note(self, chunk_id: int) -> str:
        return self.labels.get(chunk_id, (None, ""))[1]

    @property
    def unlabelled(self) -> ChunkView | None:
        """The first chunk (column A first) without a label: the one keys 1–5 label."""
        return next((c for c in self.chunks if self.label(c.chunk_id) is None), None)

    @property
    def done(self) -> bool:
        return self.preference is not None and self.unlabelled is None


def item_view(db: ReviewDB, session_id: int, position: int, reviewer: str) -> ItemView:
    with db.session() as s:
        total = s.scalar(select(func.count()).select_from(ReviewItem).where(ReviewItem.session_id == session_id))
        item = s.scalar(select(ReviewItem).where(ReviewItem.session_id == session_id, ReviewItem.position == position))
        if item is None:
            raise SessionError(f"no query at position {position} of this session")
        chunks = list(s.scalars(select(ReviewChunk).where(ReviewChunk.item_id == item.id)))
        labels = {row.chunk_id: (row.label, row.note) for row in s.scalars(
            select(Label).where(Label.chunk_id.in_([c.id for c in chunks]), Label.reviewer == reviewer))}  # fmt: skip
        pref = s.scalar(select(Preference).where(Preference.item_id == item.id, Preference.reviewer == reviewer))
        columns: list[tuple[str, tuple[ChunkView, ...]]] = []
        seen: dict[int, str] = {}
        for letter, method in zip(LETTERS, item.order):
            ranked = sorted((c for c in chunks if method in c.ranks), key=lambda c: c.ranks[method])
            views = []
            for c in ranked:
                where = f"{letter}#{c.ranks[method]}"
                views.append(ChunkView(c.id, c.file_path, c.start, c.end, c.ranks[method], seen.get(c.id)))
                seen.setdefault(c.id, where)
            columns.append((letter, tuple(views)))
        letter_of = dict(zip(item.order, LETTERS))
        choice = None if pref is None else (TIE if pref.choice == TIE else letter_of.get(pref.choice))
        return ItemView(
            item.id, item.position, int(total or 0), item.query_id, item.query_text,
            tuple((g[0], int(g[1]), int(g[2])) for g in item.gold), tuple(columns), labels, choice,
            dict(zip(LETTERS, item.order)) if pref is not None else None,
        )  # fmt: skip


def label_next(
    db: ReviewDB, session_id: int, position: int, reviewer: str, label: str, *, gold_shown: bool = False
) -> int | None:
    """A label key pressed: ``label`` for the first chunk of the query at ``position`` that this
    reviewer has not labelled yet, as stored now (column A first; its note kept); its id, or None
    when every chunk is labelled. Two presses label two chunks, whatever the page showed between."""
    target = item_view(db, session_id, position, reviewer).unlabelled
    if target is None:
        return None
    set_label(db, target.chunk_id, reviewer, label, gold_shown=gold_shown)
    return target.chunk_id


@dataclass(frozen=True)
class Progress:
    items: int
    done: int  # items with every chunk labelled and a preference
    labels: int
    preferences: int
    next_open: int | None  # the first position not done yet
    answer_labels: int = 0  # answers this reviewer labelled (not needed for an item to be done)
    open_positions: tuple[int, ...] = ()  # every position not done yet, in order

    @property
    def finished(self) -> bool:
        """Every query done: only then may this reviewer see results by method (before, they would
        say which blind column is which method: label a chunk one column shows, watch a count rise)."""
        return self.items > 0 and self.done == self.items

    def open_after(self, position: int) -> int | None:
        """The next position not done after ``position``, wrapping round to the first; None when no
        other position is open (what "Next open" goes to)."""
        others = [p for p in self.open_positions if p != position]
        return next((p for p in others if p > position), others[0] if others else None)


def progress(db: ReviewDB, session_id: int, reviewer: str) -> Progress:
    with db.session() as s:
        items = list(s.scalars(select(ReviewItem).where(ReviewItem.session_id == session_id)
                               .order_by(ReviewItem.position)))  # fmt: skip
        chunk_rows = s.execute(select(ReviewChunk.id, ReviewChunk.item_id)
                               .where(ReviewChunk.item_id.in_([i.id for i in items]))).all()  # fmt: skip
        labelled = set(s.scalars(select(Label.chunk_id).where(
            Label.chunk_id.in_([c.id for c in chunk_rows]), Label.reviewer == reviewer,
            Label.label.is_not(None))))  # fmt: skip
        preferred = set(s.scalars(select(Preference.item_id).where(
            Preference.item_id.in_([i.id for i in items]), Preference.reviewer == reviewer)))  # fmt: skip
        answered = s.scalar(select(func.count()).select_from(AnswerLabel).join(ReviewAnswer).where(
            ReviewAnswer.item_id.in_([i.id for i in items]), AnswerLabel.reviewer == reviewer,
            AnswerLabel.label.is_not(None)))  # fmt: skip
    by_item: dict[int, list[int]] = {}
    for chunk_id, item_id in chunk_rows:
        by_item.setdefault(item_id, []).append(chunk_id)
    done = [i.position for i in items if i.id in preferred and all(c in labelled for c in by_item.get(i.id, []))]
    open_ = [i.position for i in items if i.position not in set(done)]
    return Progress(
        len(items), len(done), len(labelled), len(preferred), open_[0] if open_ else None, int(answered or 0),
        tuple(open_),
    )  # fmt: skip


def method_of(db: ReviewDB, item_id: int, letter: str) -> str:
    """The method behind a column letter of one query (to store a preference; never shown before)."""
    with db.session() as s:
        item = s.get(ReviewItem, item_id)
        if item is None or letter not in LETTERS[: len(item.order)]:
            raise SessionError(f"no column {letter!r} in this query")
        return str(item.order[LETTERS.index(letter)])


def session_by_name(db: ReviewDB, name: str) -> ReviewSession:
    with db.session() as s:
        session = s.scalar(select(ReviewSession).where(ReviewSession.name == name))
        if session is None:
            raise SessionError(f"no review session named {name!r}")
        return session


def document_text(data_dir: Path, file_path: str) -> str:
    """The text of a reviewed document as the file holds it now: read once per version of the file
    (its size and modification time), so an edited document is never shown from memory and a page
    run does not read a document again per chunk; confined like every data read."""
    try:
        st = confined(Path(data_dir) / "corpus" / file_path).stat()
    except OSError:
        return read_document(Path(data_dir), file_path).text  # raises naming the file
    return _text(Path(data_dir), file_path, st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=256)
def _text(data_dir: Path, file_path: str, size: int, mtime_ns: int) -> str:
    """:func:`document_text` of one version of the file (``size`` and ``mtime_ns`` only key it)."""
    return read_document(data_dir, file_path).text
