"""sac separation over a grid: one row per dense index with its DRM, and the correlation."""

from __future__ import annotations

import pandas as pd

from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig, Sweep, run_sweep
from sac_core.experiments.separation import correlations, grid_separation

DEMO = ("demo_nda", "demo_privacy")


def test_grid_separation_pairs_each_dense_index_with_its_drm(demo_dir, embed_cache, tmp_path):
    base = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file"))
    cells = tuple(base.with_(method=m, chunk_size=c, semantic_weight=w)
                  for c in (300, 500) for m in ("baseline", "sac") for w in (1.0, 0.5))  # fmt: skip
    sweep = Sweep("tiny", cells)
    table = run_sweep(sweep, demo_dir, embed_cache, tmp_path / "tiny", progress=False)
    grid = grid_separation(sweep, table, demo_dir, embed_cache)
    assert len(grid) == 4  # weight 0.5 shares its index with weight 1: not counted twice
    assert set(grid["variant"]) == {"baseline", "sac-file-generic-150"}
    sac, baseline = grid[grid.variant != "baseline"], grid[grid.variant == "baseline"]
    assert sac["own_share"].min() > baseline["own_share"].max()  # the summary pulls documents apart
    drm = table[(table.dataset == "ALL")].groupby("cell")["drm"].mean()
    assert grid.set_index("cell")["drm"].to_dict() == pd.Series(drm)[grid["cell"]].to_dict()
    corr = correlations(grid).set_index(["figure", "metric"])
    assert corr.loc[("own_share", "drm"), "spearman"] < 0  # better separated, fewer wrong documents
    nothing = grid_separation(sweep, table, demo_dir, tmp_path / "empty-cache")
    assert nothing.empty  # cached only: no embeddings there, nothing computed
