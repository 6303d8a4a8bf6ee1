"""What the app tests share: Compare's indexes saved ahead, as `sac index` does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sac_core.dashboard import compare, state
from sac_core.dashboard.demo_sweep import demo_sweep, run_with_progress
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace


def save_compare_indexes(data: Path, cache: Path, provider: str = "file", protocol: str = "full") -> None:
    """Save the indexes the Compare page opens for this data (what `sac index` does)."""
    settings = state.Settings(state.resolve_data_source(str(data), cache), cache, protocol,
                              available_datasets(data), provider, 150)  # fmt: skip
    bench = load_benchmark(data, settings.datasets, protocol)
    Workspace.open(bench, compare.compare_columns(settings.base_config(), bench=bench), data, cache, save=True)


@pytest.fixture(scope="session")
def prebuild() -> Callable[..., None]:
    """:func:`save_compare_indexes`, for tests that save them for data of their own."""
    return save_compare_indexes


@pytest.fixture(scope="module")
def prebuilt(embed_cache) -> Path:
    """The demo corpus with the Compare page's indexes saved."""
    demo = ensure_demo_corpus(embed_cache)
    save_compare_indexes(demo, embed_cache)
    return demo


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory, embed_cache, prebuild) -> Path:
    """A tiny demo sweep for the Curves page."""
    demo = ensure_demo_corpus(embed_cache)
    root = tmp_path_factory.mktemp("results")
    sweep = demo_sweep(available_datasets(demo), chunk_sizes=(500,), prompts=("generic",))
    run_with_progress(sweep, demo, embed_cache, root / sweep.name)
    prebuild(demo, embed_cache)  # Compare finds its indexes saved, as after `sac index`
    return root


@pytest.fixture
def env(monkeypatch, embed_cache, results_dir):
    """No data directory (→ the embedded demo under the cache), a results root with one sweep."""
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("SAC_CACHE_DIR", str(embed_cache))
    monkeypatch.setenv("SAC_RESULTS_DIR", str(results_dir))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return embed_cache
