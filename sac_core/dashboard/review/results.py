"""What a review session found: per method, how relevant experts judged its chunks against how much
of them the gold spans cover, which method they preferred, and how much the reviewers agree.

- **judged relevant**: the share of a method's labelled chunks judged *relevant* or *partly
  relevant* (``can't tell`` left out), beside the **gold precision** of the same chunks
  (characters inside gold spans over characters retrieved) and the **relevant but not gold**
  count: chunks judged relevant or partly relevant that no gold span touches, the evidence that
  LegalBench-RAG's gold is incomplete.
- **preference**: how often each method's column was preferred, ties apart, with a 95 % Wilson
  interval (statsmodels).
- **agreement**: Cohen's kappa (scikit-learn) for two reviewers, Fleiss' kappa (statsmodels) for
  more, over the chunks every one of them labelled (undefined, NaN, when they all gave one label).
- **answers**: per method, how many of its answers were labelled correct, wrong document,
  unsupported by the excerpts or can't tell, the shares of the first three among the answers
  judged (can't tell left out), the observed agreement (answers labelled by two reviewers or more
  on which all gave the same label) and kappa over the method's answers every reviewer labelled.
"""

from __future__ import annotations

import pandas as pd
from sqlalchemy import select

from ..labels import ANSWER_LABELS
from .db import TIE, AnswerLabel, Label, Preference, ReviewAnswer, ReviewChunk, ReviewDB, ReviewItem

RELEVANT = ("relevant", "partly")


def label_table(db: ReviewDB, session_id: int) -> pd.DataFrame:
    """One row per label: item, chunk (span, gold characters, ranks by method), reviewer, label
    (None for a note given without a label yet)."""
    with db.session() as s:
        rows = s.execute(
            select(ReviewItem.position, ReviewItem.query_id, ReviewItem.query_text, ReviewChunk.id,
                   ReviewChunk.file_path, ReviewChunk.start, ReviewChunk.end, ReviewChunk.ranks,
                   ReviewChunk.gold_chars, Label.reviewer, Label.label, Label.note, Label.gold_shown, Label.at)
            .join(ReviewChunk, ReviewChunk.item_id == ReviewItem.id)
            .join(Label, Label.chunk_id == ReviewChunk.id)
            .where(ReviewItem.session_id == session_id)
            .order_by(ReviewItem.position, ReviewChunk.id, Label.reviewer)
        ).all()  # fmt: skip
    columns = ["position", "query_id", "query", "chunk_id", "file_path", "start", "end", "ranks", "gold_chars",
               "reviewer", "label", "note", "gold_shown", "at"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def preference_table(db: ReviewDB, session_id: int) -> pd.DataFrame:
    with db.session() as s:
        rows = s.execute(
            select(ReviewItem.position, ReviewItem.query_id, ReviewItem.order, Preference.reviewer, Preference.choice,
                   Preference.gold_shown, Preference.at)
            .join(Preference, Preference.item_id == ReviewItem.id)
            .where(ReviewItem.session_id == session_id)
            .order_by(ReviewItem.position, Preference.reviewer)
        ).all()  # fmt: skip
    return pd.DataFrame(rows, columns=["position", "query_id", "order", "reviewer", "choice", "gold_shown", "at"])


def by_method(labels: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    """Per method: labelled chunks, share judged relevant or partly, gold precision of the same
    chunks, and relevant-but-not-gold count (a chunk counts for every method that retrieved it)."""
    labels = labels[labels["label"].notna()] if len(labels) else labels  # notes without a label judge nothing
    rows = []
    for method in methods:
        mine = labels[[method in r for r in labels["ranks"]]] if len(labels) else labels
        judged = mine[mine["label"] != "cant_tell"] if len(mine) else mine
        relevant = judged["label"].isin(RELEVANT) if len(judged) else pd.Series(dtype=bool)
        chars = (judged["end"] - judged["start"]).sum() if len(judged) else 0
        rows.append({
            "method": method,
            "labels": len(mine),
            "judged_relevant": float(relevant.mean()) if len(judged) else float("nan"),
            "gold_precision": float(judged["gold_chars"].sum() / chars) if chars else float("nan"),
            "relevant_not_gold": int((relevant & (judged["gold_chars"] == 0)).sum()) if len(judged) else 0,
        })  # fmt: skip
    return pd.DataFrame(rows)


def win_rates(preferences: pd.DataFrame, methods: list[str], alpha: float = 0.05) -> pd.DataFrame:
    """Per method (and ties): preferred in how many of the preferences, share and Wilson interval."""
    from statsmodels.stats.proportion import proportion_confint  # statsmodels, only for this table

    n = len(preferences)
    rows = []
    for choice in [*methods, TIE]:
        wins = int((preferences["choice"] == choice).sum()) if n else 0
        low, high = proportion_confint(wins, n, alpha=alpha, method="wilson") if n else (float("nan"),) * 2
        rows.append({"choice": choice, "wins": wins, "of": n, "share": wins / n if n else float("nan"),
                     "ci_low": float(low), "ci_high": float(high)})  # fmt: skip
    return pd.DataFrame(rows)


def agreement(labels: pd.DataFrame) -> dict[str, float | int | str]:
    """Cohen's kappa (two reviewers) or Fleiss' kappa (three or more) over the chunks all of them labelled."""
    reviewers, n, kappa, statistic = _kappa(labels, "chunk_id")
    return {"reviewers": reviewers, "chunks": n, "kappa": kappa, "statistic": statistic}


def _kappa(labels: pd.DataFrame, unit: str) -> tuple[int, int, float, str]:
    """(reviewers, units every one of them labelled, kappa, its name) over the labelled rows of
    ``labels`` (one per ``unit`` and reviewer); kappa is NaN when one label was given throughout."""
    labels = labels[labels["label"].notna()] if len(labels) else labels
    reviewers = sorted(labels["reviewer"].unique()) if len(labels) else []
    if len(reviewers) < 2:
        return len(reviewers), 0, float("nan"), "—"
    wide = labels.pivot_table(index=unit, columns="reviewer", values="label", aggfunc="first").dropna()
    if wide.empty:
        return len(reviewers), 0, float("nan"), "—"
    name = "Cohen's kappa" if len(reviewers) == 2 else "Fleiss' kappa"
    if pd.unique(wide.to_numpy().ravel()).size < 2:  # no variation: chance agreement is 1, kappa undefined
        return len(reviewers), len(wide), float("nan"), name
    if len(reviewers) == 2:
        from sklearn.metrics import cohen_kappa_score

        return 2, len(wide), float(cohen_kappa_score(wide[reviewers[0]], wide[reviewers[1]])), name
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    table, _ = aggregate_raters(wide.to_numpy())
    return len(reviewers), len(wide), float(fleiss_kappa(table)), name


# --------------------------------------------------------------------------- answers


def answer_label_table(db: ReviewDB, session_id: int) -> pd.DataFrame:
    """One row per answer label: item, the answer (method, answerer, text, citations as
    ``[label, file_path, start, end]``, problem, quotes as ``[start, end]`` or None when stored
    before version 4), reviewer, label (None for a note alone), note."""
    with db.session() as s:
        rows = s.execute(
            select(ReviewItem.position, ReviewItem.query_id, ReviewItem.query_text, ReviewItem.order,
                   ReviewAnswer.id, ReviewAnswer.method, ReviewAnswer.answerer, ReviewAnswer.text,
                   ReviewAnswer.citations, ReviewAnswer.problem, ReviewAnswer.quotes, AnswerLabel.reviewer,
                   AnswerLabel.label,
                   AnswerLabel.note, AnswerLabel.gold_shown, AnswerLabel.at)
            .join(ReviewAnswer, ReviewAnswer.item_id == ReviewItem.id)
            .join(AnswerLabel, AnswerLabel.answer_id == ReviewAnswer.id)
            .where(ReviewItem.session_id == session_id)
            .order_by(ReviewItem.position, ReviewAnswer.method, AnswerLabel.reviewer)
        ).all()  # fmt: skip
    columns = ["position", "query_id", "query", "order", "answer_id", "method", "answerer", "answer", "citations",
               "problem", "quotes", "reviewer", "label", "note", "gold_shown", "at"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def answers_by_method(labels: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    """Per method: labelled answers, the count of each answer label, the shares of correct, wrong
    document and unsupported among the answers judged (can't tell left out), the observed agreement
    and kappa of the reviewers on its answers."""
    labels = labels[labels["label"].notna()] if len(labels) else labels  # notes without a label judge nothing
    rows = []
    for method in methods:
        mine = labels[labels["method"] == method] if len(labels) else labels
        counts = {label: int((mine["label"] == label).sum()) if len(mine) else 0 for label in ANSWER_LABELS}
        judged = len(mine) - counts["cant_tell"]
        shares = {f"{label}_share": counts[label] / judged if judged else float("nan")
                  for label in ("correct", "wrong_document", "unsupported")}  # fmt: skip
        agreed, of = _observed(mine)
        _, _, kappa, _ = _kappa(mine, "answer_id")
        rows.append({"method": method, "labels": len(mine), **counts, **shares,
                     "agreement": agreed / of if of else float("nan"), "agreement_of": of, "kappa": kappa})  # fmt: skip
    return pd.DataFrame(rows)


def _observed(labels: pd.DataFrame) -> tuple[int, int]:
    """(answers on which every reviewer gave the same label, answers labelled by two reviewers or more)."""
    if not len(labels):
        return 0, 0
    per = labels.groupby("answer_id")["label"].agg(["nunique", "size"])
    several = per[per["size"] >= 2]
    return int((several["nunique"] == 1).sum()), len(several)


def answer_agreement(labels: pd.DataFrame) -> dict[str, float | int | str]:
    """Kappa (Cohen's for two reviewers, Fleiss' for more) over the answers all of them labelled."""
    reviewers, n, kappa, statistic = _kappa(labels, "answer_id")
    return {"reviewers": reviewers, "answers": n, "kappa": kappa, "statistic": statistic}
