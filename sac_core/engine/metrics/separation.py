"""How well documents separate in an index's embedding space: why DRM happens, as one number.

- **own-document share** (kNN): for each chunk, the share of its ``k`` nearest neighbours (cosine,
  itself excluded) that come from its own document, averaged over chunks. 1 = every chunk's
  neighbourhood is its own document; near the share of a random pick = documents overlap. Exact
  neighbours with FAISS.
- **silhouette** by document (scikit-learn, cosine distance), on a deterministic sample when the
  pool is large (it is quadratic): ``(b - a) / max(a, b)`` per chunk, ``a`` the mean distance to
  its own document's chunks, ``b`` to the nearest other document's; -1 … 1, higher = better apart.

Both take unit-length vectors (rows) and one document label per row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

SILHOUETTE_SAMPLE = 5000  # chunks (a seeded sample above this)
SEARCH_BLOCK = 4096  # queries per search: FAISS's own block for BLAS, so the neighbours are the same


def own_document_share(
    vectors: np.ndarray, documents: Sequence[str], k: int = 10, *, on_progress: Callable[[int, int], None] | None = None
) -> float:
    """Mean share of each chunk's ``k`` nearest other chunks that share its document (0..1).
    ``on_progress(done, total)``: told after each block of chunks searched (the slow part: 37 s for
    30,000 chunks on a busy 2-core machine)."""
    n = len(vectors)
    if n < 2:
        return float("nan")
    k = min(k, n - 1)
    import faiss  # heavy: only when separation is measured

    index = faiss.IndexFlatIP(vectors.shape[1])
    rows = np.ascontiguousarray(vectors, dtype=np.float32)
    index.add(rows)
    ids = np.empty((n, k + 1), dtype=np.int64)
    for start in range(0, n, SEARCH_BLOCK):
        _, ids[start : start + SEARCH_BLOCK] = index.search(rows[start : start + SEARCH_BLOCK], k + 1)
        if on_progress is not None:
            on_progress(min(n, start + SEARCH_BLOCK), n)
    labels = np.asarray(documents)
    shares = np.empty(n)
    for i, row in enumerate(ids):
        neighbours = [j for j in row if j != i][:k]  # itself out (ties can put it anywhere in the row)
        shares[i] = np.mean(labels[neighbours] == labels[i])
    return float(shares.mean())


def document_silhouette(
    vectors: np.ndarray, documents: Sequence[str], sample: int = SILHOUETTE_SAMPLE, seed: int = 0
) -> float:
    """Mean silhouette of the chunks grouped by document (cosine distance), on ``sample`` chunks at
    most (seeded); NaN with fewer than two documents."""
    from sklearn.metrics import silhouette_score  # scikit-learn: loaded only for this figure

    labels = np.asarray(documents)
    if len(set(labels.tolist())) < 2:
        return float("nan")
    return float(
        silhouette_score(vectors, labels, metric="cosine", sample_size=min(sample, len(labels)), random_state=seed)
    )
