"""Indexes saved on disk, so a dashboard or a rerun loads them in seconds instead of rebuilding.

One folder per index::

    dense.faiss        the FAISS index (absent for a BM25-only index)
    chunks.parquet     one row per chunk in pool order: file_path, start, end ([start, end) in
                       characters of the document) and text_sha256 of the text it was indexed under
    manifest.json      what was indexed: the caller's description (configuration, model id, backend,
                       counts, content hashes of the documents and summaries), checked before use

A folder is written under a temporary name and renamed when complete, so a half-written index
(a crash, a kill) is never read. What makes an index stale is decided by the caller from the
manifest (:mod:`sac_core.experiments.index_store`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..store import sha256
from .dense import DenseIndex

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

FORMAT = 1  # bump when the folder layout changes; older folders are then stale
DENSE, CHUNKS, MANIFEST = "dense.faiss", "chunks.parquet", "manifest.json"


@dataclass(frozen=True)
class SavedIndex:
    """An index read back: the dense index (None for BM25-only), the chunk table, the manifest."""

    dense: DenseIndex | None
    chunks: pd.DataFrame  # file_path, start, end, text_sha256
    manifest: dict[str, Any]


def save_index(
    folder: Path,
    dense: DenseIndex | None,
    spans: Sequence[tuple[str, int, int]],
    indexed: Sequence[str],
    manifest: dict[str, Any],
) -> None:
    """Write an index folder atomically (replacing an older one at ``folder``). ``spans`` are the
    chunks' ``(file_path, start, end)`` and ``indexed`` the texts they were indexed under, in pool order."""
    import pandas as pd

    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        if dense is not None:
            dense.save(tmp / DENSE)
        table = pd.DataFrame(
            {
                "file_path": [s[0] for s in spans],
                "start": [s[1] for s in spans],
                "end": [s[2] for s in spans],
                "text_sha256": [sha256(t) for t in indexed],
            }
        )
        table.to_parquet(tmp / CHUNKS, index=False)
        full = {"format": FORMAT, **manifest, "chunks": len(spans), "dense": dense is not None}
        (tmp / MANIFEST).write_text(json.dumps(full, indent=2, sort_keys=True, default=str), encoding="utf-8")
        old = folder.with_name(f".{folder.name}-old-{os.getpid()}")
        if folder.exists():
            folder.rename(old)
        tmp.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a complete index folder, or None (missing, unreadable, other format)."""
    try:
        manifest = json.loads((Path(folder) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) and manifest.get("format") == FORMAT else None


def load_index(folder: Path) -> SavedIndex | None:
    """The index in ``folder``, or None when it is missing or incomplete."""
    import pandas as pd

    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest is None:
        return None
    try:
        chunks = pd.read_parquet(folder / CHUNKS)
        dense = DenseIndex.load(folder / DENSE) if manifest.get("dense") else None
    except (OSError, ValueError, RuntimeError):
        return None
    if len(chunks) != manifest.get("chunks") or (dense is not None and len(dense) != len(chunks)):
        return None
    return SavedIndex(dense, chunks, manifest)
