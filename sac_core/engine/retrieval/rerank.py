"""Second-stage rescoring of the first stage's top chunks with a stronger embedding model.

Rainbow RAG measured a reranker lowering F1 on legal text; KG-CiteRAG reranks its fused list.
Here the top ``depth`` chunks (their own text, without summaries) and the question are embedded
by a second bi-encoder (e.g. all-mpnet-base-v2, from PyPI) and re-ordered by
``(1 - weight) × first-stage rank score + weight × min-max-normalised cosine``; the rank score
is ``1 - rank / depth``. The rest of the list keeps its order.
"""

from __future__ import annotations

import numpy as np


def rerank(
    order: np.ndarray, first_vectors: np.ndarray, query_vector: np.ndarray, depth: int, weight: float
) -> np.ndarray:
    """``order`` (chunk ids, best first) with its first ``depth`` re-ordered; ``first_vectors[i]``
    is the second model's vector of chunk ``order[i]`` for i < depth."""
    top = np.asarray(order[:depth])
    if len(top) < 2:
        return np.asarray(order)
    cos = np.asarray(first_vectors[: len(top)], dtype=np.float32) @ np.asarray(query_vector, dtype=np.float32)
    spread = float(cos.max() - cos.min())
    scaled = (cos - cos.min()) / spread if spread > 0 else np.zeros_like(cos)
    rank_score = 1.0 - np.arange(len(top)) / len(top)
    mixed = (1 - weight) * rank_score + weight * scaled
    return np.concatenate([top[np.argsort(-mixed, kind="stable")], np.asarray(order[depth:])])
