"""Queries a presenter can show, picked from committed per-query results: for a method against the
baseline, the *typical* query (its change closest to the median change), the *biggest gain* and the
*biggest loss*, by DRM or recall at the page's k. Nothing is chosen by hand: the choices follow from
``results/<sweep>/per_query.csv.gz`` (the cell of each column found by its settings), and without a
sweep that ran the page's setting on the page's data there are none. A folder whose tables do not
parse (a column missing, text where a metric belongs) is named and skipped; a value that is not a
fraction in [0, 1] (``-inf``, ``1e300``, NaN) is never picked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.data import Benchmark
from ..engine.data import read_table as read_csv_table
from ..experiments import Column, RunConfig, baseline_column
from .curves import (
    DEMO_SWEEPS,
    PREFERRED_SWEEPS,
    SweepFolder,
    data_check,
    list_sweeps,
    load_results,
    shown_path,
    sweep_data,
)
from .demo_tables import NEEDED as NEEDED
from .demo_tables import PICK_METRICS as PICK_METRICS
from .demo_tables import checked as checked
from .selection import Selection

LOWER_IS_BETTER = frozenset({"drm"})
KINDS: dict[str, str] = {"typical": "typical query", "gain": "biggest gain", "loss": "biggest loss"}
# The settings a results row must share with a column's configuration to be that column's cell.
SETTINGS: tuple[str, ...] = (
    "variant",
    "chunker",
    "chunk_size",
    "chunk_overlap",
    "semantic_weight",
    "model",
    "protocol",
    "metric_mode",
    "fusion_depth",
)
PER_QUERY_COLUMNS = ("cell", "query_id", "k", *PICK_METRICS)


# What each metric counts, in words a lawyer reads (at the page's k): the value goes from the baseline's to the method's.
PICK_WORDS: dict[str, str] = {"drm": "chunks from a wrong document", "recall": "gold text found"}


@dataclass(frozen=True)
class Pick:
    """One query to show: what kind of pick it is, for which method and metric, and ``change``, the
    method's value minus the baseline's (a fraction: 0.25 = 25 points); ``before`` and ``after``
    the baseline's and the method's values (fractions) when known."""

    kind: str  # a key of KINDS
    method: str  # the column's display name
    metric: str  # a key of PICK_METRICS
    k: int  # the k of the per-query rows the change was read at
    query_id: str
    change: float
    before: float | None = None
    after: float | None = None

    def label(self) -> str:
        """E.g. "typical query for SAC generic: chunks from a wrong document in the top 4, 75 % → 50 %
        (the median change)"; without the values, e.g. "…: DRM@4 −25.0 points, the median"."""
        text = f"{KINDS[self.kind]} for {self.method}: {self.change_text()}"
        if self.kind != "typical":
            return text
        return text + (" (the median change)" if self.before is not None else ", the median")

    def change_text(self) -> str:
        """E.g. "chunks from a wrong document in the top 4, 100 % → 0 %" (the baseline's value → the
        method's: a loss reads as a rise of the wrong-document share, never as "+100 points" of a
        "loss"); without the values, e.g. "DRM@4 −12.5 points"."""
        if self.before is not None and self.after is not None:
            return f"{PICK_WORDS[self.metric]} in the top {self.k}, {_pct(self.before)} → {_pct(self.after)}"
        points = 100 * self.change
        sign = "±" if abs(points) < 0.05 else "+" if points > 0 else "−"
        return f"{PICK_METRICS[self.metric]}@{self.k} {sign}{abs(points):.1f} points"


def _pct(fraction: float) -> str:
    return f"{100 * fraction:.0f} %"


@dataclass(frozen=True)
class SweepCells:
    """The committed cells of a page's columns: the sweep's name, its per-query rows of those cells
    (only queries of the page's benchmark), the baseline's cell and each other column's cell."""

    sweep: str  # the folder's name, or the folders' names joined by "and"
    per_query: pd.DataFrame
    baseline: str
    methods: Mapping[str, str]  # column name → cell id
    baselines: Mapping[str, str] = field(
        default_factory=dict
    )  # column name → its baseline's cell, when not ``baseline``
    # :func:`picks` per (k, metrics), once per instance: the server keeps one per data and columns
    # (``caches.demo_cells``) and every new session asks for its picks twice.
    _picks: dict[tuple, tuple] = field(default_factory=dict, init=False, compare=False, repr=False)

    def baseline_of(self, method: str) -> str:
        """The baseline cell ``method`` is measured against: the one of the sweep its cell comes from."""
        return self.baselines.get(method, self.baseline)


@dataclass(frozen=True)
class Lookup:
    """What a page found: the cells of its columns (None: no sweep ran them on its data) and the
    folders skipped on the way because a table did not parse, one line each naming the file."""

    cells: SweepCells | None
    skipped: tuple[str, ...] = ()


def _same(value: object, wanted: object) -> bool:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return wanted is None
    if isinstance(wanted, int | float) and not isinstance(wanted, bool):
        try:
            return abs(float(value) - float(wanted)) < 1e-9  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False
    return str(value) == str(wanted)


def cell_for(results: pd.DataFrame, config: RunConfig, bench: Benchmark) -> str | None:
    """The id of the cell of ``results`` that ran ``config``'s setting (:data:`SETTINGS`) on ``bench``
    (the same datasets, numbers of queries and documents, and data digest when the table has one), or None."""
    wanted = config.columns()
    for setting in ("variant", "protocol"):  # text: another method's or protocol's rows go first, without a groupby
        if setting in results.columns and isinstance(wanted.get(setting), str):
            results = results[results[setting].astype(str) == wanted[setting]]
    for cid, rows in results.groupby("cell", sort=False):
        first = rows.iloc[0]
        if not all(_same(first[c], wanted.get(c)) for c in SETTINGS if c in rows.columns):
            continue
        if sweep_data(rows).matches(bench) and data_check(rows, bench) is None:
            return str(cid)
    return None


def search_order(folders: Sequence[SweepFolder]) -> list[SweepFolder]:
    """The preferred sweeps first (:data:`~.curves.PREFERRED_SWEEPS`, then the demo's), then the others by name."""
    preferred = [*PREFERRED_SWEEPS, *DEMO_SWEEPS]
    return sorted(folders, key=lambda f: (preferred.index(f.name) if f.name in preferred else len(preferred), f.name))


def sweep_cells(roots: Sequence[Path], columns: Sequence[Column], bench: Benchmark) -> SweepCells | None:
    """The committed cells of ``columns`` on ``bench`` in the sweep folders under ``roots`` (preferred
    sweeps first), or None: no baseline column, or no sweep ran this setting on this data."""
    return look_up(roots, columns, bench).cells


def look_up(roots: Sequence[Path], columns: Sequence[Column], bench: Benchmark) -> Lookup:
    """:func:`sweep_cells` with the folders skipped on the way (a table that does not parse)."""
    baseline = baseline_column(columns)
    if baseline is None:
        return Lookup(None)
    return find(search_order(list_sweeps(roots)), baseline, columns, bench)


def find_cells(
    folders: Sequence[SweepFolder], baseline: Column, columns: Sequence[Column], bench: Benchmark
) -> SweepCells | None:
    """The first folder (in the order given) with a per-query table and a cell for ``baseline`` and for
    at least one of ``columns`` on ``bench``; None when there is none (an unreadable table is skipped)."""
    return find(folders, baseline, columns, bench).cells


def find(folders: Sequence[SweepFolder], baseline: Column, columns: Sequence[Column], bench: Benchmark) -> Lookup:
    """:func:`find_cells`, naming each folder skipped because a table of it does not parse. A column no
    earlier folder ran is looked for in the next ones, measured against the baseline of its own sweep
    or, when that sweep has none, of the first folder that has one: the same setting on the same data
    (checked by :func:`cell_for`). The recommended method and SAC may come from two sweeps."""
    skipped: list[str] = []
    found: list[SweepCells] = []
    wanted = [c for c in columns if c != baseline]
    for folder in folders:
        has_baseline = any(c.baseline for c in found)
        if has_baseline and not wanted:
            break
        if not folder.per_query.is_file() or not folder.results.is_file():
            continue
        try:
            cells = _cells_in(folder, baseline, wanted, bench)
        except (OSError, ValueError, KeyError) as e:
            skipped.append(_skipped(folder, e))
            continue
        if cells is not None and (cells.methods or not has_baseline):
            found.append(cells)
            wanted = [c for c in wanted if c.name not in cells.methods]
    return Lookup(merged(found), tuple(skipped))


def merged(found: Sequence[SweepCells]) -> SweepCells | None:
    """The cells of several sweeps as one (cell ids prefixed by their sweep's name: two sweeps may hold
    the same cell), each method with the baseline of its own sweep (else of the first sweep that has
    one); None without a baseline or a method, as is for one sweep."""
    first = next((c for c in found if c.baseline), None)
    used = [c for c in found if c.methods or c is first]
    if first is None or not any(c.methods for c in used):
        return None
    if len(used) == 1:
        return used[0]
    tables, methods, baselines = [], {}, {}
    for cells in used:
        tables.append(cells.per_query.assign(cell=cells.sweep + "/" + cells.per_query["cell"]))
        for method, cell in cells.methods.items():
            methods[method] = f"{cells.sweep}/{cell}"
            own = cells if cells.baseline else first
            baselines[method] = f"{own.sweep}/{own.baseline}"
    table = pd.concat(tables, ignore_index=True)
    names = " and ".join(c.sweep for c in used)
    return SweepCells(names, table, f"{first.sweep}/{first.baseline}", methods, baselines)


def _skipped(folder: SweepFolder, error: Exception) -> str:
    """One line for a folder skipped because of ``error``, naming it without a path of the server."""
    if isinstance(error, OSError):
        return f"results folder {folder.name}: cannot be read ({error.strerror or type(error).__name__}), skipped"
    if isinstance(error, KeyError):
        return f"results folder {folder.name}: no column {error}, skipped"
    return f"{error} — the results folder {folder.name} is skipped"  # these name the file, relatively


def _cells_in(folder: SweepFolder, baseline: Column, columns: Sequence[Column], bench: Benchmark) -> SweepCells | None:
    """The folder's cells of the ``baseline`` and ``columns`` on ``bench``: None when it has neither;
    its ``baseline`` is "" when it has none, its ``methods`` empty when it has only the baseline."""
    results = load_results(folder.results)
    base = cell_for(results, baseline.config, bench)
    methods = {c.name: cid for c in columns if c != baseline and (cid := cell_for(results, c.config, bench))}
    if base is None and not methods:
        return None
    name = shown_path(folder.per_query)  # only the columns the picks read: a third of the parsing
    table = checked(read_csv_table(folder.per_query, name=name, usecols=lambda c: c in PER_QUERY_COLUMNS), name)
    keep = table["cell"].isin([base, *methods.values()]) & table["query_id"].isin(bench_ids(bench))
    kept = [c for c in PER_QUERY_COLUMNS if c in table.columns]
    return SweepCells(folder.name, table.loc[keep, kept].reset_index(drop=True), base or "", methods)


def bench_ids(bench: Benchmark) -> list[str]:
    return [q.query_id for q in bench.queries]


def nearest_k(ks: Sequence[int], k: int) -> int:
    """``k`` when the per-query rows have it, else the nearest k they have (the smaller on a tie)."""
    return min(ks, key=lambda x: (abs(x - k), x))


def values(per_query: pd.DataFrame, cell: str, metric: str, k: int) -> pd.Series:
    """Per query id (in the table's order): ``cell``'s ``metric@k``."""
    rows = per_query[(per_query["k"] == k) & (per_query["cell"] == cell)]
    return rows.drop_duplicates("query_id").set_index("query_id")[metric]


def changes(per_query: pd.DataFrame, base: str, cell: str, metric: str, k: int) -> pd.Series:
    """Per query id (in the table's order): ``cell``'s ``metric@k`` minus ``base``'s (queries both ran)."""
    a, b = values(per_query, base, metric, k), values(per_query, cell, metric, k)
    both = [q for q in b.index if q in a.index]
    return (b[both] - a[both]).dropna()


def choose(change: pd.Series, metric: str, worse: pd.Series | None = None) -> dict[str, tuple[str, float]]:
    """``kind → (query id, change)``: the query whose gain is closest to the median gain, the biggest
    gain when one gains, the biggest loss when one loses. A gain is a change for the better: a lower
    DRM, a higher recall. Among queries equally close to the median, the one with the lowest
    ``worse`` (by query id: what makes it a poorer example), then the first in the series' order."""
    if change.empty:
        return {}
    gain = -change if metric in LOWER_IS_BETTER else change
    distance = (gain - float(gain.median())).abs()
    closest = distance[distance == distance.min()].index
    tie = pd.Series(0.0, index=closest) if worse is None else worse.reindex(closest).fillna(np.inf)
    out = {"typical": str(tie.index[int(np.argmin(tie.to_numpy()))])}
    if gain.max() > 0:
        out["gain"] = str(gain.idxmax())
    if gain.min() < 0:
        out["loss"] = str(gain.idxmin())
    return {kind: (qid, float(change[qid])) for kind, qid in out.items()}


def picks(cells: SweepCells, k: int, metrics: Sequence[str] = tuple(PICK_METRICS)) -> tuple[Pick, ...]:
    """Every pick for every method column with a cell, by ``metrics`` at ``k`` (or the nearest k the
    sweep has): the typical query, the biggest gain and the biggest loss, in that order. Each pick
    carries the baseline's and the method's values. The typical query is the clearest of those at the
    median change: where the other methods lose least, then where the method's own value is best,
    then (by DRM) where the method also finds the gold text (the right document but none of its gold
    text reads as a failure on stage) and where the baseline's first chunk is from a wrong document
    and the method's is not."""
    key = (k, tuple(metrics))
    if key not in cells._picks:
        cells._picks[key] = _picks(cells, k, metrics)
    return cells._picks[key]


def _picks(cells: SweepCells, k: int, metrics: Sequence[str]) -> tuple[Pick, ...]:
    ks = sorted(int(x) for x in cells.per_query["k"].unique())
    if not ks:
        return ()
    at = nearest_k(ks, k)
    out = []
    for metric in metrics:
        if metric not in cells.per_query.columns:
            continue
        found = {
            m: changes(cells.per_query, cells.baseline_of(m), cell, metric, at) for m, cell in cells.methods.items()
        }
        for method, cell in cells.methods.items():
            before = values(cells.per_query, cells.baseline_of(method), metric, at)
            after = values(cells.per_query, cell, metric, at)
            worse = _worse(found, method, after, metric)
            if metric in LOWER_IS_BETTER and 1 in ks:  # the first chunk, what an answer quotes first
                first = values(cells.per_query, cell, metric, 1) - values(
                    cells.per_query, cells.baseline_of(method), metric, 1
                )
                worse = worse.add(0.1 * first, fill_value=0.0)
            if metric in LOWER_IS_BETTER and "recall" in cells.per_query.columns:  # right document, gold missed
                missed = 1.0 - values(cells.per_query, cell, "recall", at)
                worse = worse.add(0.2 * missed, fill_value=0.0)
            chosen = choose(found[method], metric, worse)
            out += [
                Pick(kind, method, metric, at, qid, change, float(before[qid]), float(after[qid]))
                for kind in KINDS
                if kind in chosen
                for qid, change in [chosen[kind]]
            ]
    return tuple(out)


def _worse(found: Mapping[str, pd.Series], method: str, after: pd.Series, metric: str) -> pd.Series:
    """Per query: how many other methods lose there (whole units), plus how far the method's own value
    is from the best (a fraction below 1): a typical query where the others gain too and the method
    is right reads as the point it makes."""
    sign = 1.0 if metric in LOWER_IS_BETTER else -1.0
    losses = sum(((sign * change) > 0).astype(float) for m, change in found.items() if m != method)
    own = after if metric in LOWER_IS_BETTER else 1.0 - after
    return (losses + 0.5 * own).dropna() if isinstance(losses, pd.Series) else 0.5 * own


def default_pick(found: Sequence[Pick]) -> Pick | None:
    """The query a page opens on: the typical query by DRM of the method whose typical change is the
    largest gain (the typical effect of the method that fixes DRM), else the first typical one (None
    without picks)."""
    typical = [p for p in found if p.kind == "typical" and p.metric == "drm"]
    gaining = [p for p in typical if p.change < 0]
    return min(gaining, key=lambda p: p.change) if gaining else next(iter(typical), None)


def opening(chosen: Selection, found: Sequence[Pick]) -> Selection:
    """A session's first selection: the URL's when it names a query or text, else the typical query
    of :func:`default_pick` (unchanged when there is none)."""
    typical = default_pick(found)
    if chosen.query_id or chosen.text or typical is None:
        return chosen
    return replace(chosen, query_id=typical.query_id)


def describe(query_id: str | None, found: Sequence[Pick]) -> list[str]:
    """What this query is among the picks, one phrase per group of methods with the same picks, e.g.
    "typical query and biggest gain for SAC generic and SAC expert (DRM@4 −50.0 points, recall@4
    +100.0 points)"; empty for free text or a query no pick chose."""
    per_method: dict[str, list[Pick]] = {}
    for p in found:
        if query_id is not None and p.query_id == query_id:
            per_method.setdefault(p.method, []).append(p)
    together: dict[tuple, list[str]] = {}
    for method, mine in per_method.items():
        together.setdefault(tuple((p.kind, p.metric, p.k, p.change) for p in mine), []).append(method)
    return [_phrase(per_method[methods[0]], methods) for methods in together.values()]


def _phrase(mine: Sequence[Pick], methods: Sequence[str]) -> str:
    """The picks of one group of methods: its kinds once when every metric chose this query for the
    same kinds, else each kind with the metric that chose it."""
    kinds_of: dict[str, list[str]] = {}  # change text → the kinds it chose this query for
    for p in mine:
        kinds_of.setdefault(p.change_text(), []).append(KINDS[p.kind])
    names = " and ".join(methods)
    if len({tuple(kinds) for kinds in kinds_of.values()}) == 1:
        kinds = " and ".join(next(iter(kinds_of.values())))
        return f"{kinds} for {names} ({', '.join(kinds_of)})"
    return " and ".join(f"{' and '.join(kinds)} by {change}" for change, kinds in kinds_of.items()) + f" for {names}"
