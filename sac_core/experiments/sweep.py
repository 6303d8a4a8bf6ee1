"""A grid of experiments, each cell cached on disk, so a sweep resumes after any interruption.

A sweep file (TOML) names a ``base`` configuration and one or more ``[[grid]]`` tables; each
grid is the product of its axes (``summary.<field>`` sets a SummaryConfig field, ``<plug-in>.<field>``
an option of a registered method or stage, e.g. ``prior.weight`` or ``within_doc.on``), and the
cells of all grids are run in order, duplicates once. An optional top-level
``reuse = ["../results/paper"]`` (relative to the sweep file) names published sweep folders whose
cells are taken as they are instead of recomputed (only cells whose id, hence every input, is the same)::

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

The outputs in ``out_dir`` are a sweep folder (:mod:`.cells`: results with intervals, per-query
metrics, significance, the cells' inputs and provenance, runs). A cell's id covers every input
that can change it (:mod:`.identity`): a reworded question or an edited document is a new cell.
"""

from __future__ import annotations

import itertools
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.data import load_benchmark
from ..engine.embedding import Embedders
from ..engine.progress import progress_bar
from ..engine.summaries import SummaryConfig, SummaryError
from .cells import CellCache, CellRecord, SweepFolder
from .config import RunConfig
from .evaluate import evaluate
from .executors import Executor, embed_ahead
from .identity import CellInputs, cell_inputs
from .plugins import OpenContext
from .provenance import current
from .settings import OPTION_PREFIX, SCOPES, SUMMARY_PREFIX
from .significance import PAIR_COLUMNS, compare_methods, holm

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


@dataclass(frozen=True)
class Sweep:
    name: str
    cells: tuple[RunConfig, ...]
    reuse: tuple[Path, ...] = ()  # published sweep folders whose cells count as cached (same cell id)


class SweepError(ValueError):
    pass


# What a setting's declared type asks of a TOML value: a test and the words of an error.
_KINDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "float": (lambda v: isinstance(v, int | float) and not isinstance(v, bool), "a number"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "tuple[int, ...]": (
        lambda v: isinstance(v, list) and all(_KINDS["int"][0](x) for x in v),
        "a list of whole numbers",
    ),
    "tuple[str, ...]": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings"),
}


def _coerce(name: str, value: object, cls: type) -> object:
    types = {f.name: str(f.type) for f in fields(cls)}
    if name not in types:
        raise SweepError(f"unknown setting {name!r}; known: {', '.join(types)}")
    kind = _KINDS.get(types[name].removesuffix(" | None"))
    if kind is not None and not kind[0](value):
        raise SweepError(f"{name} = {value!r}: not {kind[1]}")  # before a comparison fails on it ('>' on a str)
    if isinstance(value, list) and name in ("ks", "datasets"):
        return tuple(value)
    return value


def _apply(config: RunConfig, settings: dict[str, object], where: str) -> RunConfig:
    """``settings`` on top of ``config``: RunConfig fields, ``summary.<field>`` and
    ``<plug-in>.<field>`` options of registered methods and stages."""
    summary_changes = {k[len("summary.") :]: v for k, v in settings.items() if k.startswith("summary.")}
    rest = {k: v for k, v in settings.items() if not k.startswith("summary.")}
    options = {k: v for k, v in rest.items() if "." in k}
    run_changes = {k: v for k, v in rest.items() if "." not in k}
    try:
        summary = replace(config.summary, **{k: _coerce(k, v, SummaryConfig) for k, v in summary_changes.items()})  # type: ignore[arg-type]
        run = {k: _coerce(k, v, RunConfig) for k, v in run_changes.items()}
        if options:
            run["options"] = {**dict(config.options), **options}
        return replace(config, summary=summary, **run)  # type: ignore[arg-type]
    except (SweepError, ValueError, TypeError) as e:
        raise SweepError(f"{where}: {e}") from None


def load_sweep(path: Path) -> Sweep:
    """The sweep file at ``path``; a :class:`SweepError` naming it (and the table and setting) when it
    is missing, not UTF-8, not TOML, empty or holds a setting of the wrong kind."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SweepError(f"{path}: sweep file not found") from None
    except UnicodeDecodeError as e:
        raise SweepError(f"{path}: not UTF-8 ({e.reason} at byte {e.start:,})") from None
    except OSError as e:
        raise SweepError(f"{path}: cannot be read ({e.strerror or type(e).__name__})") from None
    except tomllib.TOMLDecodeError as e:
        raise SweepError(f"{path}: invalid TOML: {e}") from None
    if not raw.get("base") and not raw.get("grid"):
        raise SweepError(f"{path}: no [base] and no [[grid]]: an empty sweep file")
    if not isinstance(raw.get("base", {}), dict):
        raise SweepError(f"{path}: 'base' must be a table ([base]), got {type(raw['base']).__name__}")
    base = _apply(RunConfig(), raw.get("base", {}), f"{path} [base]")
    grids = raw.get("grid") or [{}]
    grids = [grids] if isinstance(grids, dict) else grids  # one [grid] table: a single grid, as [[grid]]
    if not isinstance(grids, list) or not all(isinstance(g, dict) for g in grids):
        raise SweepError(f"{path}: 'grid' must be tables ([[grid]] sections of 'setting = [values]')")
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


def cell_id(config: RunConfig, ctx: OpenContext) -> str:
    """Stable id of a cell: a hash of every input of ``config`` on ``ctx.bench`` (:mod:`.identity`)."""
    return cell_inputs(config, ctx).id


Missing = Callable[[RunConfig, str], None]  # told of a cell not written: its config and why
LOCAL = Executor()  # in this process


def run_sweep(
    sweep: Sweep,
    data_dir: Path,
    cache_dir: Path,
    out_dir: Path,
    *,
    progress: bool = True,
    cached_only: bool = False,
    on_missing: Missing | None = None,
    executor: Executor = LOCAL,
) -> pd.DataFrame:
    """Run (or read from the cache) every cell and return the results table.

    Every cell's id is computed first. When some cells are new, the folder is written with the
    known ones, then each new cell is appended as soon as it is computed (:meth:`SweepFolder.append`),
    so an interrupted sweep still leaves valid tables of the cells it finished; at the end every
    file is written once in the sweep's order. ``cached_only``: skip cells not yet computed (to
    publish a partial sweep with its significance table); ``on_missing`` is told of each skipped
    cell and why (not computed yet, or published before on other inputs: stale). Cells already
    published in ``out_dir`` or in the sweep's ``reuse`` folders count as cached when their id,
    hence every input, is the same: extending a committed grid computes only the new cells, even on
    a machine without the cache; a published cell of other inputs is never reused, it is recomputed.
    Before the first new cell is scored, every text the new cells embed is embedded, each once, in
    this process or on Ray (``executor``: :func:`.executors.embed_ahead`), with progress and time
    left for all of them; the cells then read their vectors from the cache, so their ids and results
    are the same wherever the embedding ran.
    """
    folder = SweepFolder(out_dir)
    with CellCache(cache_dir) as cache:
        found = _identify(sweep, data_dir, cache_dir, cache, folder, cached_only=cached_only, progress=progress)
        for cell in found:
            if cell.record is None and cell.why:
                _tell(on_missing, cell.config, cell.why)
        todo = [cell for cell in found if cell.record is None and not cell.why]
        if todo:
            folder.start([cell.record for cell in found if cell.record is not None])
            desc = f"sweep {sweep.name}: embedding for {len(todo)} new cells, then scoring them"
            embed_ahead([(cell.config, cell.ctx) for cell in todo], executor, progress=progress, desc=desc)
        bar = progress_bar(todo, desc=f"sweep {sweep.name}: scoring", unit="cell", disable=not progress)
        for cell in bar:
            if cell.inputs is None:  # never: a cell whose inputs are unknown is skipped or has raised
                continue
            bar.set_postfix(variant=cell.config.variant, chunk=cell.config.chunk_size, w=cell.config.semantic_weight)
            cell.record = cache.get(cell.inputs.id) or evaluate_cell(cell.config, cell.ctx, cell.inputs)
            cache.put(cell.record)
            folder.append(cell.record)
    records = [cell.record for cell in found if cell.record is not None]
    if not records:
        raise SweepError(f"sweep {sweep.name}: no cell is cached yet")
    table, per_query = folder.write(records)
    folder.write_significance(significance(table, per_query))
    return table


@dataclass
class _Cell:
    """A cell of a sweep being run: its inputs (None: unknown), its record once known, or why it
    is skipped (``--cached-only``)."""

    config: RunConfig
    ctx: OpenContext
    inputs: CellInputs | None = None
    record: CellRecord | None = None
    why: str = ""


def _identify(
    sweep: Sweep, data_dir: Path, cache_dir: Path, cache: CellCache, folder: SweepFolder, *, cached_only: bool,
    progress: bool,
) -> list[_Cell]:  # fmt: skip
    """Every cell of ``sweep`` with its inputs and, when known (:func:`_known`), its record."""
    own = folder.read_cells()
    published = {cid: cell for path in sweep.reuse for cid, cell in SweepFolder(path).read_cells().items()} | own
    contexts: dict[tuple, OpenContext] = {}
    embedders = Embedders(cache_dir)
    out = []
    for config in sweep.cells:
        key = (config.protocol, config.datasets, config.seed)
        if key not in contexts:
            bench = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
            contexts[key] = OpenContext(bench, data_dir, cache_dir, embedders, progress=progress)
        cell = _Cell(config, contexts[key])
        try:
            cell.inputs = cell_inputs(config, cell.ctx, cached_only=cached_only)
        except SummaryError as e:
            if not cached_only:
                raise
            cell.why = f"not computed: {e}"
        if cell.inputs is not None:
            cell.record = _known(cell.inputs.id, cache, published, own)
            if cell.record is None and cached_only:
                cell.why = stale_reason(cell.inputs, published.values()) or "not computed yet"
        out.append(cell)
    return out


def _known(
    cid: str, cache: CellCache, published: dict[str, CellRecord], own: dict[str, CellRecord]
) -> CellRecord | None:
    """Cell ``cid`` as the output folder published it (so rewriting a committed folder gives it
    back byte for byte, whatever another sweep left in the cache), else from the cache, else from a
    reused folder (then cached too), else None."""
    record = cache.get(cid)
    if cid in own:
        if record is None:
            cache.put(own[cid])
        return own[cid]
    if record is None and cid in published:
        record = published[cid]
        cache.put(record)
    return record


def _tell(on_missing: Missing | None, config: RunConfig, why: str) -> None:
    if on_missing is not None:
        on_missing(config, why)


def stale_reason(inputs: CellInputs, published: object) -> str | None:
    """When a published cell has the same settings as ``inputs`` but another id: which inputs
    differ (``stale: data, summaries``), else None."""
    for record in published:  # type: ignore[attr-defined]
        other = record.inputs.payload
        if other.get("config") == inputs.payload.get("config") and record.id != inputs.id:
            changed = [k for k in inputs.payload if other.get(k) != inputs.payload.get(k)]
            return f"stale: published cell {record.id} was made from other {', '.join(changed) or 'inputs'}"
    return None


def evaluate_cell(config: RunConfig, ctx: OpenContext, inputs: CellInputs | None = None) -> CellRecord:
    """``config`` evaluated on ``ctx.bench``, as the cell cache holds it (with its inputs, computed
    here when not given, and the provenance of this process's code)."""
    inputs = inputs or cell_inputs(config, ctx)
    t0 = time.perf_counter()
    ev = evaluate(config, ctx)
    return CellRecord(ev.results, ev.per_query, ev.run, time.perf_counter() - t0, inputs, current(), config)


def significance(table: pd.DataFrame, per_query: pd.DataFrame) -> pd.DataFrame:
    """Every pair of variants that share the same data, index and scoring settings but their method,
    summaries and options: paired permutation tests per metric and k with the mean difference's
    95 % interval. A variant with stages (the ``stages`` column) is paired with the variants
    without stages only; two variants with different summary lengths only when one of them is
    the plain default method. ``p_holm``: the p-values Holm-corrected over the sweep's family of
    comparisons at each (metric, k)."""
    import pandas as pd

    fixed = set(RunConfig().scoped(*SCOPES)) - {"method"}
    setting_cols = [c for c in table.columns if c in fixed and not c.startswith(SUMMARY_PREFIX)]
    cells = table.drop_duplicates("cell")
    plain = RunConfig().method  # the default method, without options or stages
    out = []
    for setting, group in cells.groupby(setting_cols, dropna=False):
        variants = group.to_dict("records")
        for a, b in itertools.combinations(variants, 2):
            if not (_plain(a, plain) or _plain(b, plain)) and not _same(a["summary_chars"], b["summary_chars"]):
                continue  # every variant is paired with the plain baseline; the others at the same summary length
            if _staged(a) and _staged(b):
                continue  # methods with stages are tested against the variants without stages only
            sub = per_query[per_query["cell"].isin([a["cell"], b["cell"]])]
            pairs = compare_methods(sub, a["cell"], b["cell"], key="cell")
            pairs.insert(0, "variant_b", b["variant"])
            pairs.insert(0, "variant_a", a["variant"])
            for col, val in zip(setting_cols, setting):
                pairs[col] = val
            out.append(pairs)
    if not out:  # no pairs (one variant per setting): the header alone
        return pd.DataFrame(columns=["variant_a", "variant_b", *PAIR_COLUMNS, *setting_cols, "p_holm"])
    table = pd.concat(out, ignore_index=True)
    table["p_holm"] = table["p_value"]
    for _, rows in table.groupby(["metric", "k"]):
        table.loc[rows.index, "p_holm"] = holm(rows["p_value"].to_numpy())
    return table


def _same(a: object, b: object) -> bool:
    """Two summary lengths of result rows are the same: equal, or both missing (neither reads summaries)."""
    return a == b or (a != a and b != b)


def _staged(row: dict[str, object]) -> bool:
    """Whether a results row's configuration has active stages (its ``stages`` column)."""
    stages = row.get("stages")
    return isinstance(stages, str) and bool(stages)


def _plain(row: dict[str, object], method: str) -> bool:
    """Whether a results row is the default method without options or stages."""
    options = [k for k, v in row.items() if k.startswith(OPTION_PREFIX) and v == v and v is not None]
    return row.get("method") == method and not _staged(row) and not options
