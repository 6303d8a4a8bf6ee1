"""sac_core.dashboard.tune: one setting on a one-dataset subset, and the diff against the previous setting."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sac_core.dashboard import tune
from sac_core.engine.data import load_benchmark
from sac_core.engine.metrics import DEFAULT_KS, METRICS
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig

DEMO = ("demo_nda", "demo_privacy")


def _results(rows: dict[str, dict[str, float]], k: int = 4) -> pd.DataFrame:
    out = []
    for index, values in rows.items():
        out.append({"index": index, "variant": index.lower(), "k": k, **{m: values.get(m, 0.0) for m in METRICS}})
    return pd.DataFrame(out)


def test_setting_config_applies_every_slider():
    base = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file", prompt="expert"))
    cfg = tune.TuneSetting("demo_nda", 300, 50, "extractive", 220, 0.25, 5).config(base)
    assert (cfg.chunk_size, cfg.chunk_overlap, cfg.semantic_weight) == (300, 50, 0.25)
    assert (cfg.summary.provider, cfg.summary.chars) == ("extractive", 220)
    assert cfg.ks == tuple(sorted({*DEFAULT_KS, 5}))
    assert cfg.protocol == "full" and cfg.datasets == DEMO
    assert "chunk 300/50" in tune.TuneSetting("demo_nda", 300, 50).label


def test_at_k_rows_per_index():
    df = pd.concat([_results({"Baseline": {"drm": 0.5}}, k=1), _results({"Baseline": {"drm": 0.25}}, k=4)])
    assert tune.at_k(df, 4).loc["Baseline", "drm"] == 0.25
    assert list(tune.at_k(df, 1).columns) == list(METRICS)


def test_diff_table_hand_computed():
    old = _results(
        {
            "Baseline": {"drm": 0.50, "precision": 0.10, "recall": 0.40},
            "SAC generic": {"drm": 0.30, "precision": 0.20, "recall": 0.50},
        }
    )
    new = _results(
        {
            "Baseline": {"drm": 0.50, "precision": 0.08, "recall": 0.60},
            "SAC generic": {"drm": 0.20, "precision": 0.20, "recall": 0.45},
            "SAC expert": {"drm": 0.10, "precision": 0.30, "recall": 0.70},
        }
    )
    diff = tune.diff_table(new, old, 4).set_index(["index", "metric"])
    assert diff.loc[("Baseline", "drm"), "change"] == 0.0
    assert diff.loc[("Baseline", "drm"), "better"] is None  # unchanged
    assert diff.loc[("Baseline", "precision"), "change"] == pytest.approx(-0.02)
    assert diff.loc[("Baseline", "precision"), "better"] is False
    assert diff.loc[("Baseline", "recall"), "better"] is True
    assert diff.loc[("SAC generic", "drm"), "change"] == pytest.approx(-0.10)
    assert diff.loc[("SAC generic", "drm"), "better"] is True  # lower DRM is better
    assert diff.loc[("SAC generic", "recall"), "better"] is False
    new_only = diff.loc[("SAC expert", "drm")]
    assert math.isnan(new_only["previous"]) and new_only["new"] == 0.10 and new_only["better"] is None
    assert len(diff) == 3 * 3


def test_diff_table_without_previous_or_with_another_k():
    new = _results({"Baseline": {"drm": 0.5}})
    first = tune.diff_table(new, None, 4)
    assert first["previous"].isna().all() and first["better"].isna().all()
    other_k = tune.diff_table(new, _results({"Baseline": {"drm": 0.2}}, k=8), 4)
    assert other_k["previous"].isna().all()


@pytest.fixture(scope="module")
def nda(demo_dir):
    return load_benchmark(demo_dir, DEMO, "full").subset(("demo_nda",))


def test_evaluate_setting_on_a_subset_reports_progress_and_every_index(nda, demo_dir, embed_cache):
    base = RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file"))
    setting = tune.TuneSetting("demo_nda", 500, 0, "file", 150, 1.0, 4)
    calls: list[tuple[float, str]] = []
    table = tune.evaluate_setting(nda, setting.config(base), demo_dir, embed_cache, lambda f, m: calls.append((f, m)))
    assert set(table["index"]) == {"Baseline", "SAC generic", "SAC expert"}
    assert sorted(set(table["k"])) == list(DEFAULT_KS)
    assert len(table) == 3 * len(DEFAULT_KS)
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and calls[-1][1] == "done"
    at4 = tune.at_k(table, 4)
    assert at4.loc["SAC generic", "drm"] < at4.loc["Baseline", "drm"]  # near-identical NDAs: SAC helps
    assert ((table[list(METRICS)].fillna(0) >= 0) & (table[list(METRICS)].fillna(0) <= 1)).all().all()


def test_evaluate_setting_extractive_any_length_one_sac_index(nda, demo_dir, embed_cache):
    base = RunConfig(protocol="full", datasets=DEMO)
    cfg = tune.TuneSetting("demo_nda", 500, 0, "extractive", 90, 1.0, 2).config(base)
    table = tune.evaluate_setting(nda, cfg, demo_dir, embed_cache)
    assert set(table["index"]) == {"Baseline", "SAC extractive"}
    assert set(table["variant"]) == {"baseline", "sac-extractive-90"}
