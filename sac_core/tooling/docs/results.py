"""The committed results a documentation block reads: sweep folders under ``results/`` (read once
per generation), their means over k with intervals (:func:`sac_core.experiments.report.cell_means`),
and plain files (CSV tables, text outputs of ``sac bench``).

A sweep folder is ``results.csv`` with a ``cell`` column (and ``per_query.csv.gz`` for intervals);
a folder of ``sac evaluate`` tables (no ``cell`` column, no per-query rows) counts each file as
one cell named after it, with means and no intervals.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...engine.data import read_table
from ...experiments.cells import PER_QUERY, RESULTS, read_per_query
from ...experiments.report import cell_means, dataset_means, lbr_table, plus_minus, provenance_lines, setting_key

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


class DocsError(ValueError):
    """A block names a results folder, file, variant or setting that is not there."""


@dataclass(frozen=True)
class Sweep:
    """One results folder: ``table`` (every row of its results), ``means`` (per cell: precision,
    recall and DRM over k in %, with ``_low``/``_high`` when it has per-query rows), ``lbr`` (per
    cell: precision@1 and recall@64 of ALL as text), ``settings`` (the key columns that vary)."""

    name: str
    path: str  # as shown: results/<name>
    table: pd.DataFrame
    means: pd.DataFrame
    text: pd.DataFrame  # the means as text, "mean ± half-width"
    at_8: dict[str, float]  # per cell: DRM@8 of ALL (%)
    lbr: pd.DataFrame
    settings: tuple[str, ...]
    intervals: bool

    def cells(self) -> list[str]:
        return list(self.means.index)

    def describe(self, cell: str) -> dict[str, object]:
        """The first row of ``cell`` (its settings)."""
        return dict(self.table[self.table["cell"] == cell].iloc[0])

    def provenance(self) -> list[str]:
        return provenance_lines(self.table)

    def find(self, variant: str, where: tuple[tuple[str, object], ...] = ()) -> str:
        """The one cell of ``variant`` whose settings match ``where`` (column, value) pairs."""
        cells = self.table.drop_duplicates("cell")
        found = cells[cells["variant"] == variant]
        for column, value in where:
            if column not in found.columns:
                raise DocsError(f"{self.path}: no setting {column!r}")
            found = found[found[column] == value]
        if len(found) != 1:
            raise DocsError(f"{self.path}: {len(found)} cells of variant {variant!r} where {dict(where)} (need one)")
        return str(found.iloc[0]["cell"])


class Results:
    """The ``results/`` folder of a checkout, each sweep folder read at most once; ``label`` names it
    in errors (``results``, or the ``--results`` folder given)."""

    def __init__(self, root: Path, label: str = "results") -> None:
        self.root = Path(root)
        self.label = label
        self._sweeps: dict[str, Sweep] = {}
        self._per_query: dict[str, pd.DataFrame | None] = {}
        self._datasets: dict[str, pd.DataFrame] = {}

    def sweep_names(self) -> list[str]:
        """Folders holding a sweep's ``results.csv`` with per-query rows, sorted."""
        found = self.root.glob(f"*/{RESULTS}")
        return sorted(p.parent.name for p in found if (p.parent / PER_QUERY).is_file())

    def sweep(self, name: str) -> Sweep:
        if name not in self._sweeps:
            self._sweeps[name] = self._read(name)
        return self._sweeps[name]

    def has(self, name: str) -> bool:
        """Whether the folder ``name`` holds results (a sweep's ``results.csv`` or results tables)."""
        folder = self.root / name
        return (folder / RESULTS).is_file() or (folder.is_dir() and any(folder.glob("*.csv")))

    def per_query(self, name: str) -> pd.DataFrame | None:
        """The per-query rows of the sweep folder ``name`` (None without them), read once and kept (only
        the blocks that need them ask: every sweep's rows at once would hold gigabytes)."""
        if name not in self._per_query:
            path = self.root / name / PER_QUERY
            self._per_query[name] = read_per_query(path) if path.is_file() else None
        return self._per_query[name]

    def dataset_means(self, name: str) -> pd.DataFrame:
        """Per (cell, dataset), ``ALL`` too: precision, recall and DRM over k in % with their
        intervals (:func:`~sac_core.experiments.report.dataset_means`), computed once."""
        if name not in self._datasets:
            self._datasets[name] = dataset_means(self.sweep(name).table, self.per_query(name))
        return self._datasets[name]

    def file(self, relative: str) -> Path:
        path = self.root / relative
        if not path.is_file():
            raise DocsError(f"{self.label}/{relative}: no such file")
        return path

    def _read(self, name: str) -> Sweep:
        import pandas as pd

        folder = self.root / name
        if (folder / RESULTS).is_file():
            table = read_table(folder / RESULTS)
        elif folder.is_dir() and any(folder.glob("*.csv")):
            files = sorted(folder.glob("*.csv"))
            table = pd.concat([read_table(f).assign(cell=f.stem) for f in files], ignore_index=True)
        else:
            raise DocsError(f"{self.label}/{name}: no results.csv and no results tables")
        per_query = read_per_query(folder / PER_QUERY) if (folder / PER_QUERY).is_file() else None
        means = cell_means(table, per_query)
        settings = tuple(setting_key(table)[1:])
        at_8 = table[(table["dataset"] == "ALL") & (table["k"] == 8)].drop_duplicates("cell").set_index("cell")["drm"]
        return Sweep(
            name, f"results/{name}", table, means, plus_minus(means), dict(at_8 * 100), _lbr(table), settings,
            per_query is not None,
        )  # fmt: skip


def _lbr(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell: LegalBench-RAG's precision@1 and recall@64 of ALL as text (``mean ± half-width``
    where the table has intervals), columns ``P@1`` and ``R@64``; empty when no cell has those k."""
    import pandas as pd

    by_cell = table.assign(variant=table["cell"])  # one row per cell, whatever else varies
    wide = lbr_table(by_cell, text=True)
    if wide.empty or "ALL" not in wide.columns.get_level_values(0):
        return pd.DataFrame()
    out = wide["ALL"].copy()
    out.index = [i[0] if isinstance(i, tuple) else i for i in out.index]
    return out.map(lambda v: v if isinstance(v, str) else ("–" if v != v else f"{v:.2f}"))
