"""The Tune page's engine: evaluate one setting on a small subset, and compare it with the last one.

A setting (chunk size and overlap, summary provider and length, BM25/semantic weight, k) is
evaluated on one dataset's queries and the documents they cite, for every index of the Compare
page (baseline and SAC), reusing the summary and embedding caches; progress is reported through
``on_progress(fraction, message)`` so a UI can show a bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from ..engine.data import Benchmark
from ..engine.metrics import DEFAULT_KS, METRICS
from ..experiments import RunConfig, Workspace, run_queries
from ..experiments.significance import LOWER_IS_BETTER
from .compare import compare_columns

Progress = Callable[[float, str], None]
BUILD_SHARE = 0.9  # of the progress bar: building the indexes; the rest is retrieval


@dataclass(frozen=True)
class TuneSetting:
    """What the Tune form sets. ``chars`` is the target summary length in characters."""

    dataset: str
    chunk_size: int = 500
    chunk_overlap: int = 0
    provider: str = "file"
    chars: int = 150
    semantic_weight: float = 1.0
    k: int = 8

    def config(self, base: RunConfig) -> RunConfig:
        """``base`` with this setting; ks = the usual 1…64 plus ``k``."""
        summary = replace(base.summary, provider=self.provider, chars=self.chars)
        return base.with_(
            chunk_size=self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            semantic_weight=self.semantic_weight,
            ks=tuple(sorted({*DEFAULT_KS, self.k})),
            summary=summary,
        )

    @property
    def label(self) -> str:
        return (
            f"{self.dataset}: chunk {self.chunk_size}/{self.chunk_overlap}, {self.provider} summaries "
            f"{self.chars} chars, weight {self.semantic_weight:g}"
        )


def evaluate_setting(
    bench: Benchmark,
    config: RunConfig,
    data_dir: Path,
    cache_dir: Path,
    on_progress: Progress | None = None,
    api_key: str | None = None,
) -> pd.DataFrame:
    """Mean metrics over ``bench``'s queries for each Compare index under ``config``.

    One row per (index, k): ``index, variant, k`` and every metric (DRM, precision, recall, Hit,
    MRR, nDCG). Summaries and embeddings come from the caches when present.
    """
    report = on_progress or (lambda fraction, message: None)
    build = lambda fraction, message: report(fraction * BUILD_SHARE, message)
    ws = Workspace(bench, compare_columns(config), data_dir, cache_dir, api_key, build)
    frames = []
    for i, col in enumerate(ws.columns):
        report(
            BUILD_SHARE + (1 - BUILD_SHARE) * i / len(ws.columns),
            f"{col.name}: retrieving {len(bench.queries)} queries",
        )
        _, per_query = run_queries(ws.retrievers[col.name], bench, config)
        means = per_query.groupby("k", sort=True)[list(METRICS)].mean().reset_index()
        means.insert(0, "variant", col.config.variant)
        means.insert(0, "index", col.name)
        frames.append(means)
    report(1.0, "done")
    return pd.concat(frames, ignore_index=True)


def at_k(results: pd.DataFrame, k: int, metrics: tuple[str, ...] = METRICS) -> pd.DataFrame:
    """One row per index at ``k`` (index name as the row label), the metrics as columns."""
    rows = results[results["k"] == k].set_index("index")
    return rows[list(metrics)]


def diff_table(
    new: pd.DataFrame, old: pd.DataFrame | None, k: int, metrics: tuple[str, ...] = ("drm", "precision", "recall")
) -> pd.DataFrame:
    """New against previous at ``k``: one row per (index, metric) with ``previous``, ``new``,
    ``change`` (new − previous) and ``better`` (True / False / None when unchanged or unknown;
    lower is better for DRM). Indexes only in ``new`` get an empty ``previous``."""
    now = at_k(new, k, metrics)
    before = at_k(old, k, metrics) if old is not None and (old["k"] == k).any() else None
    rows = []
    for index in now.index:
        for m in metrics:
            value = float(now.at[index, m])
            prev = float(before.at[index, m]) if before is not None and index in before.index else float("nan")
            change = value - prev
            if change != change or abs(change) < 1e-12:  # NaN or no change
                better = None
            else:
                better = change < 0 if m in LOWER_IS_BETTER else change > 0
            rows.append(
                {"index": index, "metric": m, "previous": prev, "new": value, "change": change, "better": better}
            )
    return pd.DataFrame(rows, columns=["index", "metric", "previous", "new", "change", "better"])
