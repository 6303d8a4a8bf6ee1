"""Document-level ranking metrics: Hit@k, MRR@k and nDCG@k.

The top-k chunks are first turned into a ranked list of distinct documents (each at the rank
of its best chunk); gains are binary (1 for a gold document).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence


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
