"""Paired comparison of two methods over the same queries: which queries flipped, and is it chance?

The test is Fisher's randomisation test as IR papers use it (Smucker et al. 2007; ranx's
``fisher``): a paired sign-flip permutation test on the mean difference, two-sided (10,000 random
sign flips, seeded, so a table is reproduced exactly; every flip enumerated when there are at most
10,000 of them; p never 0), with ``scipy.stats.permutation_test``'s definition of the p-value. The
flips are one matrix product per block (:func:`_sign_flip_p`): scipy draws each flip by sorting
random keys, 1.5–4.5 s per test on 776 queries, and a sweep runs 21 tests per pair of methods, so a
six-method folder spent minutes here; the product takes milliseconds. ranx's own implementation
is not used: its numba threads draw from unseeded generators, so the same seed gives a different
p-value on each call, and it can return p = 0. With more than two systems,
:func:`holm` corrects the p-values of a family of comparisons (Holm's step-down, written here:
statsmodels' ``multipletests(method="holm")`` gives the same values but calls ``gc.collect()`` on
every call, 0.7 s each in a process that holds a model: 15 of the 16 s of a three-cell demo sweep).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..engine.metrics import difference_interval

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

TOLERANCE = 1e-12  # differences smaller than this are ties
# The columns of :func:`compare_methods` (``a``, ``b``: the compared ids, e.g. cell ids), in order.
PAIR_COLUMNS: tuple[str, ...] = (
    "a", "b", "metric", "k", "mean_a", "mean_b", "diff", "diff_low", "diff_high", "p_value", "wins", "ties", "losses",
)  # fmt: skip


@dataclass(frozen=True)
class Paired:
    mean_a: float
    mean_b: float
    p_value: float
    wins: int  # queries where b is better than a
    ties: int
    losses: int  # queries where b is worse than a


BLOCK = 1_000  # sign patterns per matrix product (memory: BLOCK × queries floats)


def _sign_flip_p(diff: np.ndarray, n_resamples: int, seed: int) -> float:
    """Two-sided p-value of the mean of ``diff`` under random sign flips, as
    ``scipy.stats.permutation_test(permutation_type="samples")`` defines it: ``2 · min(P(null ≤
    observed), P(null ≥ observed))``, each ``(hits + 1) / (resamples + 1)`` (exactly ``hits / 2^n``
    when all ``2^n`` patterns are enumerated), with scipy's relative tolerance for ties."""
    n = len(diff)
    observed = float(diff.mean())
    tol = 1e-14 * max(abs(observed), 1.0) * n
    exact = 2**n <= n_resamples
    total = 2**n if exact else n_resamples
    rng = np.random.default_rng(seed)
    less = greater = 0
    for start in range(0, total, BLOCK):
        size = min(BLOCK, total - start)
        flips: np.ndarray
        if exact:  # the bits of each pattern's number say which signs flip
            flips = np.arange(start, start + size)[:, None] >> np.arange(n)[None, :] & 1
        else:  # one random bit per query and pattern
            raw = np.frombuffer(rng.bytes(size * -(-n // 8)), dtype=np.uint8).reshape(size, -1)
            flips = np.unpackbits(raw, axis=1)[:, :n]
        null = (diff.sum() - 2.0 * (flips.astype(np.float64) @ diff)) / n
        less += int((null <= observed + tol).sum())
        greater += int((null >= observed - tol).sum())
    if exact:
        p_less, p_greater = less / total, greater / total
    else:
        p_less, p_greater = (less + 1) / (total + 1), (greater + 1) / (total + 1)
    return min(1.0, 2 * min(p_less, p_greater))


def permutation_test(
    a: np.ndarray, b: np.ndarray, higher_is_better: bool = True, n_resamples: int = 10_000, seed: int = 0
) -> Paired:
    """Compare per-query scores ``b`` against ``a`` (same queries, same order; NaNs dropped pairwise)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    diff = b - a
    better = diff > TOLERANCE if higher_is_better else diff < -TOLERANCE
    worse = diff < -TOLERANCE if higher_is_better else diff > TOLERANCE
    if len(diff) == 0:
        return Paired(float("nan"), float("nan"), float("nan"), 0, 0, 0)
    if not (np.abs(diff) > TOLERANCE).any():
        p = 1.0  # identical: every sign flip gives the same mean
    else:
        p = _sign_flip_p(diff, n_resamples, seed)
    return Paired(
        float(a.mean()), float(b.mean()), p, int(better.sum()), int((~better & ~worse).sum()), int(worse.sum())
    )


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm-corrected p-values of a family of tests (NaN stays NaN): sorted ascending, the i-th of m
    (from 0) is multiplied by m - i, made non-decreasing by a running maximum and capped at 1."""
    p = np.asarray(p_values, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    out[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * np.arange(m, 0, -1)))
    return out


LOWER_IS_BETTER = {"drm"}


def compare_methods(
    per_query: pd.DataFrame,
    a: str,
    b: str,
    metrics: tuple[str, ...] = ("drm", "precision", "recall"),
    key: str = "variant",
) -> pd.DataFrame:
    """One row per (metric, k): means, the mean difference ``b − a`` with its 95 % bootstrap interval
    (``diff``, ``diff_low``, ``diff_high``; over the paired queries), p-value and win/tie/loss of ``b`` over ``a``.

    ``per_query`` has columns ``key``, ``query_id``, ``k`` and the metrics, for both methods.
    """
    import pandas as pd

    rows = []
    left = per_query[per_query[key] == a].set_index(["query_id", "k"])
    right = per_query[per_query[key] == b].set_index(["query_id", "k"])
    joined = left.merge(right, left_index=True, right_index=True, suffixes=("_a", "_b"))
    for k, group in joined.groupby(level="k"):
        for m in metrics:
            a_values, b_values = group[f"{m}_a"].to_numpy(), group[f"{m}_b"].to_numpy()
            r = permutation_test(a_values, b_values, m not in LOWER_IS_BETTER)
            diff, low, high = difference_interval(a_values, b_values)
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "metric": m,
                    "k": k,
                    "mean_a": r.mean_a,
                    "mean_b": r.mean_b,
                    "diff": diff,
                    "diff_low": low,
                    "diff_high": high,
                    "p_value": r.p_value,
                    "wins": r.wins,
                    "ties": r.ties,
                    "losses": r.losses,
                }
            )
    return pd.DataFrame(rows, columns=list(PAIR_COLUMNS))


def flipped_queries(per_query: pd.DataFrame, a: str, b: str, metric: str, k: int, key: str = "variant") -> pd.DataFrame:
    """Queries whose ``metric@k`` differs between ``a`` and ``b``, biggest change first."""
    sel = per_query[per_query["k"] == k]
    wide = sel.pivot_table(index=["query_id", "dataset"], columns=key, values=metric).reset_index()
    wide["change"] = wide[b] - wide[a]
    wide = wide[wide["change"].abs() > 1e-12]
    return wide.reindex(wide["change"].abs().sort_values(ascending=False).index)[
        ["query_id", "dataset", a, b, "change"]
    ]


def compare_systems(
    per_query: pd.DataFrame,
    systems: Sequence[str],
    metrics: tuple[str, ...] = ("drm", "precision", "recall"),
    key: str = "run",
) -> pd.DataFrame:
    """Every system against the first (the reference), per metric and k: means, Fisher's
    randomisation p-value, win/tie/loss, and with more than two systems the Holm-corrected p-value
    over the family of comparisons at each (metric, k) (``p_holm``; equal to ``p_value`` with two)."""
    import pandas as pd

    reference, others = systems[0], list(systems[1:])
    frames = [compare_methods(per_query, reference, other, metrics, key=key) for other in others]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if table.empty:
        return table
    table["p_holm"] = table["p_value"]
    if len(others) > 1:
        for _, rows in table.groupby(["metric", "k"]):
            table.loc[rows.index, "p_holm"] = holm(rows["p_value"].to_numpy())
    return table
