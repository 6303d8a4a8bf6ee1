"""Retrieval metrics per query and k, and their means per dataset and over datasets.

One module per family: :mod:`.drm`, :mod:`.spans` (character precision/recall), :mod:`.ranking`
(document-level Hit, MRR, nDCG); :mod:`.scoring` applies them all to a run; :mod:`.intervals`
says how sure each mean is (bootstrap over queries). :mod:`.separation`
measures an index itself: how far apart its documents' chunks lie.
"""

from .drm import drm
from .intervals import HIGH, LOW, difference_interval, means_with_intervals, over_k
from .ranking import hit, mrr, ndcg
from .scoring import DEFAULT_KS, METRICS, SCORING_VERSION, mean_by_dataset, score_query, score_run
from .separation import document_silhouette, own_document_share
from .spans import MODES, merge_spans, precision_recall

__all__ = [
    "DEFAULT_KS",
    "HIGH",
    "LOW",
    "METRICS",
    "MODES",
    "SCORING_VERSION",
    "difference_interval",
    "document_silhouette",
    "drm",
    "hit",
    "mean_by_dataset",
    "means_with_intervals",
    "merge_spans",
    "mrr",
    "ndcg",
    "over_k",
    "own_document_share",
    "precision_recall",
    "score_query",
    "score_run",
]
