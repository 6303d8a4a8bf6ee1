"""Document-Level Retrieval Mismatch (Reuter et al. 2025).

DRM@k = share of the top-k retrieved chunks whose document is not a gold document of the query.
With fewer than k results the share is over those returned; with none it is NaN (undefined,
and skipped by the means).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def drm(retrieved_files: Sequence[str], gold_files: Collection[str]) -> float:
    if not retrieved_files:
        return float("nan")
    return sum(f not in gold_files for f in retrieved_files) / len(retrieved_files)
