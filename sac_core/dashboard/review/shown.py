"""A review session's results for people (issue 36): the tables of :mod:`.results` with columns in
words and shares in percent with one decimal, intervals as ``± half their width``, ``—`` for what
cannot be computed. The exports and ``sac review report`` keep the tables' own columns."""

from __future__ import annotations

import re

import pandas as pd

from ..labels import ANSWER_LABEL_NAMES, ANSWER_LABELS
from ..wording import DASH, missing, pct
from .db import TIE
from .sessions import ItemView

MAX_NAME = 100  # characters of a reviewer's name
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def reviewer_name(raw: object) -> str:
    """A reviewer's name as typed or read from the URL (``?reviewer=``): one line, no control
    characters, at most :data:`MAX_NAME` characters, "" for none. A name, never a secret."""
    if not isinstance(raw, str):
        return ""
    return " ".join(_CONTROL.sub(" ", raw).split())[:MAX_NAME].strip()


def by_method_shown(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`~.results.by_method` in words and percent."""
    return pd.DataFrame(
        {
            "method": table["method"],
            "labelled chunks": table["labels"],
            "judged relevant": [pct(v) for v in table["judged_relevant"]],
            "gold precision": [pct(v) for v in table["gold_precision"]],
            "relevant but not gold": table["relevant_not_gold"],
        }
    )


def win_rates_shown(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`~.results.win_rates` in words: how often preferred, in percent, and the 95 % Wilson
    interval as a range ("60 % (31–83 %)"; issue 45: "60.0 % ± 26.0" raised questions)."""
    return pd.DataFrame(
        {
            "preferred": ["a tie" if c == TIE else c for c in table["choice"]],
            "on": [f"{w} of {n} queries" for w, n in zip(table["wins"], table["of"])],
            "share (95 % confidence)": [
                _range(s, lo, hi) for s, lo, hi in zip(table["share"], table["ci_low"], table["ci_high"])
            ],
        }
    )


def _range(share: float, low: float, high: float) -> str:
    if missing(share):
        return DASH
    return f"{round(share * 100)} % ({round(low * 100)}–{round(high * 100)} %)"


def answers_by_method_shown(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`~.results.answers_by_method` in words and percent."""
    out = pd.DataFrame({"method": table["method"], "labelled answers": table["labels"]})
    for label in ANSWER_LABELS:
        out[ANSWER_LABEL_NAMES[label]] = table[label]
    for label in ("correct", "wrong_document", "unsupported"):
        out[f"{ANSWER_LABEL_NAMES[label]} (share)"] = [pct(v) for v in table[f"{label}_share"]]
    out["reviewers agree"] = [pct(v) for v in table["agreement"]]
    out["answers labelled twice or more"] = table["agreement_of"]
    out["kappa"] = [DASH if missing(v) else kappa_text(v) for v in table["kappa"]]
    return out


def outlined_card(view: ItemView) -> tuple[str, int] | None:
    """(column letter, rank) of the card the keys 1–5 label: the first copy, in column order, of the
    first chunk not labelled yet (None when every chunk is labelled)."""
    if view.unlabelled is None:
        return None
    for letter, column in view.columns:
        for chunk in column:
            if chunk.chunk_id == view.unlabelled.chunk_id:
                return letter, chunk.rank
    return None


def kappa_text(value: object) -> str:
    """A kappa with two decimals, or why there is none."""
    return "undefined (one label throughout)" if missing(value) else f"{float(value):.2f}"  # type: ignore[arg-type]
