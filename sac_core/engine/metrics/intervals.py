"""How sure a mean is: seeded bootstrap 95 % intervals over queries.

Every mean the project shows or publishes is a mean over queries (per dataset), or the macro mean
over datasets (``ALL``: each dataset weighs the same), or such a mean averaged over the cut-offs k.
Its interval comes from resampling the **queries**, stratified by dataset (each dataset keeps its
size in every resample, as the benchmark's protocols do):

    for b in 1..B:  draw each dataset's queries with replacement → the means → (macro over datasets)
    interval = the 2.5th and 97.5th percentiles of the B resampled means (percentile bootstrap)

One draw of B resamples per dataset serves every k and every metric (the unit resampled is the
query), so the intervals of one table are consistent with each other. The draw is seeded by the
seed and the dataset's name, so a table is reproduced exactly and does not depend on the order
of its datasets. A paired difference (method b minus method a on the same queries) gets its
interval the same way from the per-query differences.

Hand-written with NumPy rather than ``scipy.stats.bootstrap``: SciPy resamples one sample (or
several independently) per statistic, while a macro mean over datasets needs one stratified draw
shared by all datasets, and a table needs the same draw for every k and metric.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

RESAMPLES = 2000
LEVEL = 0.95
SEED = 0
LOW, HIGH = "_low", "_high"  # suffixes of a metric's interval columns: drm_low, drm_high


def resample_weights(n: int, stratum: str, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """(resamples × n) weights: row b counts how often each of ``n`` queries is drawn (with
    replacement, n draws) in resample b, divided by n, so ``weights @ values`` is each resample's
    mean. Seeded by ``seed`` and ``stratum``."""
    rng = np.random.default_rng([seed, zlib.crc32(stratum.encode("utf-8"))])
    draws = rng.integers(0, max(n, 1), size=(resamples, n))
    offsets = (np.arange(resamples) * n)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=resamples * n).reshape(resamples, n)
    return counts / max(n, 1)


def percentile_interval(resampled: np.ndarray, level: float = LEVEL) -> tuple[np.ndarray, np.ndarray]:
    """The (low, high) percentile interval of resampled statistics (rows: resamples)."""
    tail = (1 - level) / 2 * 100
    with warnings.catch_warnings():  # an all-NaN column (no value at all) gives a NaN interval
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanpercentile(resampled, tail, axis=0), np.nanpercentile(resampled, 100 - tail, axis=0)


def _resampled_means(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(resamples × metrics) means of ``values`` (queries × metrics) under ``weights``; NaN skipped."""
    known = ~np.isnan(values)
    total = weights @ np.where(known, values, 0.0)
    count = weights @ known.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def means_with_intervals(
    per_query: pd.DataFrame,
    metrics: Sequence[str],
    *,
    group: str = "k",
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> pd.DataFrame:
    """Means per (dataset, ``group``) and for ``ALL`` (the macro mean over datasets), each metric with
    its interval columns ``<metric>_low`` and ``<metric>_high``.

    ``per_query``: one row per (query, ``group`` value) with ``query_id``, ``dataset``, ``group`` and
    the metrics. Rows are in the order of first appearance, ``ALL`` last (as :func:`mean_by_dataset`)."""
    import pandas as pd

    metrics = list(metrics)
    datasets = list(dict.fromkeys(per_query["dataset"]))
    groups = list(dict.fromkeys(per_query[group]))
    group_codes = per_query[group].map({g: i for i, g in enumerate(groups)}).to_numpy()
    found: dict[tuple[str, object], dict[str, object]] = {}
    means: dict[object, list[np.ndarray]] = {g: [] for g in groups}
    macro: dict[object, list[np.ndarray]] = {g: [] for g in groups}
    for ds in datasets:
        rows = (per_query["dataset"] == ds).to_numpy()
        query_codes, names = pd.factorize(per_query["query_id"][rows])
        cube = np.full((len(groups), len(names), len(metrics)), np.nan)  # group × query × metric
        cube[group_codes[rows], query_codes] = per_query.loc[rows, metrics].to_numpy(dtype=float)
        present = np.zeros((len(groups), len(names)), dtype=bool)
        present[group_codes[rows], query_codes] = True
        weights = resample_weights(len(names), ds, resamples, seed)
        # one product for every group and metric: (resamples × queries) @ (queries × groups·metrics)
        resampled_all = _resampled_means(cube.transpose(1, 0, 2).reshape(len(names), -1), weights)
        resampled_all = resampled_all.reshape(resamples, len(groups), len(metrics))
        for gi, g in enumerate(groups):
            if not present[gi].any():  # this dataset has no row at this group value
                continue
            with warnings.catch_warnings():  # a metric with no value here (e.g. DRM of empty retrievals) stays NaN
                warnings.simplefilter("ignore", RuntimeWarning)
                mean = np.nanmean(cube[gi][present[gi]], axis=0)
            found[ds, g] = _row(ds, group, g, metrics, mean, resampled_all[:, gi], level)
            means[g].append(mean)
            macro[g].append(resampled_all[:, gi])
    for g in groups:
        if macro[g]:
            with warnings.catch_warnings():  # a metric no dataset has a value for stays NaN
                warnings.simplefilter("ignore", RuntimeWarning)
                mean, resampled = np.nanmean(means[g], axis=0), np.nanmean(macro[g], axis=0)
            found["ALL", g] = _row("ALL", group, g, metrics, mean, resampled, level)
    order = [(ds, g) for ds in [*datasets, "ALL"] for g in groups if (ds, g) in found]
    return pd.DataFrame([found[key] for key in order])


def _row(
    dataset: str, group: str, value: object, metrics: list[str], mean: np.ndarray, resampled: np.ndarray, level: float
) -> dict[str, object]:
    low, high = percentile_interval(resampled, level)
    row: dict[str, object] = {"dataset": dataset, group: value}
    for i, m in enumerate(metrics):
        row[m] = float(mean[i])
    for i, m in enumerate(metrics):
        row[m + LOW], row[m + HIGH] = float(low[i]), float(high[i])
    return row


def over_k(per_query: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
    """Each query's metrics averaged over its cut-offs k: one row per query, ``k`` = ``"mean"``
    (the paper's "mean over k", ready for :func:`means_with_intervals`)."""
    averaged = per_query.groupby(["dataset", "query_id"], sort=False)[list(metrics)].mean().reset_index()
    return averaged.assign(k="mean")


def difference_interval(
    a: np.ndarray, b: np.ndarray, *, resamples: int = RESAMPLES, seed: int = SEED, level: float = LEVEL
) -> tuple[float, float, float]:
    """The mean of ``b - a`` over paired queries (NaN pairs dropped) and its bootstrap interval."""
    diff = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    diff = diff[~np.isnan(diff)]
    if len(diff) == 0:
        return float("nan"), float("nan"), float("nan")
    resampled = resample_weights(len(diff), "difference", resamples, seed) @ diff
    low, high = percentile_interval(resampled, level)
    return float(diff.mean()), float(low), float(high)
