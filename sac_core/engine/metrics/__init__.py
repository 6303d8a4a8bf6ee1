"""Retrieval metrics per query and k, and their means per dataset and over datasets.

One module per family: :mod:`.drm`, :mod:`.spans` (character precision/recall), :mod:`.ranking`
(document-level Hit, MRR, nDCG); :mod:`.scoring` applies them all to a run. :mod:`.separation`
measures an index itself: how far apart its documents' chunks lie.
"""

from .drm import drm
from .ranking import hit, mrr, ndcg
from .scoring import DEFAULT_KS, METRICS, mean_by_dataset, score_query, score_run
from .separation import document_silhouette, own_document_share
from .spans import MODES, merge_spans, precision_recall

__all__ = [
    "DEFAULT_KS",
    "METRICS",
    "MODES",
    "document_silhouette",
    "drm",
    "hit",
    "mean_by_dataset",
    "merge_spans",
    "mrr",
    "ndcg",
    "own_document_share",
    "precision_recall",
    "score_query",
    "score_run",
]
