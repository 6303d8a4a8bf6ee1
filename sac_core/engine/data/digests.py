"""Content fingerprints of the data: a file's SHA-256, computed once (a whole benchmark's is
:attr:`~.types.Benchmark.digest`).

A result is reused only when every input that made it is the same, so what identifies a result
holds the *content* of its documents and queries, not their names or lengths: a corrected OCR
page of the same length, an anonymised name, a reworded question all give a new fingerprint.

:func:`file_sha256` hashes a file's bytes once per process and remembers it by path, size,
modification time and inode. As git does for its index ("racily clean" entries), a remembered hash
is trusted only when the file was last modified well before the hash was taken: an edit inside the
same clock tick, which keeps size and modification time, is then still seen.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..store import sha256

RACY_SECONDS = 2.0  # a hash taken less than this after the file's last change is not remembered


@dataclass(frozen=True)
class _Seen:
    size: int
    mtime_ns: int
    inode: int
    sha256: str


_seen: dict[str, _Seen] = {}  # resolved path → what was hashed (a memo, like functools.lru_cache)
_lock = threading.Lock()


Stamp = tuple[tuple[str, int, int, int], ...]  # (relative path, size, mtime ns, inode) per file


def folder_stamp(data_dir: Path) -> Stamp:
    """(relative path, size, mtime ns, inode) of every file a page may read in ``data_dir``: every
    dataset's benchmark file and corpus folder, and the summary file, in the order of their paths'
    parts. Cheap (file metadata only, one ``stat`` per file): a server compares it on every page run
    and reloads the benchmark, hence recomputes its content digest, when any of it changed."""
    root = Path(data_dir)
    datasets = sorted(p.stem for p in (root / "benchmarks").glob("*.json"))
    out = []
    for rel in [*(f"benchmarks/{ds}.json" for ds in datasets), "summaries/llm.jsonl"]:
        try:
            st = (root / rel).stat()
        except OSError:
            continue
        out.append((rel, st.st_size, st.st_mtime_ns, st.st_ino))
    for ds in datasets:
        out.extend((f"corpus/{ds}/{rel}", *meta) for rel, meta in _files(root / "corpus" / ds))
    return tuple(sorted(out, key=lambda entry: entry[0].split("/")))


def _files(folder: Path, prefix: str = "") -> list[tuple[str, tuple[int, int, int]]]:
    """(path below ``folder``, (size, mtime ns, inode)) of every file under it, through linked folders;
    a folder or file that cannot be read is left out, as a missing one."""
    out: list[tuple[str, tuple[int, int, int]]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return out
    for entry in entries:
        try:
            if entry.is_dir():
                out.extend(_files(Path(entry.path), f"{prefix}{entry.name}/"))
            elif entry.is_file():
                st = entry.stat()
                out.append((f"{prefix}{entry.name}", (st.st_size, st.st_mtime_ns, st.st_ino)))
        except OSError:
            continue
    return out


def source_key(bench_digest: str, stamp: Stamp | str) -> str:
    """What identifies a result a server keeps for a benchmark: its content digest and the
    :func:`folder_stamp` of the folder it was loaded from. A method may read more than the loaded
    queries and documents (SAC embeds the summary file's texts; clause exemplars read the whole
    folder's labelled questions), so a change to any file of the folder gives a new key. SHA-256 (hex)."""
    return sha256(json.dumps([bench_digest, stamp]))


def read_with_sha256(path: Path) -> tuple[bytes, str]:
    """The bytes of the file at ``path`` and their SHA-256 (hex).

    The hash is remembered by (resolved path, size, mtime, inode) for this process, so a file read
    again unchanged is not hashed again (see the module docstring for edits within one clock tick)."""
    real = os.path.realpath(path)
    before = os.stat(real)
    stamp = (before.st_size, before.st_mtime_ns, before.st_ino)
    data = Path(real).read_bytes()
    with _lock:
        seen = _seen.get(real)
    if seen is not None and (seen.size, seen.mtime_ns, seen.inode) == stamp and len(data) == seen.size:
        return data, seen.sha256
    digest = sha256(data)
    after = os.stat(real)
    unchanged = (after.st_size, after.st_mtime_ns, after.st_ino) == stamp
    if unchanged and time.time_ns() - before.st_mtime_ns > RACY_SECONDS * 1e9:
        with _lock:
            _seen[real] = _Seen(*stamp, digest)
    return data, digest


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of the file at ``path`` (remembered as by :func:`read_with_sha256`)."""
    return read_with_sha256(path)[1]
