"""Sweep cells: the typed record of one evaluated configuration, the cell cache, and a sweep folder's
layout. The one module that knows their file names.

A sweep folder (committed under ``results/<name>/``)::

    results.csv          a row per cell × dataset (incl. ALL) × k: metrics with their 95 % intervals
                         (<metric>_low, <metric>_high), settings, counts, provenance, data digest
    per_query.csv.gz     a row per cell × query × k: every metric (significance, flips, intervals)
    significance.csv     paired tests between variants at one setting
    cells.jsonl          a line per cell: its id, every input its id hashes (configuration included),
                         the provenance of the code that computed it, and its run time
    runs/<cell>.jsonl.gz the run: each query's ranked spans

A sweep writes a folder in two steps: each new cell is appended (its rows, its manifest line, its
run), so an interrupted sweep leaves valid tables of the cells it finished; at the end every file
is written once in the sweep's order (:meth:`SweepFolder.write`), byte-stable.

The cell cache (the store's kind ``cells``, ``<cache>/sweep_cells``) holds :class:`CellRecord` s by
cell id (:mod:`.identity`); sweeps, ``sac verify`` and the dashboard's Tune builds share it.
"""

from __future__ import annotations

import gzip
import json
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import store
from ..engine.data import Span, csv_bytes, read_table, write_csv
from ..engine.metrics import METRICS
from .config import RunConfig, column_defaults
from .identity import CellInputs
from .provenance import COLUMNS as PROVENANCE_COLUMNS
from .provenance import Provenance
from .runs import read_run_text, write_run
from .significance import PAIR_COLUMNS

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

RESULTS = "results.csv"
PER_QUERY = "per_query.csv.gz"
SIGNIFICANCE = "significance.csv"
# What a significance table holds before its setting columns (then ``p_holm``): the variants, the
# cells compared (``a``, ``b``) and the paired test (:data:`~.significance.PAIR_COLUMNS`).
SIGNIFICANCE_COLUMNS: tuple[str, ...] = ("variant_a", "variant_b", *PAIR_COLUMNS, "p_holm")
MANIFEST = "cells.jsonl"
RUNS = "runs"
RUN_SUFFIX = ".jsonl.gz"  # runs/<cell id><suffix>
DATA_DIGEST = "data_digest"  # results column: the benchmark's content digest (shortened)
# Settings copied onto every per-query row (what the Curves page filters and labels by).
PER_QUERY_EXTRA = ("variant", "chunk_size", "semantic_weight", "model", "protocol", "summary_chars")


@dataclass(frozen=True)
class CellRecord:
    """One configuration evaluated on one benchmark: its tables, run, cost, inputs and provenance.

    ``results``: a row per (dataset incl. ALL, k): metrics, intervals, settings and counts (no cell
    id, provenance or run time: :func:`result_rows` adds them); ``per_query``: a row per (query, k);
    ``run``: query id → ranked spans; ``seconds``: wall time of the evaluation; ``config``: what ran
    (with its paths, which the identity leaves out)."""

    results: pd.DataFrame
    per_query: pd.DataFrame
    run: dict[str, list[Span]]
    seconds: float
    inputs: CellInputs
    provenance: Provenance
    config: RunConfig

    @property
    def id(self) -> str:
        return self.inputs.id

    def result_rows(self) -> pd.DataFrame:
        """The rows of ``results.csv``: the cell id first, provenance, data digest and run time last."""
        res = self.results.copy()
        res.insert(0, "cell", self.id)
        for column, value in self.provenance.columns().items():
            res[column] = value
        res[DATA_DIGEST] = self.inputs.data_digest
        res["cell_seconds"] = round(self.seconds, 1)
        return res

    def per_query_rows(self) -> pd.DataFrame:
        """The rows of ``per_query.csv.gz``: the cell id first, then :data:`PER_QUERY_EXTRA` settings last."""
        pq = self.per_query.copy()
        pq.insert(0, "cell", self.id)
        for column in PER_QUERY_EXTRA:
            pq[column] = self.results[column].iloc[0] if column in self.results.columns else None
        return pq

    def manifest_line(self) -> str:
        return json.dumps(
            {
                "cell": self.id,
                "config": self.config.to_dict(),
                "inputs": self.inputs.payload,
                "provenance": self.provenance.columns(),
                "seconds": round(self.seconds, 1),
            },
            sort_keys=True,
            ensure_ascii=False,
        )


# --------------------------------------------------------------------------- the cell cache


class CellCache:
    """The cache of evaluated cells by id: ``get`` (None when absent or unreadable), ``put``,
    ``evict``; a context manager (closes the database)."""

    def __init__(self, cache_dir: Path) -> None:
        self.folder = store.folder(cache_dir, "cells")
        self._db = store.entries(cache_dir, "cells")

    @staticmethod
    def exists(cache_dir: Path) -> bool:
        """Whether this cache folder holds a cell cache yet (opening one creates it)."""
        return (store.folder(cache_dir, "cells") / "cache.db").is_file()

    def get(self, cid: str) -> CellRecord | None:
        """The cached cell, or None when absent or unreadable (pickled by an older layout of the
        code): then a published copy or a new run replaces it."""
        try:
            value = self._db.get(cid)
        except (ImportError, AttributeError, EOFError, TypeError, pickle.UnpicklingError):
            return None
        return value if isinstance(value, CellRecord) and value.id == cid else None

    def put(self, record: CellRecord) -> None:
        self._db.set(record.id, record)

    def evict(self, cid: str) -> None:
        self._db.delete(cid)

    def ids(self) -> list[str]:
        """The ids of every cached cell (readable or not)."""
        return [str(cid) for cid in self._db.iterkeys()]

    def evict_where(self, predicate: Callable[[CellRecord], bool]) -> int:
        """Evict every readable cell ``predicate`` is true of (unreadable ones are left for a sweep
        to replace); how many."""
        evicted = 0
        for cid in self.ids():
            record = self.get(cid)
            if record is not None and predicate(record):
                self.evict(cid)
                evicted += 1
        return evicted

    def __contains__(self, cid: object) -> bool:
        return self.get(str(cid)) is not None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> CellCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- a sweep folder


@dataclass(frozen=True)
class SweepFolder:
    """A published sweep's folder (see the module docstring)."""

    path: Path

    @property
    def results(self) -> Path:
        return self.path / RESULTS

    @property
    def per_query(self) -> Path:
        return self.path / PER_QUERY

    @property
    def significance(self) -> Path:
        return self.path / SIGNIFICANCE

    @property
    def manifest(self) -> Path:
        return self.path / MANIFEST

    def run_path(self, cid: str) -> Path:
        return self.path / RUNS / f"{cid}{RUN_SUFFIX}"

    @property
    def published(self) -> bool:
        """Whether results, per-query table and manifest are all there."""
        return self.results.is_file() and self.per_query.is_file() and self.manifest.is_file()

    def manifest_entries(self) -> dict[str, dict[str, Any]]:
        """``cell id → {inputs, provenance, seconds}`` from ``cells.jsonl`` (empty when absent)."""
        if not self.manifest.is_file():
            return {}
        out = {}
        for n, line in enumerate(self.manifest.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                out[str(entry["cell"])] = entry
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise ValueError(f"{self.manifest}, line {n}: not a cell line ({type(e).__name__}: {e})") from None
        return out

    def unreadable(self) -> dict[str, str]:
        """``cell id → why`` of the published cells whose configuration names a setting that no longer
        exists (a renamed option, a plug-in not loaded): stale, recomputed by the next ``sac sweep``."""
        out = {}
        for cid, entry in self.manifest_entries().items():
            try:
                RunConfig.from_dict(entry.get("config") or {})
            except ValueError as e:
                out[cid] = str(e)
        return out

    def read_cells(self) -> dict[str, CellRecord]:
        """Every published cell whose parts are all there and whose configuration still reads (see
        :meth:`unreadable`), as the cell cache holds it."""

        if not self.published:
            return {}
        entries = self.manifest_entries()
        results = read_table(self.results)
        by_cell = dict(tuple(read_table(self.per_query).groupby("cell", sort=False)))
        out = {}
        for cid, rows in results.groupby("cell", sort=False):
            cid = str(cid)
            run_path = self.run_path(cid)
            if cid not in by_cell or cid not in entries or not run_path.is_file():
                continue
            entry = entries[cid]
            try:
                config = RunConfig.from_dict(entry["config"])
            except ValueError:  # a setting that no longer exists: a stale cell (unreadable())
                continue
            extra = [c for c in PER_QUERY_EXTRA if c in by_cell[cid].columns]
            dropped = ["cell", "cell_seconds", DATA_DIGEST, *PROVENANCE_COLUMNS]
            out[cid] = CellRecord(
                results=_as_written(rows.drop(columns=dropped, errors="ignore").reset_index(drop=True)),
                per_query=by_cell[cid].drop(columns=["cell", *extra]).reset_index(drop=True),
                run=read_run_text(gzip.decompress(run_path.read_bytes()).decode("utf-8"), run_path),
                seconds=float(entry.get("seconds", 0.0)),
                inputs=CellInputs(entry["inputs"]),
                provenance=Provenance(**{k: str(v) for k, v in entry.get("provenance", {}).items()}),
                config=config,
            )
        return out

    def write(self, records: list[CellRecord]) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Write the tables, the manifest and the runs of ``records`` (in order), and remove the runs
        of any other cell (a stale one replaced, one no longer in the grid); returns the results and
        per-query tables. Byte-stable: the same records give the same files."""
        import pandas as pd

        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / RUNS).mkdir(exist_ok=True)
        table = _results_table([r.result_rows() for r in records])
        write_csv(table, self.results)
        per_query = pd.concat([r.per_query_rows() for r in records], ignore_index=True)
        write_csv(per_query, self.per_query)  # gzip, time stamp 0: byte-stable
        self.manifest.write_text("".join(r.manifest_line() + "\n" for r in records), encoding="utf-8")
        for record in records:
            _write_run(self.run_path(record.id), record.run)
        kept = {self.run_path(record.id) for record in records}
        for run in (self.path / RUNS).glob("*" + RUN_SUFFIX):
            if run not in kept:
                run.unlink()
        return table, per_query

    def start(self, records: list[CellRecord]) -> None:
        """Write ``records`` as the folder before new cells are appended (none: no tables yet)."""
        if records:
            self.write(records)
            return
        for path in (self.results, self.per_query, self.manifest):
            path.unlink(missing_ok=True)

    def append(self, record: CellRecord) -> None:
        """Add one cell at the end of the folder (its rows, manifest line and run), reading or
        writing nothing of the cells before it: what a sweep does after each new cell. A cell with
        a column the table lacks (an option no cell before set) rewrites that one table."""
        self.path.mkdir(parents=True, exist_ok=True)
        (self.path / RUNS).mkdir(exist_ok=True)
        _write_run(self.run_path(record.id), record.run)
        _append_rows(self.results, _results_table([record.result_rows()]), compress=False)
        _append_rows(self.per_query, record.per_query_rows(), compress=True)
        with self.manifest.open("a", encoding="utf-8") as f:
            f.write(record.manifest_line() + "\n")

    def write_significance(self, table: pd.DataFrame) -> None:
        """``significance.csv``; a sweep without pairs (one variant per setting) is its header alone,
        never a file without columns."""
        if len(table.columns) == 0:
            import pandas as pd

            table = pd.DataFrame(columns=list(SIGNIFICANCE_COLUMNS))
        write_csv(table, self.significance)


def read_significance(path: Path, *, name: str | None = None) -> pd.DataFrame:
    """A sweep's ``significance.csv`` (ValueError naming it as ``name`` when it is not a table); a
    file without columns, as sweeps without pairs wrote it before, is an empty table."""
    import pandas as pd

    if Path(path).stat().st_size < 64 and not Path(path).read_bytes().strip():  # spaces and line ends only
        return pd.DataFrame(columns=list(SIGNIFICANCE_COLUMNS))
    return read_table(path, name=name)


def read_per_query(path: Path) -> pd.DataFrame | None:
    """The per-query table of the sweep folder ``path`` (or beside a results CSV in it), None when absent."""

    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    file = SweepFolder(folder).per_query
    return read_table(file) if file.is_file() else None


def iter_folders(root: Path) -> Iterator[SweepFolder]:
    """The published sweep folders directly under ``root``, by name (work folders left out)."""
    if root.is_dir():
        for path in sorted(p for p in root.iterdir() if p.is_dir()):
            if SweepFolder(path).results.is_file():
                yield SweepFolder(path)


def _results_table(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The result rows of cells as ``results.csv`` holds them: provenance, digest and run time last
    (columns only some cells have, option_* and summaries_*, then keep one order whether a cell was
    computed now or read back from a published folder), typed as they are read back."""
    import pandas as pd

    table = pd.concat(parts, ignore_index=True)
    optional = [c for c in table.columns if c.startswith(("option_", "summaries_"))]
    table = table.drop(columns=[c for c in optional if table[c].isna().all()])  # no cell sets it (any more)
    tail = [*PROVENANCE_COLUMNS, DATA_DIGEST, "cell_seconds"]
    return _as_written(table[[c for c in table.columns if c not in tail] + tail])


def _append_rows(path: Path, rows: pd.DataFrame, *, compress: bool) -> None:
    """``rows`` at the end of the CSV table ``path`` (gzip: one more member), in its columns; the
    table rewritten with the union of the columns when ``rows`` has one it lacks, or written anew."""
    import pandas as pd

    header = list(read_table(path, nrows=0).columns) if path.is_file() else []
    if not header or not set(rows.columns) <= set(header):
        write_csv(pd.concat([read_table(path), rows], ignore_index=True) if header else rows, path)
        return
    data = csv_bytes(rows.reindex(columns=header), header=False)
    if compress:
        with gzip.GzipFile(path, mode="ab", mtime=0) as f:
            f.write(data)
    else:
        with path.open("ab") as f:
            f.write(data)


def _as_written(results: pd.DataFrame) -> pd.DataFrame:
    """Settings typed as they are written and read back: a column of whole numbers with gaps
    (``summary_chars`` of a baseline, ``seed``, an integer option some cells set) holds nullable
    integers, not floats and NaN, so a table is written with the same bytes however its cells were made."""
    import pandas as pd

    out = results.copy()
    defaults = column_defaults()
    floats = {col for col, value in defaults.items() if isinstance(value, float)}  # e.g. semantic_weight, doc weights
    floats |= {c for c in out.columns if c.startswith("summaries_") and c.endswith("_mean_chars")}
    floats |= {"cell_seconds", "wall_seconds"}
    measured = {*METRICS, *(m + s for m in METRICS for s in ("_low", "_high"))}
    for col in out.columns:
        if col in measured or col == "k" or col in floats or not pd.api.types.is_float_dtype(out[col]):
            continue
        values = out[col].dropna()
        if (values == values.round()).all():  # also when every value is missing: empty, as written
            out[col] = out[col].astype("Int64")  # nullable integers: 1 and an empty cell, never 1.0 and NaN
    return out


def _write_run(path: Path, run: dict[str, list[Span]]) -> None:
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_run(tmp, run)
        path.write_bytes(gzip.compress(tmp.read_bytes(), mtime=0))
        tmp.unlink()
