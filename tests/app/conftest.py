"""What the app tests share: Compare's indexes saved ahead, as `sac index` does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sac_core.dashboard import compare, state
from sac_core.dashboard.state import ensure_demo_corpus
from sac_core.engine.data import available_datasets, load_benchmark
from sac_core.experiments import Workspace


def save_compare_indexes(data: Path, cache: Path, provider: str = "file", protocol: str = "full") -> None:
    """Save the indexes the Compare page opens for this data (what `sac index` does)."""
    settings = state.Settings(state.resolve_data_source(str(data), cache), cache, protocol,
                              available_datasets(data), provider, 150)  # fmt: skip
    bench = load_benchmark(data, settings.datasets, protocol)
    Workspace.open(bench, compare.compare_columns(settings.base_config()), data, cache, save=True)


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
