"""A derived folder appears whole or not at all.

``sac noname``, ``reword``, ``idnames`` and ``heldout`` write a new folder of links and benchmark
files. Written in place, an interrupted run (Ctrl-C, a killed job) left a half-written folder that
the next run refused as "not empty". :func:`staged` has the work done in a sibling folder
``.<name>.partial`` and renames it to ``<name>`` at the end (one rename: atomic on one file
system), so a folder that exists is complete; what an interrupted run left is removed by the next.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .paths import check_outside_project
from .types import BenchmarkError

PARTIAL = ".partial"


def partial_folder(out_dir: Path) -> Path:
    """Where :func:`staged` writes ``out_dir`` before it is complete: ``.<name>.partial`` beside it."""
    return out_dir.with_name(f".{out_dir.name}{PARTIAL}")


@contextmanager
def staged(out_dir: Path, what: str) -> Iterator[Path]:
    """A folder to write ``out_dir``'s content into; renamed to ``out_dir`` when the block ends
    normally, removed when it raises (or is interrupted). Raises :class:`BenchmarkError`, before any
    work, when ``out_dir`` lies inside the project, exists and is not an empty folder (``what``
    names the copy), or cannot be written (a read-only folder, a file on the way)."""
    out_dir = Path(out_dir)
    check_outside_project(out_dir)
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise BenchmarkError(f"{out_dir}: not empty; choose a new folder for the {what}")
    work = partial_folder(out_dir)
    try:
        if work.exists() or work.is_symlink():
            shutil.rmtree(work)  # left by an interrupted run
        work.mkdir(parents=True)
    except OSError as e:
        raise BenchmarkError(f"{out_dir}: cannot be written ({e.strerror or type(e).__name__})") from None
    try:
        yield work
        if out_dir.is_dir():
            out_dir.rmdir()  # empty (checked above): the rename takes its place
        work.rename(out_dir)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
