"""A finished review in words (issue 45: results read "gold precision 0.0 %", "share (± half the 95 %
interval) 60.0 % ± 26.0", and left out the reviewer's notes): a paragraph per method that a lawyer
reads as a sentence, and every note beside the query, column and label it was written on.

Input: the tables of :mod:`.results` (labels, preferences, answer labels; one reviewer's rows or the
team's). Percentages are whole numbers: a review of ten queries does not support a decimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..labels import ANSWER_LABEL_NAMES, LABEL_NAMES
from .db import TIE
from .results import RELEVANT, win_rates


@dataclass(frozen=True)
class Note:
    """One note as the results list it: where it was written and what was said."""

    query: int  # 1-based position in the session
    question: str
    on: str  # "a chunk of Baseline (#1) and SAC generic (#3)", "the answer of Recommended"
    label: str  # the label in words, "" when none was given
    note: str
    reviewer: str


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "—"


def retrieved_by(ranks: dict[str, int]) -> str:
    """``{"Baseline": 1, "SAC generic": 3}`` in words: "Baseline (#1) and SAC generic (#3)"."""
    parts = [f"{method} (#{rank})" for method, rank in sorted(ranks.items(), key=lambda mr: (mr[1], mr[0]))]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def method_paragraph(
    method: str, labels: pd.DataFrame, answers: pd.DataFrame, prefs: pd.DataFrame, methods: Sequence[str], *, you: bool
) -> str:
    """What the judgements say of one method, in sentences (plain text; ``you``: one reviewer's own)."""
    who = "You" if you else "The reviewers"
    mine = labels[[method in r for r in labels["ranks"]]] if len(labels) else labels
    mine = mine[mine["label"].notna()] if len(mine) else mine
    said = [method + ":"]
    if len(mine):
        counts = mine["label"].value_counts()
        relevant = int(sum(counts.get(x, 0) for x in RELEVANT))
        judged = len(mine) - int(counts.get("cant_tell", 0))
        said.append(f"{who} labelled {len(mine)} of its chunks: {relevant} relevant or partly relevant "
                    f"({_percent(relevant, judged)} of those judged), {int(counts.get('wrong_document', 0))} from "
                    f"the wrong document, {int(counts.get('right_document', 0))} from the right document but the "
                    f"wrong passage, {int(counts.get('cant_tell', 0))} could not be told.")  # fmt: skip
        outside = int(((mine["label"].isin(RELEVANT)) & (mine["gold_chars"] == 0)).sum())
        if outside:
            said.append(f"{outside} of the relevant ones lie outside the benchmark's answer passages.")
    else:
        said.append(f"{who} labelled none of its chunks.")
    theirs = answers[(answers["method"] == method) & answers["label"].notna()] if len(answers) else answers
    if len(theirs):
        counts = theirs["label"].value_counts()
        listed = ", ".join(f"{int(counts[k])} {ANSWER_LABEL_NAMES[k]}" for k in ANSWER_LABEL_NAMES if k in counts)
        said.append(f"Its answers, of {len(theirs)} labelled: {listed}.")
    rates = win_rates(prefs, list(methods)).set_index("choice")
    if len(prefs):
        row = rates.loc[method]
        said.append(f"{who} preferred its column on {int(row['wins'])} of {int(row['of'])} queries "
                    f"({_percent(int(row['wins']), int(row['of']))}; with 95 % confidence between "
                    f"{round(100 * row['ci_low'])} % and {round(100 * row['ci_high'])} %).")  # fmt: skip
    return " ".join(said)


def ties(prefs: pd.DataFrame) -> str:
    """How many preferences were a tie, in words ("" when none)."""
    n = int((prefs["choice"] == TIE).sum()) if len(prefs) else 0
    return f"{n} of {len(prefs)} preferences were a tie (no column better)." if n else ""


def notes(labels: pd.DataFrame, answers: pd.DataFrame) -> list[Note]:
    """Every note written, query by query: on a chunk (the methods that retrieved it, with ranks) or
    on a column's answer, with the label given beside it."""
    out = []
    for r in labels.itertuples() if len(labels) else ():
        if isinstance(r.note, str) and r.note.strip():
            label = LABEL_NAMES.get(r.label, "") if isinstance(r.label, str) else ""
            out.append(Note(int(r.position) + 1, r.query, f"a chunk of {retrieved_by(dict(r.ranks))}", label, r.note,
                            r.reviewer))  # fmt: skip
    for r in answers.itertuples() if len(answers) else ():
        if isinstance(r.note, str) and r.note.strip():
            label = ANSWER_LABEL_NAMES.get(r.label, "") if isinstance(r.label, str) else ""
            out.append(Note(int(r.position) + 1, r.query, f"the answer of {r.method}", label, r.note, r.reviewer))
    return sorted(out, key=lambda n: (n.query, n.on, n.reviewer))


def notes_table(found: Sequence[Note], *, team: bool) -> pd.DataFrame:
    """:func:`notes` as a table for the page (the reviewer's column for the team only)."""
    rows = [{"query": f"{n.query}. {n.question}", "on": n.on, "label": n.label or "—", "note": n.note,
             **({"reviewer": n.reviewer} if team else {})} for n in found]  # fmt: skip
    return pd.DataFrame(rows)
