"""Real data: Hit/MRR/nDCG through ranx (and every other metric) equal the committed per-query values
of the published runs (python scripts/ranx_agreement.py checks every cell of every folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sac_core.experiments.agreement import rescore_folder

RESULTS = Path(__file__).resolve().parents[2] / "results"


@pytest.mark.parametrize("folder", ["paper", "methods-lbr-mini"])
def test_committed_runs_rescore_to_their_published_values(real_data: Path, folder: str) -> None:
    diffs = rescore_folder(RESULTS / folder, real_data, cells=1)
    assert diffs[["drm", "precision", "recall", "hit", "mrr", "ndcg"]].max().max() <= 1e-9, diffs.to_string()
