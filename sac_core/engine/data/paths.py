"""Where the data and the caches are: ``--data`` / ``$SAC_DATA_DIR`` and ``$SAC_CACHE_DIR``."""

from __future__ import annotations

import os
from pathlib import Path

from .types import BenchmarkError

DATA_ENV = "SAC_DATA_DIR"
CACHE_ENV = "SAC_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$SAC_CACHE_DIR`` or ``./cache``."""
    return Path(os.environ.get(CACHE_ENV, "cache"))


def resolve_data_dir(data: str | os.PathLike[str] | None) -> Path:
    """``--data`` if given, else ``$SAC_DATA_DIR``; errors clearly when neither is usable."""
    raw = data if data is not None else os.environ.get(DATA_ENV)
    if not raw:
        raise BenchmarkError(f"no data directory: pass --data DIR or set {DATA_ENV}")
    path = Path(raw).expanduser()
    if not (path / "benchmarks").is_dir():
        raise BenchmarkError(f"{path}: not a LegalBench-RAG directory (no benchmarks/ folder)")
    return path
