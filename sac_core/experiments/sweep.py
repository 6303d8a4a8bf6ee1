"""A grid of experiments, each cell cached on disk, so a sweep resumes after any interruption.

A sweep file (TOML) names a ``base`` configuration and one or more ``[[grid]]`` tables; each
grid is the product of its axes (``summary.<field>`` sets a SummaryConfig field, ``signals.<field>``
a retrieval Signals field), and the cells of all grids are run in order, duplicates once. An
optional top-level ``reuse = ["../results/paper"]`` (relative to the sweep file) names published
sweep folders whose cells are taken as they are instead of recomputed::

    name = "lbr-mini-grid"
    [base]
    protocol = "lbr-mini"
    [[grid]]
    method = ["baseline"]
    chunk_size = [500, 200, 800]
    [[grid]]
    method = ["sac"]
    chunk_size = [500, 200, 800]
    "summary.prompt" = ["generic", "expert"]

Outputs in ``out_dir``: ``results.csv`` (a row per dataset × cell × k, every config column),
``per_query.csv.gz`` (for significance and "which queries flipped"), ``significance.csv``
(every pair of variants at the same setting) and ``runs/<cell>.jsonl.gz``.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import pickle
import time
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

import diskcache

from ..engine.data import Benchmark, load_benchmark
from ..engine.embedding import Embedders
from ..engine.metrics import METRICS
from ..engine.progress import progress_bar
from ..engine.retrieval import Signals
from ..engine.summaries import SummaryConfig
from .config import RunConfig
from .evaluate import evaluate
from .plugins import OpenContext
from .runs import read_run_text, write_run
from .significance import compare_methods

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

# Config columns in which the variants compared at one setting differ (all summary_* columns too).
VARIANT_COLUMNS = ("method", "variant")


@dataclass(frozen=True)
class Sweep:
    name: str
    cells: tuple[RunConfig, ...]
    reuse: tuple[Path, ...] = ()  # published sweep folders whose cells count as cached (same cell id)


class SweepError(ValueError):
    pass


def _coerce(name: str, value: object, cls: type) -> object:
    types = {f.name: f.type for f in fields(cls)}
    if name not in types:
        raise SweepError(f"unknown setting {name!r}; known: {', '.join(types)}")
    if isinstance(value, list) and name in ("ks", "datasets"):
        return tuple(value)
    return value


def _apply(config: RunConfig, settings: dict[str, object], where: str) -> RunConfig:
    """``settings`` on top of ``config``: RunConfig fields, ``summary.<field>``, ``signals.<field>``,
    and ``<plug-in>.<field>`` options of registered methods and stages."""
    nested = {"summary.": SummaryConfig, "signals.": Signals}
    changes = {prefix: {k[len(prefix) :]: v for k, v in settings.items() if k.startswith(prefix)} for prefix in nested}
    rest = {k: v for k, v in settings.items() if not k.startswith(tuple(nested))}
    options = {k: v for k, v in rest.items() if "." in k}
    run_changes = {k: v for k, v in rest.items() if "." not in k}
    try:
        summary = replace(config.summary, **{k: _coerce(k, v, SummaryConfig) for k, v in changes["summary."].items()})  # type: ignore[arg-type]
        signals = replace(config.signals, **{k: _coerce(k, v, Signals) for k, v in changes["signals."].items()})  # type: ignore[arg-type]
        run = {k: _coerce(k, v, RunConfig) for k, v in run_changes.items()}
        if options:
            run["options"] = {**dict(config.options), **options}
        return replace(config, summary=summary, signals=signals, **run)  # type: ignore[arg-type]
    except (SweepError, ValueError, TypeError) as e:
        raise SweepError(f"{where}: {e}") from None


def load_sweep(path: Path) -> Sweep:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SweepError(f"{path}: sweep file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise SweepError(f"{path}: invalid TOML: {e}") from None
    base = _apply(RunConfig(), raw.get("base", {}), f"{path} [base]")
    grids = raw.get("grid") or [{}]
    cells: dict[RunConfig, None] = {}
    for n, grid in enumerate(grids, start=1):
        axes = {k: (v if isinstance(v, list) else [v]) for k, v in grid.items()}
        for values in itertools.product(*axes.values()):
            cell = _apply(base, dict(zip(axes, values)), f"{path} [[grid]] #{n}")
            if not cell.summaries_read():
                cell = replace(cell, summary=base.summary)  # summary axes do not change what reads no summaries
            cells.setdefault(cell)
    reuse = tuple((path.parent / folder).resolve() for folder in raw.get("reuse", []))
    return Sweep(raw.get("name", path.stem), tuple(cells), reuse)


def bench_digest(bench: Benchmark) -> str:
    """Fingerprint of the queries (ids and gold spans) and documents (paths and lengths) of a benchmark,
    and of how its queries were derived when they were (``bench.transform``, e.g. a no-name copy:
    the same ids and gold, other texts; absent otherwise, so published cells keep their ids)."""
    data = [(q.query_id, [(s.file_path, s.start, s.end) for s in q.gold]) for q in bench.queries]
    payload: list[object] = [data, sorted((fp, len(d.text)) for fp, d in bench.documents.items())]
    if bench.transform:
        payload.append({"transform": bench.transform, "queries": [q.text for q in bench.queries]})
    return hashlib.sha256(json.dumps(payload).encode()).hexdigest()


def cell_id(config: RunConfig, bench: Benchmark, digest: str | None = None) -> str:
    """Stable id of a cell: its config and a fingerprint of the queries and documents it runs on
    (``digest``: :func:`bench_digest` of ``bench``, when the caller has it already)."""
    data_digest = digest or bench_digest(bench)
    payload = json.dumps({**config.columns(), "ks": list(config.ks), "data": data_digest}, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def run_sweep(
    sweep: Sweep,
    data_dir: Path,
    cache_dir: Path,
    out_dir: Path,
    *,
    progress: bool = True,
    cached_only: bool = False,
) -> pd.DataFrame:
    """Run (or read from the cache) every cell and return the results table.

    The outputs are rewritten after each newly computed cell, so an interrupted sweep still
    leaves valid tables of the cells it finished. ``cached_only``: skip cells not yet computed
    (to publish a partial sweep with its significance table). Cells already published in
    ``out_dir`` or in the sweep's ``reuse`` folders (results, per-query metrics and run files of a
    committed sweep) count as cached: extending a committed grid, or comparing with another
    sweep's published cells, computes only the new cells, even on a machine without the cache.
    """
    cell_cache = open_cell_cache(cache_dir)
    published = {cid: cell for folder in sweep.reuse for cid, cell in read_published_cells(folder).items()}
    published |= read_published_cells(out_dir)
    benches: dict[tuple, Benchmark] = {}
    embedders = Embedders(cache_dir)
    results: list[pd.DataFrame] = []
    per_query: list[pd.DataFrame] = []
    (out_dir / "runs").mkdir(parents=True, exist_ok=True)
    bar = progress_bar(sweep.cells, desc=f"sweep {sweep.name}", unit="cell", disable=not progress)
    cached = 0
    for config in bar:
        key = (config.protocol, config.datasets, config.seed)
        if key not in benches:
            benches[key] = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
        bench = benches[key]
        cid = cell_id(config, bench)
        hit = cached_cell(cell_cache, cid)
        if hit is None and cid in published:
            hit = published[cid]
            cell_cache.set(cid, hit)
        computed = hit is None
        if computed and cached_only:
            continue
        if hit is None:
            hit = evaluate_cell(config, OpenContext(bench, data_dir, cache_dir, embedders, progress=progress))
            cell_cache.set(cid, hit)
        else:
            cached += 1
        bar.set_postfix(cached=cached, variant=config.variant, chunk=config.chunk_size, w=config.semantic_weight)
        res, pq = _cell_tables(cid, hit)
        results.append(res)
        per_query.append(pq)
        _write_run(out_dir / "runs" / f"{cid}.jsonl.gz", hit["run"])
        if computed:
            _write_tables(out_dir, results, per_query, with_significance=False)
    if not results:
        raise SweepError(f"sweep {sweep.name}: no cell is cached yet")
    return _write_tables(out_dir, results, per_query, with_significance=True)


def _cell_tables(cid: str, hit: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A cell's results and per-query rows as the sweep tables hold them: keyed by its id, with its
    run time (seconds) and, on each per-query row, the settings of :data:`PER_QUERY_EXTRA`."""
    res = hit["results"].copy()
    res.insert(0, "cell", cid)
    res["cell_seconds"] = round(hit["seconds"], 1)
    pq = hit["per_query"].copy()
    pq.insert(0, "cell", cid)
    for column in PER_QUERY_EXTRA:
        pq[column] = res[column].iloc[0]
    return res, pq


CELLS = "sweep_cells"  # folder of the cell cache under the cache directory


def open_cell_cache(cache_dir: Path) -> diskcache.Cache:
    """The cache of evaluated cells (by :func:`cell_id`), shared by sweeps and the dashboard's builds."""
    return diskcache.Cache(str(Path(cache_dir) / CELLS), eviction_policy="none")


def evaluate_cell(config: RunConfig, ctx: OpenContext) -> dict:
    """``config`` evaluated, as the cell cache holds it: ``results``, ``per_query``, ``run``, ``seconds``."""
    t0 = time.perf_counter()
    ev = evaluate(config, ctx)
    return {"results": ev.results, "per_query": ev.per_query, "run": ev.run, "seconds": time.perf_counter() - t0}


def cached_cell(cache: diskcache.Cache, cid: str) -> dict | None:
    """The cached cell, or None when absent or unreadable (pickled by an older layout of the
    code): then the published copy or a new run replaces it."""
    try:
        value = cache.get(cid)
    except (ImportError, AttributeError, EOFError, pickle.UnpicklingError):
        return None
    return value if isinstance(value, dict) else None


PER_QUERY_EXTRA = ("variant", "chunk_size", "semantic_weight", "model", "protocol", "summary_chars")


def read_published_cells(out_dir: Path) -> dict[str, dict]:
    """The cells of a published sweep folder, as the cell cache holds them (``results``, ``per_query``,
    ``run``, ``seconds``); only cells whose three parts are all there."""
    import pandas as pd

    results_path, pq_path = out_dir / "results.csv", out_dir / "per_query.csv.gz"
    if not results_path.is_file() or not pq_path.is_file():
        return {}
    results = pd.read_csv(results_path)
    per_query = pd.read_csv(pq_path)
    by_cell = dict(tuple(per_query.groupby("cell", sort=False)))
    out = {}
    for cid, rows in results.groupby("cell", sort=False):
        run_path = out_dir / "runs" / f"{cid}.jsonl.gz"
        if cid not in by_cell or not run_path.is_file():
            continue
        pq = by_cell[cid].drop(columns=["cell", *[c for c in PER_QUERY_EXTRA if c in by_cell[cid].columns]])
        out[str(cid)] = {
            "results": _as_written(rows.drop(columns=["cell", "cell_seconds"], errors="ignore").reset_index(drop=True)),
            "per_query": pq.reset_index(drop=True),
            "run": read_run_text(gzip.decompress(run_path.read_bytes()).decode("utf-8"), run_path),
            "seconds": float(rows["cell_seconds"].iloc[0]) if "cell_seconds" in rows.columns else 0.0,
        }
    return out


def _as_written(results: pd.DataFrame) -> pd.DataFrame:
    """Config columns read back from CSV as they were written: a column of whole numbers with gaps
    (``summary_chars`` of a baseline, ``seed``) holds ints and None again, not floats and NaN."""
    import pandas as pd

    out = results.copy()
    floats = {col for col, value in RunConfig().columns().items() if isinstance(value, float)}  # e.g. semantic_weight
    for col in out.columns:
        if col in METRICS or col == "k" or col in floats or not pd.api.types.is_float_dtype(out[col]):
            continue
        values = out[col].dropna()
        if (values == values.round()).all():  # also when every value is missing: None, as written
            out[col] = [None if pd.isna(v) else int(v) for v in out[col]]
    return out


def _write_run(path: Path, run: dict) -> None:
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_run(tmp, run)
        path.write_bytes(gzip.compress(tmp.read_bytes(), mtime=0))
        tmp.unlink()


def _write_tables(
    out_dir: Path, results: list[pd.DataFrame], per_query: list[pd.DataFrame], *, with_significance: bool
) -> pd.DataFrame:
    import pandas as pd

    table = pd.concat(results, ignore_index=True)
    # cell_seconds last: columns only some cells have (signals_*, summaries_*) then keep one order
    # whether a cell was computed now or read back from a published folder (byte-stable republishing)
    table = table[[c for c in table.columns if c != "cell_seconds"] + ["cell_seconds"]]
    table.to_csv(out_dir / "results.csv", index=False)
    pq_all = pd.concat(per_query, ignore_index=True)
    # mtime 0: republishing the same cells gives the same bytes (no churn in committed results)
    pq_all.to_csv(out_dir / "per_query.csv.gz", index=False, compression={"method": "gzip", "mtime": 0})
    if with_significance:
        significance(table, pq_all).to_csv(out_dir / "significance.csv", index=False)
    return table


def significance(table: pd.DataFrame, per_query: pd.DataFrame) -> pd.DataFrame:
    """Every pair of variants that share all other settings: paired permutation tests per metric and
    k (a variant with retrieval signals, ``…+…``, is paired with the plain variants only)."""
    import pandas as pd

    setting_cols = [
        c
        for c in RunConfig().columns()
        if c in table.columns and c not in VARIANT_COLUMNS and not c.startswith("summary_")
    ]
    cells = table.drop_duplicates("cell")
    plain = RunConfig().variant  # the default method without stages
    out = []
    for setting, group in cells.groupby(setting_cols, dropna=False):
        variants = group[["cell", "variant", "summary_chars"]].to_dict("records")
        for a, b in itertools.combinations(variants, 2):
            if plain not in (a["variant"], b["variant"]) and a["summary_chars"] != b["summary_chars"]:
                continue  # every variant is paired with the plain baseline; the others at the same summary length
            if "+" in a["variant"] and "+" in b["variant"]:
                continue  # methods with retrieval signals are tested against the plain variants only
            sub = per_query[per_query["cell"].isin([a["cell"], b["cell"]])]
            pairs = compare_methods(sub, a["cell"], b["cell"], key="cell")
            pairs.insert(0, "variant_b", b["variant"])
            pairs.insert(0, "variant_a", a["variant"])
            for col, val in zip(setting_cols, setting):
                pairs[col] = val
            out.append(pairs)
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()
