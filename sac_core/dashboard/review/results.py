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
  more, over the chunks every one of them labelled.
"""

from __future__ import annotations

import pandas as pd
from sqlalchemy import select

from .db import TIE, Label, Preference, ReviewChunk, ReviewDB, ReviewItem

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
    labels = labels[labels["label"].notna()] if len(labels) else labels
    reviewers = sorted(labels["reviewer"].unique()) if len(labels) else []
    if len(reviewers) < 2:
        return {"reviewers": len(reviewers), "chunks": 0, "kappa": float("nan"), "statistic": "—"}
    wide = labels.pivot_table(index="chunk_id", columns="reviewer", values="label", aggfunc="first").dropna()
    if wide.empty:
        return {"reviewers": len(reviewers), "chunks": 0, "kappa": float("nan"), "statistic": "—"}
    if len(reviewers) == 2:
        from sklearn.metrics import cohen_kappa_score

        kappa = cohen_kappa_score(wide[reviewers[0]], wide[reviewers[1]])
        return {"reviewers": 2, "chunks": len(wide), "kappa": float(kappa), "statistic": "Cohen's kappa"}
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    table, _ = aggregate_raters(wide.to_numpy())
    return {"reviewers": len(reviewers), "chunks": len(wide), "kappa": float(fleiss_kappa(table)),
            "statistic": "Fleiss' kappa"}  # fmt: skip
