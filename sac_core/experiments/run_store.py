"""Imported runs: validated once, normalised and kept under ``<cache>/runs/<name>/``.

A run file of any retriever (:mod:`sac_core.engine.data.runfiles`: LegalBench-RAG-shaped JSONL
or TREC) is imported **for one benchmark** (data folder, protocol, datasets, seed): every line is
checked against it, and nothing is written unless all of it is valid. The folder then holds

- ``run.jsonl``: the run, one line per query of the benchmark (id, text, ranked snippets);
- ``manifest.json``: name, source file name, format, when, the benchmark's protocol, datasets,
  seed and fingerprint (:func:`~.sweep.bench_digest`: query ids, gold spans, document lengths),
  query counts and the SHA-256 of ``run.jsonl``.

The method ``run`` (:mod:`.methods.imported`) opens it by name, and only on a benchmark with the
same fingerprint: a run made for lbr-mini never scores (garbage) on the paper protocol or on
another data folder. A name is given once per cache: importing different content under a used
name is an error (sweep cells are cached by name); :func:`remove_run` frees it.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import diskcache

from ..engine.data import Benchmark, Snippet, decode, load_benchmark, parse_run, run_check, write_jsonl
from ..engine.data.runfiles import MAX_BYTES
from .sweep import CELLS, bench_digest

RUNS = "runs"  # folder under the cache directory
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class RunStoreError(ValueError):
    """An import, lookup or removal of a stored run that cannot be done (the message says why)."""


@dataclass(frozen=True)
class StoredRun:
    """An imported run's manifest (see the module docstring)."""

    name: str
    source: str
    format: str
    imported: str  # ISO 8601, UTC
    protocol: str
    datasets: tuple[str, ...]
    seed: int | None
    queries: int
    skipped: int  # lines for queries of the data folder outside this benchmark
    digest: str
    sha256: str

    def fits(self, bench: Benchmark) -> str | None:
        """None when this run was imported for ``bench``, else why not (for the user)."""
        if self.digest != digest_of(bench):
            return (
                f"run {self.name!r} was imported for another benchmark ({self.protocol}, "
                f"{', '.join(self.datasets)}, {self.queries} queries): its queries or documents differ from these"
            )
        return None


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise RunStoreError(
            f"run name {name!r}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
    return name


def runs_dir(cache_dir: Path) -> Path:
    return Path(cache_dir) / RUNS


_DIGESTS: dict[int, tuple[Benchmark, str]] = {}


def digest_of(bench: Benchmark) -> str:
    """:func:`~.sweep.bench_digest` of ``bench``, remembered for the last few benchmarks seen."""
    hit = _DIGESTS.get(id(bench))
    if hit is not None and hit[0] is bench:
        return hit[1]
    value = bench_digest(bench)
    if len(_DIGESTS) >= 8:
        _DIGESTS.pop(next(iter(_DIGESTS)))
    _DIGESTS[id(bench)] = (bench, value)
    return value


def import_run(
    data: bytes,
    *,
    name: str,
    source: str,
    data_dir: Path,
    cache_dir: Path,
    protocol: str,
    datasets: tuple[str, ...],
    seed: int | None = None,
    fmt: str | None = None,
    max_bytes: int = MAX_BYTES,
) -> StoredRun:
    """Validate the run file ``data`` (named ``source`` in errors) against the benchmark of
    ``data_dir``/``protocol``/``datasets``/``seed`` and store it as ``name``; the same content
    imported again under its name is a no-op. Raises :class:`RunFileError` (a line of the file)
    or :class:`RunStoreError` (the name)."""
    check_name(name)
    bench = load_benchmark(data_dir, datasets, protocol, seed)
    parsed = parse_run(decode(data, source, max_bytes=max_bytes), source, run_check(data_dir, bench, datasets), fmt)
    queries = {q.query_id: q for q in bench.queries}
    body = write_jsonl(queries, parsed.queries)
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    folder = runs_dir(cache_dir) / name
    if folder.exists():
        existing = read_manifest(folder)
        if existing.sha256 == sha and existing.digest == digest_of(bench):
            return existing
        raise RunStoreError(
            f"a different run is already imported as {name!r} (from {existing.source}, {existing.imported}); "
            "choose another name, or remove it first (sac runs remove)"
        )
    stored = StoredRun(
        name, Path(source).name, parsed.format, datetime.now(UTC).isoformat(timespec="seconds"), protocol,
        tuple(datasets), seed, len(parsed.queries), parsed.skipped, digest_of(bench), sha,
    )  # fmt: skip
    runs_dir(cache_dir).mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=runs_dir(cache_dir)))
    try:
        (tmp / "run.jsonl").write_text(body, encoding="utf-8")
        (tmp / "manifest.json").write_text(json.dumps(stored.__dict__, indent=1) + "\n", encoding="utf-8")
        tmp.rename(folder)  # all or nothing: a reader never sees half a run
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if folder.exists():  # another import of the same name won the race
            raise RunStoreError(f"run {name!r} was imported meanwhile by someone else") from None
        raise
    return stored


def read_manifest(folder: Path) -> StoredRun:
    try:
        raw = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        raw["datasets"] = tuple(raw["datasets"])
        return StoredRun(**raw)
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise RunStoreError(f"{folder}: not a readable imported run ({e})") from None


def list_runs(cache_dir: Path) -> list[StoredRun]:
    """Every readable imported run under ``cache_dir``, by name."""
    root = runs_dir(cache_dir)
    if not root.is_dir():
        return []
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            out.append(read_manifest(folder))
        except RunStoreError:
            continue
    return out


def load_run(cache_dir: Path, name: str) -> tuple[StoredRun, dict[str, tuple[Snippet, ...]]]:
    """An imported run's manifest and ranked snippets per query id."""
    folder = runs_dir(cache_dir) / check_name(name)
    if not folder.is_dir():
        known = ", ".join(r.name for r in list_runs(cache_dir)) or "none"
        raise RunStoreError(f"no imported run {name!r} in {runs_dir(cache_dir)} (imported: {known})")
    stored = read_manifest(folder)
    run: dict[str, tuple[Snippet, ...]] = {}
    with (folder / "run.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            run[row["query_id"]] = tuple(
                Snippet(s["file_path"], s["span"][0], s["span"][1], s.get("score")) for s in row["snippets"]
            )
    return stored, run


def remove_run(cache_dir: Path, name: str) -> int:
    """Delete imported run ``name`` and the cached sweep cells that scored it; how many cells."""
    folder = runs_dir(cache_dir) / check_name(name)
    if not folder.is_dir():
        raise RunStoreError(f"no imported run {name!r} in {runs_dir(cache_dir)}")
    shutil.rmtree(folder)
    evicted = 0
    cells = Path(cache_dir) / CELLS
    if cells.is_dir():
        with diskcache.Cache(str(cells), eviction_policy="none") as cache:
            for key in list(cache.iterkeys()):
                try:
                    value = cache.get(key)
                except Exception:  # an unreadable cell is left for the sweep to replace
                    continue
                results = value.get("results") if isinstance(value, dict) else None
                column = "option_run_name"
                if results is not None and column in results.columns and (results[column] == name).any():
                    cache.delete(key)
                    evicted += 1
    return evicted
