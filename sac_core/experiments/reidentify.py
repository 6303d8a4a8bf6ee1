"""Re-identify a sweep folder published before cell ids hashed every input (identity version 1):
prove what can be proved about its inputs, then write every cell under its id of today.

A version-1 id hashed a cell's settings columns, its cut-offs and a fingerprint of the benchmark's
query ids, gold spans, document paths and lengths (not the texts, nor the query texts unless the
queries were transformed). For each published cell this module checks, on the data folder in use:

1. the sweep file has a configuration whose settings are the cell's (columns renamed as today:
   ``signals_<field>`` → ``option_doc_<field>``, options at their default dropped);
2. the version-1 id recomputed from the cell's published settings and this data folder equals
   the published id: the same queries, gold spans, document paths and lengths;
3. the cell's run, rescored against this folder's gold, gives its published per-query metrics
   (largest difference reported; it must be 0).

Only then is the cell written again: its new id (:mod:`.identity`), its means recomputed from its
per-query metrics with their intervals, the significance table recomputed, and a provenance naming
the commit that published it (``git_dirty`` unknown: ""). What version 1 could not see (document
texts, summaries, code) is what ``sac verify`` checks, by recomputing cells from nothing.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.data import Benchmark, load_benchmark, read_table
from ..engine.metrics import METRICS, mean_by_dataset, score_run
from ..engine.retrieval import Signals
from .cells import CellRecord, SweepFolder
from .compat import LEGACY_COLUMN, modern_column
from .config import RunConfig, column_defaults
from .identity import cell_inputs
from .plugins import OpenContext
from .provenance import Provenance, current
from .runs import read_run_text
from .sweep import Sweep, significance

if TYPE_CHECKING:
    import pandas as pd

COUNTS = ("n_queries", "n_documents", "n_chunks", "sentences_embedded")
NOT_SETTINGS = {"cell", "dataset", "k", "cell_seconds", "wall_seconds", *METRICS, *COUNTS}


class ReidentifyError(ValueError):
    """A published cell whose inputs could not be proved unchanged (the message says which check failed)."""


@dataclass(frozen=True)
class Reidentified:
    old: str
    new: str
    variant: str
    rescored: float  # the largest difference between the published and the rescored per-query metrics
    means: float  # the largest difference between the published and the recomputed means


def legacy_digest(bench: Benchmark) -> str:
    """The version-1 fingerprint of a benchmark: query ids and gold spans, document paths and
    lengths, and the query texts only for derived queries (``bench.transform``)."""
    data = [(q.query_id, [(s.file_path, s.start, s.end) for s in q.gold]) for q in bench.queries]
    payload: list[object] = [data, sorted((fp, len(d.text)) for fp, d in bench.documents.items())]
    if bench.transform:
        payload.append({"transform": bench.transform, "queries": [q.text for q in bench.queries]})
    return hashlib.sha256(json.dumps(payload).encode()).hexdigest()


def legacy_id(settings: Mapping[str, object], ks: list[int], digest: str) -> str:
    payload = json.dumps({**settings, "ks": ks, "data": digest}, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _kinds() -> dict[str, object]:
    """Each settings column's default value (its type decides how a CSV value is read back),
    the old ``signals_<field>`` columns too."""
    return {**column_defaults(), **{f"{LEGACY_COLUMN}{f.name}": f.default for f in fields(Signals)}}


def _typed(value: object, default: object) -> object:
    """A CSV value as the setting it was (None for an empty cell)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(default, bool):
        return value if isinstance(value, bool) else str(value) == "True"
    if isinstance(default, int) or (default is None and isinstance(value, float) and value == int(value)):
        return int(value)  # type: ignore[call-overload]
    if isinstance(default, float):
        return float(value)  # type: ignore[arg-type]
    return value if not isinstance(value, str) else str(value)


def published_settings(row: Mapping[str, object]) -> dict[str, object]:
    """A published cell's settings as version 1 hashed them: its settings columns, typed; a column
    only some cells have (``signals_*``, ``option_*``, the later index settings) only where set."""
    kinds = _kinds()
    optional = (LEGACY_COLUMN, "option_", "dense_index", "ann_threshold", "hnsw_m", "ef_search")
    out = {}
    for column, value in row.items():
        if column in NOT_SETTINGS or column.startswith("summaries_"):
            continue
        typed = _typed(value, kinds.get(column))
        if typed is None and column.startswith(optional):
            continue
        out[column] = typed
    return out


def modern_settings(settings: Mapping[str, object]) -> dict[str, object]:
    """Published settings named as today's columns (``signals_*`` → ``option_doc_*``), options
    at their default dropped (a default is no setting), for matching a sweep file's configuration."""
    kinds = _kinds()
    out = {}
    for column, value in settings.items():
        if column.startswith(("option_", LEGACY_COLUMN)) and value == kinds.get(column):
            continue
        out[modern_column(column)] = value
    return out


def _legacy_folder(folder: Path) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:

    published = SweepFolder(folder)
    results = read_table(published.results)
    per_query = read_table(published.per_query)
    return results, {str(c): rows for c, rows in per_query.groupby("cell", sort=False)}


def _counts(row: Mapping[str, object], config: RunConfig) -> dict[str, object]:
    """The measured counts of a published row, named as today (the stage ``signals`` is ``doc`` now)."""
    out: dict[str, object] = {}
    for key in COUNTS:
        value = row.get(key)
        if key == "sentences_embedded" and (value is None or (isinstance(value, float) and math.isnan(value))):
            continue
        out[key] = None if value is None or (isinstance(value, float) and math.isnan(value)) else int(value)  # type: ignore[call-overload]
    parts = [config.method_plugin.name, *(stage.name for stage in config.stages)]
    for part in parts:
        old = "signals" if part == "doc" else part
        setting = row.get(f"summaries_{old}")
        if isinstance(setting, str):
            out[f"summaries_{part}"] = setting
            out[f"summaries_{part}_mean_chars"] = float(row[f"summaries_{old}_mean_chars"])  # type: ignore[arg-type]
    return out


def reidentify_cell(
    cid: str, rows: pd.DataFrame, per_query: pd.DataFrame, run_text: str, config: RunConfig, ctx: OpenContext,
    provenance: Provenance,
) -> tuple[CellRecord, Reidentified]:  # fmt: skip
    """One published cell checked (see the module docstring) and re-identified."""
    row = rows.iloc[0].to_dict()
    ks = sorted(int(k) for k in rows["k"].unique())
    settings = published_settings(row)
    if legacy_id(settings, ks, legacy_digest(ctx.bench)) != cid:
        raise ReidentifyError(
            f"cell {cid} ({row['variant']}): its version-1 id does not follow from its settings and this data "
            "folder (other queries, gold spans, document paths or lengths): recompute it instead"
        )
    run = read_run_text(run_text, Path(f"{cid}.jsonl.gz"))
    rescored = score_run(ctx.bench.queries, run, ks, config.metric_mode).set_index(["query_id", "k"]).sort_index()
    published = per_query.set_index(["query_id", "k"]).sort_index()
    if not rescored.index.equals(published.index):
        raise ReidentifyError(f"cell {cid}: its per-query table covers other queries than this data folder's")
    rescored_gap = max(float((rescored[m] - published[m]).abs().fillna(0).max()) for m in METRICS)
    if rescored_gap > 1e-12:
        raise ReidentifyError(f"cell {cid}: its run rescored differs from its published metrics by {rescored_gap:.2e}")
    pq = per_query[["query_id", "dataset", "k", *METRICS]].reset_index(drop=True)
    results = mean_by_dataset(pq)
    for key, value in {**config.columns(), **_counts(row, config)}.items():
        results[key] = value
    results.insert(1, "variant", results.pop("variant"))
    old_means = rows.set_index(["dataset", "k"])[list(METRICS)]
    new_means = results.set_index(["dataset", "k"])[list(METRICS)].reindex(old_means.index)
    means_gap = float((old_means - new_means).abs().max().max())
    record = CellRecord(
        results, pq, run, float(row.get("cell_seconds") or 0.0), cell_inputs(config, ctx), provenance, config
    )
    return record, Reidentified(cid, record.id, config.variant, rescored_gap, means_gap)


def reidentify_folder(
    folder: Path, sweep: Sweep, data_dir: Path, cache_dir: Path, *, published_by: Callable[[str], str] | None = None,
    on_cell: Callable[[Reidentified], None] | None = None,
) -> list[Reidentified]:  # fmt: skip
    """Re-identify every cell of the version-1 sweep folder ``folder`` made by ``sweep`` on
    ``data_dir`` and write the folder anew (all or nothing). ``published_by(cell id)``: the commit
    that published a cell (its provenance); raises :class:`ReidentifyError` when a check fails."""
    results, per_query = _legacy_folder(folder)
    by_settings: dict[str, RunConfig] = {}
    for cell in sweep.cells:
        by_settings[json.dumps(cell.columns(), sort_keys=True, default=str)] = cell
    contexts: dict[tuple[Any, ...], OpenContext] = {}
    records, done = [], []
    for cid, rows in results.groupby("cell", sort=False):
        cid = str(cid)
        key = json.dumps(modern_settings(published_settings(rows.iloc[0].to_dict())), sort_keys=True, default=str)
        config = by_settings.get(key)
        if config is None:
            raise ReidentifyError(
                f"cell {cid} ({rows['variant'].iloc[0]}): no configuration of {sweep.name} has its settings"
            )
        ctx_key = (config.protocol, config.datasets, config.seed)
        if ctx_key not in contexts:
            bench = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
            contexts[ctx_key] = OpenContext.new(bench, data_dir, cache_dir)
        run_path = SweepFolder(folder).run_path(cid)
        run_text = gzip.decompress(run_path.read_bytes()).decode("utf-8")
        commit = published_by(cid) if published_by else current().git_commit
        provenance = Provenance(current().sac_version, commit, "")
        record, found = reidentify_cell(cid, rows, per_query[cid], run_text, config, contexts[ctx_key], provenance)
        records.append(record)
        done.append(found)
        if on_cell is not None:
            on_cell(found)
    order = {cell: i for i, cell in enumerate(sweep.cells)}  # written in the sweep's order, as `sac sweep` does
    records.sort(key=lambda r: order[r.config])
    _replace(folder, records)
    return done


def _replace(folder: Path, records: list[CellRecord]) -> None:
    """Write ``records`` as the sweep folder ``folder`` (written beside it, then swapped in)."""
    fresh = folder.with_name(folder.name + ".reidentified")
    shutil.rmtree(fresh, ignore_errors=True)
    out = SweepFolder(fresh)
    table, per_query = out.write(records)
    out.write_significance(significance(table, per_query))
    for extra in folder.iterdir():  # files of the folder that are not the sweep's (e.g. acceptance tables)
        if extra.name not in {out.results.name, out.per_query.name, out.significance.name, "runs", out.manifest.name}:
            shutil.copy2(extra, fresh / extra.name)
    old = folder.with_name(folder.name + ".v1")
    folder.rename(old)
    fresh.rename(folder)
    shutil.rmtree(old)
