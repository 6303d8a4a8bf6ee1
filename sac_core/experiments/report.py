"""Results tables in the shape of the SAC paper's: means over k, and per dataset at one k.

Input: a results table as written by ``sac evaluate --out`` or ``sac sweep`` (one row per
dataset incl. ``ALL`` × configuration × k). Values are returned in percent.
"""

from __future__ import annotations

import pandas as pd

KEY = ["variant", "chunk_size", "semantic_weight", "model", "backend", "protocol"]
SHOWN = ("precision", "recall", "drm")


def _key(table: pd.DataFrame) -> list[str]:
    """The configuration columns that vary in ``table`` (``variant`` always)."""
    return [c for c in KEY if c in table.columns and (c == "variant" or table[c].nunique(dropna=False) > 1)]


def mean_over_k(table: pd.DataFrame, dataset: str = "ALL") -> pd.DataFrame:
    """Precision, recall and DRM of ``dataset``, averaged over the k of each configuration (%)."""
    sel = table[table["dataset"] == dataset]
    return (sel.groupby(_key(table), dropna=False)[list(SHOWN)].mean() * 100).round(2)


def at_k(table: pd.DataFrame, k: int = 8, metric: str = "drm") -> pd.DataFrame:
    """``metric@k`` per dataset (columns) for each configuration (rows) (%)."""
    sel = table[table["k"] == k]
    wide = sel.pivot_table(index=_key(table), columns="dataset", values=metric, dropna=False).dropna(how="all") * 100
    order = [d for d in wide.columns if d != "ALL"] + (["ALL"] if "ALL" in wide.columns else [])
    return wide[order].round(2)


def read_results(paths: list[str]) -> pd.DataFrame:
    frames = [pd.read_csv(p) for p in paths]
    table = pd.concat(frames, ignore_index=True)
    cols = [c for c in table.columns if c not in ("cell", "wall_seconds", "cell_seconds")]
    return table.drop_duplicates(subset=cols)
