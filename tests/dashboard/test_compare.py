"""sac_core.dashboard.compare: which indexes Compare shows, and what building them costs."""

from __future__ import annotations

from sac_core.dashboard import compare as state
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig

DEMO = ("demo_nda", "demo_privacy")


def test_compare_columns_one_sac_column_for_the_extractive_provider():
    base = RunConfig(summary=SummaryConfig(provider="extractive"))
    cols = state.compare_columns(base)
    assert [c.name for c in cols] == ["Baseline", "SAC extractive"]
    assert [c.config.method for c in cols] == ["baseline", "sac"]
    llm = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert [c.name for c in llm] == ["Baseline", "SAC generic", "SAC expert"]
    assert [c.config.summary.prompt for c in llm[1:]] == ["generic", "expert"]


def test_pending_cost_is_zero_without_the_openai_provider(demo_dir, tmp_path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert state.pending_cost(bench, cols, demo_dir, tmp_path).documents == 0
