"""Imported runs: validated once, normalised and kept under ``<cache>/runs/<name>/``.

A run file of any retriever (:mod:`sac_core.engine.data.runfiles`: LegalBench-RAG-shaped JSONL
or TREC) is imported **for one benchmark** (data folder, protocol, datasets, seed): every line is
checked against it, and nothing is written unless all of it is valid. The folder then holds

- ``run.jsonl``: the run, one line per query of the benchmark (id, text, ranked snippets);
- ``manifest.json``: name, source file name, format, when, the benchmark's protocol, datasets,
  seed and fingerprint (:attr:`~sac_core.engine.data.Benchmark.digest`: its queries' ids, texts
  and gold spans, its documents' contents), query counts and the SHA-256 of ``run.jsonl``.

The method ``run`` (:mod:`.methods.imported`) opens it by name, and only on a benchmark with the
same fingerprint: a run made for lbr-mini never scores (garbage) on the paper protocol or on
another data folder. A name is given once per cache: importing different content under a used
name is an error (sweep cells are cached by name); :func:`remove_run` frees it.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..engine import store
from ..engine.data import (
    Benchmark,
    RunFileError,
    Snippet,
    decode,
    load_benchmark,
    named_queries,
    parse_run,
    read_queries,
    run_check,
    select,
    write_jsonl,
)
from ..engine.data.runfiles import MAX_BYTES
from .cells import CellCache

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
FITTING = ("lbr-mini", "paper", "full")  # the protocols a run is fitted to, smallest first


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
    return store.folder(cache_dir, "runs")  # inputs named by the user, not computed results


def digest_of(bench: Benchmark) -> str:
    """The benchmark's content fingerprint (computed once per benchmark object)."""
    return bench.digest


def fitting_protocol(
    text: str, source: str, data_dir: Path, datasets: tuple[str, ...], seed: int | None = None, fmt: str | None = None
) -> str:
    """The smallest protocol of :data:`FITTING` whose queries hold every query the run in ``text``
    names (``full`` holds them all): what a run is scored on when no protocol is given, so every
    line is scored. Raises :class:`RunFileError` for a line that names no query of the folder."""
    known = {q.query_id: q for ds in datasets for q in read_queries(data_dir, ds)}
    named = named_queries(text, source, known, fmt)
    for protocol in FITTING:
        chosen = {q.query_id for ds in datasets for q in select(read_queries(data_dir, ds), protocol, ds, seed)}
        if named <= chosen:
            return protocol
    return "full"


def import_run(
    data: bytes,
    *,
    name: str,
    source: str,
    data_dir: Path,
    cache_dir: Path,
    protocol: str | None,
    datasets: tuple[str, ...],
    seed: int | None = None,
    fmt: str | None = None,
    max_bytes: int = MAX_BYTES,
    whole: bool = False,
) -> StoredRun:
    """Validate the run file ``data`` (named ``source`` in errors) against the benchmark of
    ``data_dir``/``protocol``/``datasets``/``seed`` and store it as ``name``; the same content
    imported again under its name is a no-op. ``protocol`` None: the one the run fits
    (:func:`fitting_protocol`). ``whole``: lines for queries outside the benchmark are an error
    naming the protocol that would score them (else they are skipped and counted in ``skipped``).
    Raises :class:`RunFileError` (a line of the file) or :class:`RunStoreError` (the name)."""
    check_name(name)
    text = decode(data, source, max_bytes=max_bytes)
    protocol = protocol or fitting_protocol(text, source, data_dir, datasets, seed, fmt)
    bench = load_benchmark(data_dir, datasets, protocol, seed)
    parsed = parse_run(text, source, run_check(data_dir, bench, datasets), fmt)
    if whole and parsed.skipped:
        fits = fitting_protocol(text, source, data_dir, datasets, seed, fmt)
        raise RunFileError(
            f"{source}: {parsed.skipped} of its queries lie outside protocol {protocol} ({len(bench.queries)} "
            f"queries), so they would not be scored; the run fits protocol {fits}: import it there to score every line"
        )
    queries = {q.query_id: q for q in bench.queries}
    body = write_jsonl(queries, parsed.queries)
    sha = store.sha256(body)
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


def stored_run(cache_dir: Path, name: str) -> StoredRun:
    """An imported run's manifest (RunStoreError when there is none of that name)."""
    folder = runs_dir(cache_dir) / check_name(name)
    if not folder.is_dir():
        known = ", ".join(r.name for r in list_runs(cache_dir)) or "none"
        raise RunStoreError(f"no imported run {name!r} in {runs_dir(cache_dir)} (imported: {known})")
    return read_manifest(folder)


def load_run(cache_dir: Path, name: str) -> tuple[StoredRun, dict[str, tuple[Snippet, ...]]]:
    """An imported run's manifest and ranked snippets per query id."""
    stored = stored_run(cache_dir, name)
    folder = runs_dir(cache_dir) / stored.name
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
    if not CellCache.exists(cache_dir):
        return 0
    with CellCache(cache_dir) as cells:
        return cells.evict_where(lambda record: record.inputs.settings.get("option_run_name") == name)
