"""Gate the document prior: let a query's document scores act only when the query says which
document it means.

A document prior of weight 8 routes every top-k chunk into one document. On a query that names
its document ("Consider the NDA between X and Y; …") that is what makes DRM small; on a free
question that names none, the whole question scores documents, the top one is close to chance,
and all k chunks go there: far worse than plain ranking. The gate keeps the prior off unless

- ``split``: the query split off a document reference (:mod:`.query`), or
- ``evidence``: it did, or the document scores are *peaked*: the best document's score leads the
  second's by at least ``margin`` (a query that names a party or a policy without the usual opening).

This is the selective-retrieval idea of adaptive RAG (act on a signal only when confidence is
high; Rainbow RAG's "confidence-based" adaptive steps) applied to the document level.
"""

from __future__ import annotations

import numpy as np


def peak_margin(doc_scores: np.ndarray) -> float:
    """How far the best document's score leads the second's (0 with fewer than two documents)."""
    if doc_scores.size < 2:
        return 0.0
    top2 = np.partition(-np.asarray(doc_scores, dtype=np.float64), 1)[:2]
    return float(top2[1] - top2[0])


def gate_open(gate: str, split: bool, doc_scores: np.ndarray, margin: float) -> bool:
    """Whether the document scores may act on this query (``gate``: always, split or evidence)."""
    if gate == "always":
        return True
    if gate == "split":
        return split
    if gate == "evidence":
        return split or peak_margin(doc_scores) >= margin
    raise ValueError(f"unknown document gate {gate!r}")


# Two documents are "about equally likely" for a query when their document scores (cosine to the
# summary + the keyword, file-name and profile terms) lie closer than this: a doubt then says which two.
DOUBT_MARGIN = 0.02


def in_doubt(doc_scores: np.ndarray, margin: float = DOUBT_MARGIN) -> tuple[int, int] | None:
    """The best two documents (indices, best first; ties in index order) when the best leads the
    second by less than ``margin``; None with fewer than two documents or a clear lead."""
    if doc_scores.size < 2:
        return None
    first, second = (int(i) for i in np.argsort(-np.asarray(doc_scores, dtype=np.float64), kind="stable")[:2])
    return (first, second) if doc_scores[first] - doc_scores[second] < margin else None
