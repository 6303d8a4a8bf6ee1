"""Each column's answer in a review session, and the reviewers' labels of it.

When a reviewer opens a query, every column that has no answer yet gets one, written from that
column's top-k chunks (``#1`` … by rank, the labels its cards show) by the answerer given (the page
gives the offline extractive one over its embedding model), and stored **once** per (item,
method): an insert that does nothing when another reviewer stored it first, so every reviewer sees
the same answer and it is never written again. The page gets the answers by blind letter only.

An answer label (``correct``, ``wrong_document``, ``unsupported``, ``cant_tell``) is one row per
answer and reviewer with a note, stored like a chunk label: at once, and a note with or without a
label.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from ...engine.answers import Answer, Answerer, Citation, Excerpt
from ..answers import anchor, answer_html
from ..labels import ANSWER_LABELS
from .db import AnswerLabel, ReviewAnswer, ReviewDB, ReviewItem, now
from .sessions import LETTERS, ChunkView, ItemView, SessionError, upsert


@dataclass(frozen=True)
class ColumnAnswer:
    """A column's stored answer as the page shows it: by letter (blind), its citations unchecked."""

    letter: str
    answer_id: int
    answer: Answer


def excerpts(chunks: Sequence[ChunkView], texts: Mapping[int, str]) -> tuple[Excerpt, ...]:
    """A column's chunks (rank order) as the excerpts its answer cites: ``#<rank>`` each, text from
    ``texts`` (chunk id → the chunk's characters)."""
    return tuple(Excerpt(f"#{c.rank}", c.file_path, c.start, c.end, texts[c.chunk_id]) for c in chunks)


def answer_of(row: ReviewAnswer) -> Answer:
    """A stored answer as an :class:`Answer` (citations not checked against any gold; quotations
    as stored, or found in the text for an answer stored before they were)."""
    citations = tuple(Citation(str(label), str(fp), int(start), int(end)) for label, fp, start, end in row.citations)
    quotes = None if row.quotes is None else tuple((int(a), int(b)) for a, b in row.quotes)
    return Answer(row.text, citations, row.answerer, row.problem, quotes=quotes)


def quote_rows(answer: Answer) -> list[list[int]]:
    """An answer's quotations as stored and exported: ``[start, end]`` each (characters of its text)."""
    return [[a, b] for a, b in answer.quote_spans]


def citation_rows(answer: Answer) -> list[list[object]]:
    """An answer's citations as stored and exported: ``[label, file_path, start, end]`` each."""
    return [[c.label, c.file_path, c.start, c.end] for c in answer.citations]


def store_answer(db: ReviewDB, item_id: int, method: str, answer: Answer) -> None:
    """Keep ``answer`` as the (item, method) answer unless one is stored already (that one stays)."""
    values = {"item_id": item_id, "method": method, "answerer": answer.answerer, "text": answer.text,
              "citations": citation_rows(answer), "problem": answer.problem, "quotes": quote_rows(answer),
              "at": now()}  # fmt: skip
    upsert(db, ReviewAnswer, values, ("item_id", "method"), ())


def _stored(db: ReviewDB, item_id: int) -> tuple[list[str], dict[str, ReviewAnswer]]:
    """The item's methods in blind order, and its stored answers by method."""
    with db.session() as s:
        item = s.get(ReviewItem, item_id)
        if item is None:
            raise SessionError(f"no review item {item_id}")
        rows = s.scalars(select(ReviewAnswer).where(ReviewAnswer.item_id == item_id))
        return [str(m) for m in item.order], {r.method: r for r in rows}


def column_answers(
    db: ReviewDB, view: ItemView, texts: Mapping[int, str], answerer: Callable[[], Answerer]
) -> tuple[ColumnAnswer, ...]:
    """Every column's answer (column A first): the stored ones, and those missing written now from
    the column's chunks (``texts``: chunk id → text) by ``answerer()`` (called only when one is
    missing) and stored once."""
    order, stored = _stored(db, view.item_id)
    missing = [(letter, method) for letter, method in zip(LETTERS, order) if method not in stored]
    if missing:
        writer, chunks = answerer(), dict(view.columns)
        for letter, method in missing:
            store_answer(db, view.item_id, method, writer.answer(view.query_text, excerpts(chunks[letter], texts)))
        order, stored = _stored(db, view.item_id)  # another reviewer's may have come first: that one is kept
    return tuple(ColumnAnswer(letter, stored[m].id, answer_of(stored[m])) for letter, m in zip(LETTERS, order))


def card_anchor(letter: str, rank: int) -> str:
    """The HTML id of the card of column ``letter``'s ``rank``-th chunk: what its answer's ``[#rank]``
    links to. Made from the blind letter, so the page's HTML names no method."""
    return anchor(letter, rank)


def answer_box_html(
    column: ColumnAnswer, gold: Collection[tuple[str, int, int]], *, show_gold: bool, blind: bool = False
) -> str:
    """The column's answer box (:func:`~sac_core.dashboard.answers.answer_html`): each citation a link
    to the column's card (:func:`card_anchor`), marked ✓/✗ (a chunk of a gold document or not) only
    when the reviewer shows gold. ``blind`` (no preference on this query yet): no verdict at all on
    the answer (no badge, no "quotes 3 documents", no malformed-answer notice), so the reviewer
    judges it unprompted (issue 45)."""
    files = {file_path for file_path, _, _ in gold} if show_gold else None
    return answer_html(column.answer.checked(files), column.letter, verdicts=not blind)


def set_answer_label(
    db: ReviewDB, answer_id: int, reviewer: str, label: str | None, note: str | None = None, *, gold_shown: bool = False
) -> None:
    """A reviewer's label of an answer (None: none, e.g. taken back); ``note`` None keeps the note stored."""
    if label is not None and label not in ANSWER_LABELS:
        raise SessionError(f"unknown answer label {label!r}; choose one of {', '.join(ANSWER_LABELS)}")
    values = {"answer_id": answer_id, "reviewer": reviewer, "label": label, "note": note or "",
              "gold_shown": gold_shown, "at": now()}  # fmt: skip
    update = ("label", "gold_shown", "at") if note is None else ("label", "note", "gold_shown", "at")
    upsert(db, AnswerLabel, values, ("answer_id", "reviewer"), update)


def set_answer_note(db: ReviewDB, answer_id: int, reviewer: str, note: str) -> None:
    """A reviewer's note on an answer, labelled or not (the label stays as it is)."""
    values = {"answer_id": answer_id, "reviewer": reviewer, "label": None, "note": note, "gold_shown": False,
              "at": now()}  # fmt: skip
    upsert(db, AnswerLabel, values, ("answer_id", "reviewer"), ("note", "at"))


def answer_labels(db: ReviewDB, answer_ids: Collection[int], reviewer: str) -> dict[int, tuple[str | None, str]]:
    """This reviewer's (label or None, note) of each of ``answer_ids`` that has a row."""
    with db.session() as s:
        rows = s.scalars(
            select(AnswerLabel).where(AnswerLabel.answer_id.in_(list(answer_ids)), AnswerLabel.reviewer == reviewer)
        )
        return {r.answer_id: (r.label, r.note) for r in rows}
