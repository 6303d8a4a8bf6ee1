"""All metrics of one ranked retrieval per query and k, and their means per dataset and over datasets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..data import Query, Span
from .drm import drm
from .intervals import means_with_intervals
from .ranking import RANX_METRICS, hit, mrr, ndcg, ranx_scores
from .spans import precision_recall

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

DEFAULT_KS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
METRICS: tuple[str, ...] = ("drm", "precision", "recall", "hit", "mrr", "ndcg")
# Bumped whenever what a query scores changes (a metric's definition or computation): part of every
# result's identity (sac_core.experiments.identity), so no score of the old definition is reused.
SCORING_VERSION = 1


def score_query(retrieved: Sequence[Span], query: Query, k: int, mode: str = "merged") -> dict[str, float]:
    """All metrics for the top-k of one ranked retrieval (best first)."""
    top = list(retrieved[:k])
    files = [s.file_path for s in top]
    gold_files = query.gold_files
    precision, recall = precision_recall(top, query.gold, mode)
    return {
        "drm": drm(files, gold_files),
        "precision": precision,
        "recall": recall,
        "hit": hit(files, gold_files),
        "mrr": mrr(files, gold_files),
        "ndcg": ndcg(files, gold_files, k),
    }


def score_run(
    queries: Sequence[Query], run: dict[str, list[Span]], ks: Sequence[int] = DEFAULT_KS, mode: str = "merged"
) -> pd.DataFrame:
    """One row per (query, k): ``query_id, dataset, k`` and every metric. Missing query → empty
    retrieval. DRM and character precision/recall per query; Hit, MRR and nDCG through ranx
    (:func:`~.ranking.ranx_scores`)."""
    import pandas as pd

    ranked = {q.query_id: [s.file_path for s in run.get(q.query_id, [])] for q in queries}
    ranking = ranx_scores({q.query_id: q.gold_files for q in queries}, ranked, ks) if queries else {}
    rows = []
    for q in queries:
        spans = run.get(q.query_id, [])
        for k in ks:
            top = list(spans[:k])
            precision, recall = precision_recall(top, q.gold, mode)
            rows.append(
                {
                    "query_id": q.query_id,
                    "dataset": q.dataset,
                    "k": k,
                    "drm": drm([s.file_path for s in top], q.gold_files),
                    "precision": precision,
                    "recall": recall,
                    **{m: ranking[q.query_id, k][m] for m in RANX_METRICS},
                }
            )
    return pd.DataFrame(rows, columns=["query_id", "dataset", "k", *METRICS])


def mean_by_dataset(per_query: pd.DataFrame) -> pd.DataFrame:
    """Means per (dataset, k), plus dataset ``ALL`` = macro mean over datasets (each weighs the same),
    every metric with its bootstrap 95 % interval (``<metric>_low``, ``<metric>_high``; :mod:`.intervals`)."""
    return means_with_intervals(per_query, METRICS)
