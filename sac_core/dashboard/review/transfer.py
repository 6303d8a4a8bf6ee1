"""Export a session's judgements (CSV or JSONL, one row per label, answer label or preference) and
import JSONL back.

A row names everything by content, not by database id: the session's name, the query id, the
chunk's document and span ``[start, end)`` (a label) or the column's method (an answer label), the
reviewer. An answer label's row carries the answer it judged (``answer``, ``citations`` as
``[label, file_path, start, end]``, ``answerer``, ``answer_problem``, ``answer_quotes``: its
quotations as ``[start, end]`` of the answer's characters): imported where that query has
no answer for the method yet, the answer is stored with it; where another answer is stored, the
import stops with an error rather than put the label on a text it was not given for. Importing
upserts on the key, so a file imported twice, or into the database it came from, adds nothing twice.
The database URL is not in an export; nor are the times (``at``) kept on import: a judgement
imported is dated when it is imported.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
from sqlalchemy import select

from ...engine.answers import Answer, Citation
from ...engine.data import csv_bytes
from ..labels import ANSWER_LABEL_NAMES, LABEL_NAMES
from .answers import answer_of, citation_rows, quote_rows, set_answer_label, store_answer
from .db import TIE, ReviewAnswer, ReviewChunk, ReviewDB, ReviewItem
from .results import answer_label_table, label_table, preference_table
from .sessions import SessionError, session_by_name, set_label, set_preference
from .words import retrieved_by

FIELDS = ("kind", "session", "position", "query_id", "query", "methods", "file_path", "start", "end", "gold_chars",
          "method", "answer", "citations", "answerer", "answer_problem", "answer_quotes",
          "reviewer", "label", "choice", "note", "gold_shown", "at", "label_in_words", "retrieved_by")  # fmt: skip


def rows(db: ReviewDB, name: str, reviewer: str | None = None) -> Iterator[dict]:
    """Every label, then every answer label, then every preference, of session ``name`` (of one
    ``reviewer`` only when given); each with every field of :data:`FIELDS` (None where it does not apply)."""
    for row in _rows(db, name):
        if reviewer is None or row["reviewer"] == reviewer:
            yield {field: row.get(field) for field in FIELDS} | _in_words(row)


def _in_words(row: dict) -> dict[str, str | None]:
    """What a person reads in a spreadsheet (issue 45: ``right_document``, ``{"Baseline": 1}``): the
    label in words, and which methods retrieved the chunk (at which rank) or gave the answer."""
    names = LABEL_NAMES if row["kind"] == "label" else ANSWER_LABEL_NAMES
    label = row.get("label")
    if row["kind"] == "label":
        by = retrieved_by(row["methods"])
    elif row["kind"] == "answer_label":
        by = f"the answer of {row['method']}"
    else:
        by = None
    choice = row.get("choice")
    words = names.get(label) if isinstance(label, str) else ("a tie" if choice == TIE else choice)
    return {"label_in_words": words, "retrieved_by": by}


def _rows(db: ReviewDB, name: str) -> Iterator[dict]:
    session = session_by_name(db, name)
    for r in label_table(db, session.id).itertuples(index=False):
        yield {"kind": "label", "session": name, "position": int(r.position), "query_id": r.query_id,
               "query": r.query, "methods": dict(r.ranks), "file_path": r.file_path, "start": int(r.start),
               "end": int(r.end), "gold_chars": int(r.gold_chars), "reviewer": r.reviewer,
               "label": r.label if isinstance(r.label, str) else None,
               "choice": None, "note": r.note, "gold_shown": bool(r.gold_shown), "at": r.at.isoformat()}  # fmt: skip
    for r in answer_label_table(db, session.id).itertuples(index=False):
        yield {"kind": "answer_label", "session": name, "position": int(r.position), "query_id": r.query_id,
               "query": r.query, "methods": {m: i + 1 for i, m in enumerate(r.order)}, "method": r.method,
               "answer": r.answer, "citations": [list(c) for c in r.citations], "answerer": r.answerer,
               "answer_problem": r.problem if isinstance(r.problem, str) else None,
               "answer_quotes": quote_rows(Answer(r.answer, (), r.answerer, quotes=_spans(r.quotes))),
               "reviewer": r.reviewer,
               "label": r.label if isinstance(r.label, str) else None, "choice": None, "note": r.note,
               "gold_shown": bool(r.gold_shown), "at": r.at.isoformat()}  # fmt: skip
    for r in preference_table(db, session.id).itertuples(index=False):
        yield {"kind": "preference", "session": name, "position": int(r.position), "query_id": r.query_id,
               "query": None, "methods": {m: i + 1 for i, m in enumerate(r.order)}, "file_path": None,
               "start": None, "end": None, "gold_chars": None, "reviewer": r.reviewer, "label": None,
               "choice": r.choice, "note": "", "gold_shown": bool(r.gold_shown), "at": r.at.isoformat()}  # fmt: skip


def export_bytes(db: ReviewDB, name: str, fmt: str, reviewer: str | None = None) -> tuple[bytes, int]:
    """Session ``name`` (one ``reviewer``'s rows only when given) as CSV or JSONL (``fmt``), and the number of rows."""
    data = list(rows(db, name, reviewer))
    if fmt == "csv":
        frame = pd.DataFrame(data, columns=list(FIELDS))
        for column in ("methods", "citations", "answer_quotes"):  # JSON in a cell (empty where there is none)
            frame[column] = [None if v is None else json.dumps(v, ensure_ascii=False) for v in frame[column]]
        for column in ("start", "end", "gold_chars"):  # whole numbers, empty on preference rows (not 382.0)
            frame[column] = frame[column].astype("Int64")
        return csv_bytes(frame), len(data)  # a note "=HYPERLINK(…)" is written '=HYPERLINK(…)
    if fmt == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in data).encode("utf-8"), len(data)
    raise SessionError(f"export to csv or jsonl, not {fmt!r}")


def export(db: ReviewDB, name: str, path: Path) -> int:
    """Write session ``name`` to ``path`` (``.csv`` or ``.jsonl``); the number of rows."""
    path = Path(path)
    if path.suffix not in (".csv", ".jsonl"):
        raise SessionError(f"{path}: export to .csv or .jsonl")
    content, count = export_bytes(db, name, path.suffix[1:])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return count


def import_jsonl(db: ReviewDB, path: Path) -> dict[str, int]:
    """Read an export back (labels, answer labels with their answers, preferences; upserted): counts
    of rows imported."""
    counts = {"labels": 0, "answer_labels": 0, "preferences": 0}
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            counts[_import_row(db, json.loads(line))] += 1
        except (ValueError, KeyError, TypeError) as e:
            raise SessionError(f"{path}, line {n}: {e}") from None
    return counts


def _import_row(db: ReviewDB, row: dict) -> str:
    """Store one exported row; which count it adds to."""
    kind = row["kind"]
    if kind not in ("label", "answer_label", "preference"):
        raise SessionError(f"kind must be label, answer_label or preference, not {kind!r}")
    chunk_id = 0
    with db.session() as s:
        item = s.scalar(
            select(ReviewItem).join(ReviewItem.session)
            .where(ReviewItem.query_id == row["query_id"], ReviewItem.session.has(name=row["session"]))
        )  # fmt: skip
        if item is None:
            raise SessionError(f"no query {row['query_id']!r} in a session {row['session']!r}")
        if kind == "label":
            chunk = s.scalar(select(ReviewChunk).where(
                ReviewChunk.item_id == item.id, ReviewChunk.file_path == row["file_path"],
                ReviewChunk.start == row["start"], ReviewChunk.end == row["end"]))  # fmt: skip
            if chunk is None:
                raise SessionError(f"no chunk {row['file_path']} [{row['start']}, {row['end']}) there")
            chunk_id = chunk.id
    if kind == "label":
        set_label(db, chunk_id, row["reviewer"], row.get("label"), row.get("note") or "",
                  bool(row["gold_shown"]))  # fmt: skip
        return "labels"
    if kind == "answer_label":
        answer_id = _imported_answer(db, item, row)
        set_answer_label(db, answer_id, row["reviewer"], row.get("label"), row.get("note") or "",
                         gold_shown=bool(row["gold_shown"]))  # fmt: skip
        return "answer_labels"
    set_preference(db, item.id, row["reviewer"], row["choice"], bool(row["gold_shown"]))
    return "preferences"


def _imported_answer(db: ReviewDB, item: ReviewItem, row: dict) -> int:
    """The id of the (item, method) answer an answer label row judged: stored from the row when the
    query has none for the method yet; an error when it has another one."""
    method = row["method"]
    if method not in item.order:
        raise SessionError(f"{method!r} is not a column of query {item.query_id!r}")
    exported = Answer(str(row["answer"]), tuple(Citation(str(c[0]), str(c[1]), int(c[2]), int(c[3]))
                      for c in row["citations"]), str(row["answerer"]), row.get("answer_problem"),
                      quotes=_spans(row.get("answer_quotes")))  # fmt: skip
    store_answer(db, item.id, method, exported)  # kept only where none is stored
    with db.session() as s:
        stored = s.scalar(select(ReviewAnswer).where(ReviewAnswer.item_id == item.id, ReviewAnswer.method == method))
        if stored is None or (stored.text, citation_rows(answer_of(stored))) != (
            exported.text,
            citation_rows(exported),
        ):
            raise SessionError(f"query {item.query_id!r} has another answer of {method!r} stored than the one "
                               "these labels judged: not imported")  # fmt: skip
        return int(stored.id)


def _spans(raw: object) -> tuple[tuple[int, int], ...] | None:
    """Quotations as stored or exported (``[[start, end], ...]``), None when not given."""
    if raw is None or (isinstance(raw, float) and raw != raw):  # absent, or NaN in a table
        return None
    return tuple((int(a), int(b)) for a, b in raw)  # type: ignore[attr-defined]
