"""Importing another retriever's run from the dashboard (the "Import a run" panel of Compare).

An uploaded file is data: at most :data:`MAX_UPLOAD` bytes, UTF-8 (or gzip of it), every line
validated against the benchmark shown (:mod:`sac_core.experiments.run_store`); errors name the
file, line and field and are shown as text. A valid run is stored under ``<cache>/runs/<name>/``,
becomes a Compare and Review column on this benchmark only, and its scores are written to
``<cache>/results/imported/<name>.csv`` so that the Curves page draws it (folder "imported").
Nothing here runs code from the user: live retrievers are offered only when the server's operator
lists them in ``$SAC_RETRIEVERS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..engine.data import RunFileError, load_benchmark, write_csv
from ..engine.embedding import Embedders
from ..experiments import OpenContext, RunConfig, evaluate
from ..experiments.run_store import NAME as NAME_PATTERN
from ..experiments.run_store import RunStoreError, StoredRun, import_run, list_runs
from .curves import demo_results_root
from .state import LOAD_ERRORS, Settings

MAX_UPLOAD = 64 * 1024 * 1024  # bytes
IMPORTED = "imported"  # the Curves folder of imported runs, under <cache>/results
IMPORT_ERRORS = (RunFileError, RunStoreError, *LOAD_ERRORS)  # what import_upload raises for a bad file or name


@dataclass(frozen=True)
class Imported:
    run: StoredRun
    results: Path  # the scored table the Curves page reads
    key: str  # the catalogue key of its Compare column


def suggested_name(filename: str) -> str:
    """A valid run name from an uploaded file's name (letters, digits, ``._-``)."""
    stem = Path(filename).name.split(".")[0]
    cleaned = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in stem).strip("-._")[:64]
    return cleaned if NAME_PATTERN.match(cleaned or "") else "my-run"


def import_upload(data: bytes, filename: str, name: str, s: Settings) -> Imported:
    """Validate and store an uploaded run for the benchmark of ``s`` and score it (see the module
    docstring). Every line is scored: a run with lines for queries outside the sidebar's protocol is
    refused, naming the protocol that holds them all."""
    stored = import_run(
        data, name=name.strip(), source=Path(filename).name or "upload", data_dir=s.source.data_dir,
        cache_dir=s.cache_dir, protocol=s.protocol, datasets=s.datasets, max_bytes=MAX_UPLOAD, whole=True,
    )  # fmt: skip
    config = RunConfig(protocol=s.protocol, datasets=s.datasets, method="run", options=(("run.name", stored.name),))
    bench = load_benchmark(s.source.data_dir, s.datasets, s.protocol)
    ev = evaluate(config, OpenContext(bench, s.source.data_dir, s.cache_dir, Embedders(s.cache_dir)))
    folder = demo_results_root(s.cache_dir) / IMPORTED
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stored.name}.csv"
    write_csv(ev.results, path)
    return Imported(stored, path, f"run:{stored.name}")


def file_label(filename: str, size: int) -> str:
    """An uploaded file as the import button names it: ``run.jsonl (12.3 KB)``."""
    return (
        f"{Path(filename).name} ({size / 1024:,.1f} KB)"
        if size < 1024 * 1024
        else f"{Path(filename).name} ({size / 1024 / 1024:,.1f} MB)"
    )


def imported_here(s: Settings) -> list[StoredRun]:
    """The runs imported for this protocol and these datasets."""
    return [r for r in list_runs(s.cache_dir) if (r.protocol, r.datasets) == (s.protocol, s.datasets)]
