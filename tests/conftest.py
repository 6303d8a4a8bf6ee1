"""Shared fixtures: a demo benchmark the project generates itself, and the real data when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sac_core.engine.data import write_demo_corpus


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_corpus(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def real_data() -> Path:
    """The real LegalBench-RAG release; tests using it are skipped when SAC_DATA_DIR is not set."""
    raw = os.environ.get("SAC_DATA_DIR")
    if not raw:
        pytest.skip("SAC_DATA_DIR not set: real-data checks skipped")
    return Path(raw)


@pytest.fixture(scope="session")
def embed_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedding cache for the session, so the model encodes each test text once."""
    return tmp_path_factory.mktemp("cache")
