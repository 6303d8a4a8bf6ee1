"""The Curves page's engine: read sweep results, filter them, order and average them, find the
queries two configurations disagree on; the figures and tables drawn from them are :mod:`.curve_views`.

A sweep folder (written by :func:`sac_core.experiments.sweep.run_sweep`) holds ``results.csv`` and, when present,
``per_query.csv.gz`` and ``significance.csv``. Folders are looked up under the results root
(``$SAC_RESULTS_DIR``, default ``results/``) and, for sweeps the dashboard ran on the demo corpus, in the store.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..engine import store
from ..engine.data import available_datasets as available_datasets
from ..engine.data import csv_bytes
from ..engine.data import read_table as read_csv_table
from ..experiments import METHODS, cells, flipped_queries
from ..experiments import paper as paper
from ..experiments.report import cell_intervals
from .curve_data import SweepData as SweepData
from .curve_data import data_check as data_check
from .curve_data import protocol_note as protocol_note
from .curve_data import sweep_data as sweep_data
from .demo_sweep import DEMO_SWEEP as DEMO_SWEEP
from .demo_sweep import demo_sweep as demo_sweep
from .demo_sweep import run_with_progress as run_with_progress
from .origin import UNIDENTIFIED as UNIDENTIFIED
from .origin import provenance as provenance

RESULTS_ENV = "SAC_RESULTS_DIR"
# The committed sweeps the page opens on, the first one present: the headline sweep (Baseline, SAC generic,
# SAC expert and Recommended on lbr-mini, sweeps/headline-lbr-mini.toml; issue 45), else the full grid.
PREFERRED_SWEEPS: tuple[str, ...] = ("headline-lbr-mini", "lbr-mini-grid", "paper")
DEMO_SWEEPS: tuple[str, ...] = ("demo-grid", "demo")  # on the demo corpus: a sweep of the demo first
METRICS: tuple[str, ...] = ("drm", "precision", "recall")
METRIC_LABELS = {"drm": "DRM", "precision": "precision", "recall": "recall", "hit": "Hit", "mrr": "MRR", "ndcg": "nDCG"}
# Settings a user picks one value of; the first four are always offered, the rest only when they vary
# within the chosen setting (see selector_options).
SELECTORS: tuple[str, ...] = (
    "chunk_size",
    "summary_chars",
    "semantic_weight",
    "model",
    "protocol",
    "chunk_overlap",
    "chunker",
    "metric_mode",
    "fusion_depth",
    "seed",
    "datasets",
    "summary_model",
    "backend",
)
MAIN_SELECTORS = SELECTORS[:4]
# The column that keys a configuration on the page (:mod:`.curve_entries`): its variant, then the
# settings that tell it apart from other cells of that variant in the chosen setting.
ENTRY = "entry"
PALETTE = ("#6b7280", "#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#db2777", "#65a30d", "#4f46e5")


def results_root() -> Path:
    """``$SAC_RESULTS_DIR`` or ``results``."""
    return Path(os.environ.get(RESULTS_ENV, "results"))


def demo_results_root(cache_dir: Path) -> Path:
    return store.folder(cache_dir, "demo results")


@dataclass(frozen=True)
class SweepFolder:
    """A folder of results: a sweep's ``results.csv``, or loose ``sac evaluate --out`` tables
    (``*.csv`` with the results columns; each file is then its own cell)."""

    name: str
    path: Path
    tables: tuple[Path, ...] = ()

    @property
    def results(self) -> Path:
        return cells.SweepFolder(self.path).results

    @property
    def per_query(self) -> Path:
        return cells.SweepFolder(self.path).per_query

    @property
    def significance(self) -> Path:
        return cells.SweepFolder(self.path).significance


REQUIRED = ("dataset", "variant", "k", *METRICS)


def _is_results_table(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as f:
            header = f.readline().strip().split(",")
    except (OSError, UnicodeDecodeError):
        return False
    return all(col in header for col in REQUIRED)


def _folder(path: Path) -> SweepFolder | None:
    if cells.SweepFolder(path).results.is_file():
        return SweepFolder(path.name, path, (cells.SweepFolder(path).results,))
    loose = tuple(p for p in sorted(path.glob("*.csv")) if _is_results_table(p))
    return SweepFolder(path.name, path, loose) if loose else None


def list_sweeps(roots: Sequence[Path]) -> list[SweepFolder]:
    """Result folders ``<root>/<name>/`` (a root that itself is one counts too), by name."""
    found: dict[Path, SweepFolder] = {}
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            continue
        for candidate in (root, *sorted(p for p in root.iterdir() if p.is_dir())):
            folder = _folder(candidate)
            if folder is not None:
                found.setdefault(candidate.resolve(), folder)
    return sorted(found.values(), key=lambda s: (s.name, str(s.path)))


def sweep_label(folder: SweepFolder, made_here: Path) -> str:
    """A sweep folder as the page lists it, without a path of the server: its name, "made in the
    dashboard" when it lies under ``made_here`` (``<cache>/results``: the demo sweep, imported runs),
    and "loose tables" when it has no ``results.csv``."""
    notes = []
    if Path(made_here).resolve() in Path(folder.path).resolve().parents:
        notes.append("made in the dashboard")
    if not folder.results.is_file():
        notes.append("loose tables")
    return f"{folder.name} ({', '.join(notes)})" if notes else folder.name


def default_sweep(sweeps: Sequence[SweepFolder], preferred: Sequence[str] = PREFERRED_SWEEPS) -> int:
    """Index of the sweep to show first: the first of ``preferred`` present, else the first one."""
    names = [s.name for s in sweeps]
    return next((names.index(n) for n in preferred if n in names), 0)


def shown_path(path: Path) -> str:
    """A file of a results folder as messages name it: ``<folder>/<file>``, never a server path."""
    return f"{Path(path).parent.name}/{Path(path).name}"


def read_table(path: Path) -> pd.DataFrame:
    """A CSV table of a sweep folder (``.gz`` unpacked); a file that is not UTF-8 or not CSV is a
    ValueError naming it by :func:`shown_path` (where a byte is not UTF-8: its offset in the file)."""
    return read_csv_table(path, name=shown_path(path))


def load_results(path: Path, cell: str | None = None) -> pd.DataFrame:
    """A results table; ``summary_chars`` as nullable integers (empty for the baseline). Without a
    ``cell`` column, ``cell`` (default: the variant) names the run."""
    df = read_table(path)
    missing = set(REQUIRED) - set(df.columns)
    if missing:
        raise ValueError(f"{shown_path(path)}: not a sweep results table (missing {', '.join(sorted(missing))})")
    if "summary_chars" in df.columns:
        df["summary_chars"] = pd.to_numeric(df["summary_chars"], errors="coerce").astype("Int64")
    if "cell" not in df.columns:
        df.insert(0, "cell", cell if cell is not None else df["variant"])
    return df


def load_folder(folder: SweepFolder) -> pd.DataFrame:
    """All tables of a folder as one (loose files: each file's stem is its cell)."""
    if len(folder.tables) == 1 and folder.tables[0] == folder.results:
        return load_results(folder.tables[0])
    return pd.concat([load_results(p, cell=p.stem) for p in folder.tables], ignore_index=True)


def _values(series: pd.Series) -> list:
    values = series.dropna().unique().tolist()
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=str)


def selector_options(df: pd.DataFrame, choices: Mapping[str, object] | None = None) -> dict[str, list]:
    """Per selector column, its distinct values.

    Without ``choices``: the main selectors, always offered. With ``choices`` (the main ones):
    the other selectors that still vary among the rows of that setting. A column that only
    varies *between* settings (e.g. ``backend`` when chunk 500 ran through torch and chunk 800
    through ONNX) is then never offered, so it cannot hide a setting's rows.
    """
    if choices is None:
        return {col: _values(df[col]) for col in MAIN_SELECTORS if col in df.columns}
    rows = select(df, choices)
    out = {}
    for col in SELECTORS[len(MAIN_SELECTORS) :]:
        if col in rows.columns and len(values := _values(rows[col])) > 1:
            out[col] = values
    return out


def default_choices(options: Mapping[str, list]) -> dict[str, object]:
    """The paper's main setting when available (chunk 500, 150 characters, dense), else the first value."""
    preferred = {"chunk_size": 500, "summary_chars": 150, "semantic_weight": 1.0}
    out = {}
    for col, values in options.items():
        if not values:
            continue
        want = preferred.get(col)
        out[col] = want if want in values else values[0]
    return out


def matches(series: pd.Series, value: object) -> pd.Series:
    """Where ``series`` equals ``value`` (numbers within 1e-9: a weight read as 0.5 or 0.50000001)."""
    if isinstance(value, float) or (isinstance(value, int) and pd.api.types.is_float_dtype(series)):
        return (series.astype(float) - float(value)).abs() < 1e-9
    return series == value


def select(
    df: pd.DataFrame,
    choices: Mapping[str, object],
    variants: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Rows of one setting: every chosen column equals its value, except that a baseline row
    (no summary) passes any ``summary_chars``. Optionally only some variants and datasets."""
    keep = pd.Series(data=True, index=df.index)
    for col, value in choices.items():
        if col not in df.columns or value is None:
            continue
        match = matches(df[col], value).fillna(value=False).astype(bool)
        if col.startswith("summary_"):
            match |= df[col].isna()
        keep &= match
    if variants is not None:
        keep &= df["variant"].isin(list(variants))
    if datasets is not None:
        keep &= df["dataset"].isin(list(datasets))
    return df[keep]


def variant_order(variants: Sequence[str]) -> list[str]:
    """The default method (the plain baseline) first, then the rest alphabetically."""
    uniq = list(dict.fromkeys(variants))
    return sorted(uniq, key=lambda v: (v != METHODS.default, v))


def dataset_order(datasets: Sequence[str]) -> list[str]:
    """``ALL`` first, then the datasets alphabetically."""
    uniq = list(dict.fromkeys(datasets))
    return sorted(uniq, key=lambda d: (d != "ALL", d))


def colors(variants: Sequence[str]) -> dict[str, str]:
    return {v: PALETTE[i % len(PALETTE)] for i, v in enumerate(variant_order(variants))}


def mean_over_k(
    df: pd.DataFrame, metrics: Sequence[str] = METRICS, per_query: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per (dataset, entry, cell) of rows keyed by :data:`ENTRY` (:func:`.curve_entries.with_entries`):
    each metric's mean over the k values present (NaNs skipped),
    and ``ks``, the k values averaged over; with ``per_query`` (the sweep's per-query table) also
    each mean's 95 % bootstrap interval over queries (``<metric>_low``, ``<metric>_high``), in one
    bootstrap for the cells that share their queries (a sweep of 5 cells × 6,889 queries: about a second)."""
    groups = df.groupby(["dataset", ENTRY, "cell"], sort=False)
    means = groups[list(metrics)].mean().reset_index()
    means["ks"] = groups["k"].apply(lambda s: ",".join(str(int(k)) for k in sorted(s.unique()))).to_numpy()
    if per_query is None or means.empty:
        return means
    shown = df[["cell", "k"]].drop_duplicates()  # each cell's rows at the k values shown (inner join: their order)
    bounds = cell_intervals(list(means["cell"].unique()), per_query.merge(shown, on=["cell", "k"]), list(metrics))
    if bounds is None:
        return means
    return means.merge(bounds, on=["cell", "dataset"], how="left")


def to_csv_bytes(df: pd.DataFrame) -> bytes:
    """``df`` as a CSV download (the one writer: formula cells neutralised)."""
    return csv_bytes(df)


def cell_of(results: pd.DataFrame, entry: str) -> tuple[str | None, int]:
    """The cell id of configuration ``entry`` among filtered results keyed by :data:`ENTRY`, and how many
    cells it has (1 = unambiguous)."""
    cells = results.loc[results[ENTRY] == entry, "cell"].unique().tolist()
    return (cells[0] if cells else None), len(cells)


def flipped(per_query: pd.DataFrame, results: pd.DataFrame, a: str, b: str, metric: str, k: int) -> pd.DataFrame:
    """Queries whose ``metric@k`` differs between configurations ``a`` and ``b`` (entries) of the
    filtered ``results`` (biggest change first); columns ``query_id, dataset, <a>, <b>, change``."""
    cell_a, _ = cell_of(results, a)
    cell_b, _ = cell_of(results, b)
    if cell_a is None or cell_b is None or cell_a == cell_b:
        return pd.DataFrame(columns=["query_id", "dataset", a, b, "change"])
    sub = per_query[per_query["cell"].isin([cell_a, cell_b])]
    out = flipped_queries(sub, cell_a, cell_b, metric, k, key="cell")
    return out.rename(columns={cell_a: a, cell_b: b}).reset_index(drop=True)


def fmt_value(col: str, value: object) -> str:
    """A selector value for people: weights as 1.0 (dense) / 0.0 (BM25), missing as '—'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if col == "semantic_weight":
        w = float(value)  # type: ignore[arg-type]  # a weight column holds numbers
        return f"{w:g}" + (" (dense)" if w == 1 else " (BM25)" if w == 0 else " (hybrid)")
    return str(value)
