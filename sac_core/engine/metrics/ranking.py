"""Document-level ranking metrics: Hit@k, MRR@k and nDCG@k.

The top-k chunks are first turned into a ranked list of distinct documents (each at the rank
of its best chunk); gains are binary (1 for a gold document).

Two paths give the same numbers: :func:`ranx_scores` computes every query and k of a run through
ranx (tested against trec_eval; what :func:`~.scoring.score_run` uses for evaluations, sweeps and
imported runs), and :func:`hit`, :func:`mrr`, :func:`ndcg` score one query directly, for the
dashboard's single questions (loading ranx's compiled kernels takes seconds, too slow for a
page). ``tests/engine/metrics`` checks that both agree to 1e-9, on random runs and on every
committed run.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Mapping, Sequence

RANX_METRICS = {"hit": "hit_rate", "mrr": "mrr", "ndcg": "ndcg"}  # our name → ranx's
# ranx's numba kernels are compiled for the width of the longest document id (fixed-width strings), and
# each new width is compiled anew (about a minute) in every process whose disk cache lacks it. Documents
# go to ranx as labels of one width, so one compiled set serves every run (`make setup` compiles it).
LABEL_DIGITS = 9


def ranked_documents(retrieved_files: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(retrieved_files))


def hit(retrieved_files: Sequence[str], gold_files: Collection[str]) -> float:
    return float(any(f in gold_files for f in retrieved_files))


def mrr(retrieved_files: Sequence[str], gold_files: Collection[str]) -> float:
    for rank, f in enumerate(ranked_documents(retrieved_files), start=1):
        if f in gold_files:
            return 1.0 / rank
    return 0.0


def ndcg(retrieved_files: Sequence[str], gold_files: Collection[str], k: int) -> float:
    docs = ranked_documents(retrieved_files)[:k]
    dcg = sum(1.0 / math.log2(rank + 1) for rank, f in enumerate(docs, start=1) if f in gold_files)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold_files), k) + 1))
    return dcg / ideal if ideal else 0.0


def document_run(retrieved_files: Sequence[str], k: int) -> dict[str, float]:
    """The distinct documents of the top-k chunks as a ranx/TREC run row: ``document → score``,
    scores falling with the rank (``n, n-1, …, 1``) so that no two tie."""
    docs = ranked_documents(retrieved_files[:k])
    return {doc: float(len(docs) - i) for i, doc in enumerate(docs)}


def ranx_scores(
    gold: Mapping[str, Collection[str]], retrieved: Mapping[str, Sequence[str]], ks: Sequence[int]
) -> dict[tuple[str, int], dict[str, float]]:
    """Hit, MRR and nDCG of every query (``gold``: query id → gold documents; ``retrieved``: query
    id → the documents of its ranked chunks, best first) at every k, through ranx: ``(query, k) →
    {"hit", "mrr", "ndcg"}``. A query missing from ``retrieved`` retrieved nothing (all 0)."""
    import ranx  # loaded here: importing it and its compiled kernels takes seconds (see the module docstring)

    labels: dict[str, str] = {}  # document → its label: only a name, so the metrics are the same
    label = lambda doc: labels.setdefault(doc, f"{len(labels):0{LABEL_DIGITS}d}")
    ids = [qid for qid in gold if gold[qid]]
    qrels = ranx.Qrels({qid: {label(doc): 1 for doc in gold[qid]} for qid in ids})
    out: dict[tuple[str, int], dict[str, float]] = {}
    for k in ks:
        ranked = {qid: document_run(list(retrieved.get(qid, ())), k) for qid in ids}
        rows = {qid: {label(doc): score for doc, score in docs.items()} for qid, docs in ranked.items()}
        rows = {qid: docs for qid, docs in rows.items() if docs}  # ranx fills in the others (nothing retrieved)
        if not rows:  # ranx cannot build an empty run
            out.update({(qid, k): dict.fromkeys(RANX_METRICS, 0.0) for qid in ids})
            continue
        run = ranx.Run(rows)
        names = [f"{ranx_name}@{k}" for ranx_name in RANX_METRICS.values()]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numba's "unsafe cast from uint64 to int64" in ranx's hit_rate
            scores = ranx.evaluate(qrels, run, names, return_mean=False, make_comparable=True)
        for i, qid in enumerate(qrels.keys()):  # ranx's order (sorted ids), not ours
            out[qid, k] = {ours: float(scores[f"{theirs}@{k}"][i]) for ours, theirs in RANX_METRICS.items()}
    for qid in gold:
        if not gold[qid]:
            out.update({(qid, k): dict.fromkeys(RANX_METRICS, 0.0) for k in ks})
    return out
