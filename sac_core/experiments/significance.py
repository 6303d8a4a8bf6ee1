"""Paired comparison of two methods over the same queries: which queries flipped, and is it chance?

The test is a paired sign-flip permutation (randomisation) test on the mean difference, the test
ranx and trec_eval users call "Fisher's randomisation test": under the null hypothesis each
query's difference is equally likely to have either sign. Two-sided p-value, with the +1
correction so it is never 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


@dataclass(frozen=True)
class Paired:
    mean_a: float
    mean_b: float
    p_value: float
    wins: int  # queries where b is better than a
    ties: int
    losses: int  # queries where b is worse than a


def permutation_test(
    a: np.ndarray, b: np.ndarray, higher_is_better: bool = True, n_resamples: int = 10_000, seed: int = 0
) -> Paired:
    """Compare per-query scores ``b`` against ``a`` (same queries, same order; NaNs dropped pairwise)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    diff = b - a
    better = diff > 1e-12 if higher_is_better else diff < -1e-12
    worse = diff < -1e-12 if higher_is_better else diff > 1e-12
    if len(diff) == 0:
        return Paired(float("nan"), float("nan"), float("nan"), 0, 0, 0)
    observed = abs(diff.mean())
    resampled = np.abs(_signs(n_resamples, len(diff), seed) @ diff) / len(diff)
    extreme = int((resampled >= observed - 1e-12).sum())
    p = (extreme + 1) / (n_resamples + 1)
    return Paired(
        float(a.mean()), float(b.mean()), p, int(better.sum()), int((~better & ~worse).sum()), int(worse.sum())
    )


@lru_cache(maxsize=8)
def _signs(n_resamples: int, n: int, seed: int) -> np.ndarray:
    """Random ±1 matrix (n_resamples × n); the same for every test of one size and seed, so built once."""
    rng = np.random.default_rng(seed)
    signs = (rng.integers(0, 2, size=(n_resamples, n), dtype=np.int8) * 2 - 1).astype(np.float64)
    signs.setflags(write=False)  # shared by every caller
    return signs


LOWER_IS_BETTER = {"drm"}


def compare_methods(
    per_query: pd.DataFrame,
    a: str,
    b: str,
    metrics: tuple[str, ...] = ("drm", "precision", "recall"),
    key: str = "variant",
) -> pd.DataFrame:
    """One row per (metric, k): means, p-value and win/tie/loss of ``b`` over ``a``.

    ``per_query`` has columns ``key``, ``query_id``, ``k`` and the metrics, for both methods.
    """
    import pandas as pd

    rows = []
    left = per_query[per_query[key] == a].set_index(["query_id", "k"])
    right = per_query[per_query[key] == b].set_index(["query_id", "k"])
    joined = left.merge(right, left_index=True, right_index=True, suffixes=("_a", "_b"))
    for k, group in joined.groupby(level="k"):
        for m in metrics:
            r = permutation_test(group[f"{m}_a"].to_numpy(), group[f"{m}_b"].to_numpy(), m not in LOWER_IS_BETTER)
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": m,
                    "k": k,
                    "mean_a": r.mean_a,
                    "mean_b": r.mean_b,
                    "p_value": r.p_value,
                    "wins": r.wins,
                    "ties": r.ties,
                    "losses": r.losses,
                }
            )
    return pd.DataFrame(rows)


def flipped_queries(per_query: pd.DataFrame, a: str, b: str, metric: str, k: int, key: str = "variant") -> pd.DataFrame:
    """Queries whose ``metric@k`` differs between ``a`` and ``b``, biggest change first."""
    sel = per_query[per_query["k"] == k]
    wide = sel.pivot_table(index=["query_id", "dataset"], columns=key, values=metric).reset_index()
    wide["change"] = wide[b] - wide[a]
    wide = wide[wide["change"].abs() > 1e-12]
    return wide.reindex(wide["change"].abs().sort_values(ascending=False).index)[
        ["query_id", "dataset", a, b, "change"]
    ]
