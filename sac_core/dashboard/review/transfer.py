"""Export a session's judgements (CSV or JSONL, one row per label or preference) and import JSONL back.

A row names everything by content, not by database id: the session's name, the query id, the
chunk's document and span ``[start, end)``, the reviewer. Importing upserts on that key, so a file
imported twice, or into the database it came from, adds nothing twice. The database URL is not in
an export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
from sqlalchemy import select

from .db import ReviewChunk, ReviewDB, ReviewItem
from .results import label_table, preference_table
from .sessions import SessionError, session_by_name, set_label, set_preference

FIELDS = ("kind", "session", "position", "query_id", "query", "methods", "file_path", "start", "end", "gold_chars",
          "reviewer", "label", "choice", "note", "gold_shown", "at")  # fmt: skip


def rows(db: ReviewDB, name: str) -> Iterator[dict]:
    """Every label, then every preference, of session ``name``."""
    session = session_by_name(db, name)
    for r in label_table(db, session.id).itertuples(index=False):
        yield {"kind": "label", "session": name, "position": int(r.position), "query_id": r.query_id,
               "query": r.query, "methods": dict(r.ranks), "file_path": r.file_path, "start": int(r.start),
               "end": int(r.end), "gold_chars": int(r.gold_chars), "reviewer": r.reviewer,
               "label": r.label if isinstance(r.label, str) else None,
               "choice": None, "note": r.note, "gold_shown": bool(r.gold_shown), "at": r.at.isoformat()}  # fmt: skip
    for r in preference_table(db, session.id).itertuples(index=False):
        yield {"kind": "preference", "session": name, "position": int(r.position), "query_id": r.query_id,
               "query": None, "methods": {m: i + 1 for i, m in enumerate(r.order)}, "file_path": None,
               "start": None, "end": None, "gold_chars": None, "reviewer": r.reviewer, "label": None,
               "choice": r.choice, "note": "", "gold_shown": bool(r.gold_shown), "at": r.at.isoformat()}  # fmt: skip


def export_bytes(db: ReviewDB, name: str, fmt: str) -> tuple[bytes, int]:
    """Session ``name`` as CSV or JSONL (``fmt``), and the number of rows."""
    data = list(rows(db, name))
    if fmt == "csv":
        frame = pd.DataFrame(data, columns=list(FIELDS))
        frame["methods"] = [json.dumps(m, ensure_ascii=False) for m in frame["methods"]]
        for column in ("start", "end", "gold_chars"):  # whole numbers, empty on preference rows (not 382.0)
            frame[column] = frame[column].astype("Int64")
        return frame.to_csv(index=False).encode("utf-8"), len(data)
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
    """Read an export back (labels and preferences, upserted): counts of rows imported."""
    counts = {"labels": 0, "preferences": 0}
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            chunk_id: int | None = None
            with db.session() as s:
                item = s.scalar(
                    select(ReviewItem).join(ReviewItem.session)
                    .where(ReviewItem.query_id == row["query_id"], ReviewItem.session.has(name=row["session"]))
                )  # fmt: skip
                if item is None:
                    raise SessionError(f"no query {row['query_id']!r} in a session {row['session']!r}")
                if row["kind"] == "label":
                    chunk = s.scalar(select(ReviewChunk).where(
                        ReviewChunk.item_id == item.id, ReviewChunk.file_path == row["file_path"],
                        ReviewChunk.start == row["start"], ReviewChunk.end == row["end"]))  # fmt: skip
                    if chunk is None:
                        raise SessionError(f"no chunk {row['file_path']} [{row['start']}, {row['end']}) there")
                    chunk_id = chunk.id
            if row["kind"] == "label" and chunk_id is not None:
                set_label(db, chunk_id, row["reviewer"], row.get("label"), row.get("note") or "",
                          bool(row["gold_shown"]))  # fmt: skip
                counts["labels"] += 1
            elif row["kind"] == "preference":
                set_preference(db, item.id, row["reviewer"], row["choice"], bool(row["gold_shown"]))
                counts["preferences"] += 1
            else:
                raise SessionError(f"kind must be label or preference, not {row['kind']!r}")
        except (ValueError, KeyError, TypeError) as e:
            raise SessionError(f"{path}, line {n}: {e}") from None
    return counts
