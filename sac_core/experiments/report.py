"""Results tables in the shape of the SAC paper's: means over k, and per dataset at one k.

Input: a results table as written by ``sac evaluate --out`` or ``sac sweep`` (one row per
dataset incl. ``ALL`` × configuration × k, each metric with its 95 % interval columns
``<metric>_low`` / ``<metric>_high``), and for means over k the per-query table beside it (their
intervals are bootstrapped from the queries, :mod:`sac_core.engine.metrics.intervals`). Values are
returned in percent; :func:`plus_minus` writes a mean and its interval as ``18.52 ± 1.61`` (half
the interval's width; the interval itself may be asymmetric, its ends are in the numeric tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..engine import store
from ..engine.data import read_table
from ..engine.metrics import HIGH, LOW, means_with_intervals, over_k
from .cells import DATA_DIGEST
from .config import RunConfig
from .provenance import COLUMNS as PROVENANCE_COLUMNS
from .provenance import Provenance
from .settings import is_setting_column, settings_of
from .significance import compare_methods

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

SHOWN = ("precision", "recall", "drm")
# The settings columns, in the order a report names them: RunConfig's fields (:mod:`.settings`).
FIELD_COLUMNS = tuple(f.name for f, _ in settings_of(RunConfig) if f.name != "ks")


def setting_key(table: pd.DataFrame) -> list[str]:
    """The columns that tell ``table``'s configurations apart: ``variant``; every RunConfig setting
    (:mod:`.settings`) whose values differ between the table's cells (but ``method``, which the
    variant names); each summary setting or plug-in option that still differs between cells that
    agree on the columns chosen so far; and ``data_digest`` when two cells still agree on every
    setting (the same run on other data). Two cells of one plug-in that differ only in an option
    are two rows, never one average."""
    cells = table.drop_duplicates("cell") if "cell" in table.columns else table.drop_duplicates()
    key = ["variant"]
    key += [c for c in FIELD_COLUMNS if c in cells.columns and c != "method" and cells[c].nunique(dropna=False) > 1]
    rest = sorted(c for c in cells.columns if is_setting_column(c, FIELD_COLUMNS) and c not in FIELD_COLUMNS)
    for column in [*rest, DATA_DIGEST]:
        if column in cells.columns and _splits(cells, key, column):
            key.append(column)
    return key


def _splits(cells: pd.DataFrame, key: list[str], column: str) -> bool:
    """Whether some rows that agree on ``key`` differ in ``column`` (missing values count as a value)."""
    return bool((cells.groupby(key, dropna=False)[column].nunique(dropna=False) > 1).any())


def mean_over_k(table: pd.DataFrame, dataset: str = "ALL", per_query: pd.DataFrame | None = None) -> pd.DataFrame:
    """Precision, recall and DRM of ``dataset``, averaged over the k of each configuration (%); with
    ``per_query`` (the table's cells' per-query rows) also each one's 95 % interval
    (``<metric>_low``, ``<metric>_high``), bootstrapped over the queries of their means over k."""
    import pandas as pd

    sel = table[table["dataset"] == dataset]
    means = sel.groupby(setting_key(table), dropna=False)[list(SHOWN)].mean() * 100
    if per_query is None or "cell" not in table.columns or "cell" not in per_query.columns:
        return means.round(2)
    rows = []
    for cell, group in sel.groupby("cell", sort=False):
        found = means_with_intervals(over_k(per_query[per_query["cell"] == cell], SHOWN), SHOWN)
        found = found[found["dataset"] == dataset]
        if not found.empty:
            keys = group.iloc[0][setting_key(table)].to_dict()
            rows.append({**keys, **{c: found.iloc[0][c] * 100 for c in found.columns if c.endswith((LOW, HIGH))}})
    if not rows:
        return means.round(2)
    intervals = pd.DataFrame(rows).drop_duplicates(setting_key(table)).set_index(setting_key(table))
    return means.join(intervals).round(2)


def cell_means(table: pd.DataFrame, per_query: pd.DataFrame | None = None, dataset: str = "ALL") -> pd.DataFrame:
    """:func:`mean_over_k` per cell (index: the cell id, in the table's order): the same means and,
    with ``per_query``, the same intervals, in one bootstrap for the cells that list the same queries
    in the same order (a sweep's cells do) instead of one per cell: a sweep of 100 cells in seconds."""
    sel = table[table["dataset"] == dataset]
    means = sel.groupby("cell", sort=False)[list(SHOWN)].mean() * 100
    intervals = cell_intervals(means.index, per_query)
    if intervals is None:
        return means.round(2)
    found = intervals[intervals["dataset"] == dataset].set_index("cell").drop(columns="dataset")
    return means.join(found * 100).round(2)


def dataset_means(table: pd.DataFrame, per_query: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`cell_means` of every dataset at once: index (cell, dataset), each dataset of the table
    and ``ALL`` (the macro mean), in the table's orders; one bootstrap for them all."""
    means = table.groupby(["cell", "dataset"], sort=False)[list(SHOWN)].mean() * 100
    intervals = cell_intervals(means.index.get_level_values("cell").unique(), per_query)
    if intervals is None:
        return means.round(2)
    return means.join(intervals.set_index(["cell", "dataset"]) * 100).round(2)


def cell_intervals(
    cells: Sequence[str], per_query: pd.DataFrame | None, metrics: Sequence[str] = SHOWN
) -> pd.DataFrame | None:
    """Per (cell, dataset) of ``per_query`` (``ALL`` too): columns ``cell``, ``dataset`` and the 95 %
    interval columns of each metric's mean over k (fractions, as the rows); None without per-query
    rows. The cells that list the same queries in the same order share one bootstrap (the same draw
    each would get alone: it depends on the dataset and the seed), so 5 cells cost about one."""
    import pandas as pd

    if per_query is None or "cell" not in per_query.columns:
        return None
    rows = per_query[per_query["cell"].isin(list(cells))]
    averaged = rows.groupby(["cell", "dataset", "query_id"], sort=False)[list(metrics)].mean().reset_index()
    order = averaged.groupby("cell", sort=False)[["dataset", "query_id"]].agg(tuple)
    found = []
    for _, same in order.groupby(["dataset", "query_id"], sort=False):  # cells with one query order each
        part = averaged[averaged["cell"].isin(same.index)]
        found.append(means_with_intervals(part, metrics, group="cell"))
    if not found:
        return None
    intervals = pd.concat(found, ignore_index=True)
    return intervals[["cell", "dataset", *(c for c in intervals.columns if c.endswith((LOW, HIGH)))]]


def plus_minus(frame: pd.DataFrame, metrics: Sequence[str] = SHOWN, decimals: int = 2) -> pd.DataFrame:
    """``frame``'s metric columns as text ``mean ± half-width`` where its ``<metric>_low``/``_high``
    columns give an interval (the mean alone where not); the interval columns dropped."""
    out = frame.copy()
    for m in metrics:
        if m not in out.columns:
            continue
        low, high = out.get(m + LOW), out.get(m + HIGH)
        if low is None or high is None:
            out[m] = [_number(v, decimals) for v in out[m]]
            continue
        out[m] = [_pm(v, lo, hi, decimals) for v, lo, hi in zip(out[m], low, high)]
        out = out.drop(columns=[m + LOW, m + HIGH])
    return out


def _number(value: object, decimals: int) -> str:
    return "–" if value is None or value != value else f"{float(value):.{decimals}f}"  # type: ignore[arg-type]


def _pm(value: object, low: object, high: object, decimals: int) -> str:
    if low is None or high is None or low != low or high != high:
        return _number(value, decimals)
    return f"{float(value):.{decimals}f} ± {(float(high) - float(low)) / 2:.{decimals}f}"  # type: ignore[arg-type]


def at_k(table: pd.DataFrame, k: int = 8, metric: str = "drm", *, text: bool = False) -> pd.DataFrame:
    """``metric@k`` per dataset (columns) for each configuration (rows) (%); ``text``: each value as
    ``mean ± half-width`` of its 95 % interval, when the table has the interval columns."""
    sel, key = table[table["k"] == k], setting_key(table)
    wide = _wide(sel, metric, key)
    order = [d for d in wide.columns if d != "ALL"] + (["ALL"] if "ALL" in wide.columns else [])
    if not text or metric + LOW not in table.columns:
        return wide[order].round(2)
    low, high = _wide(sel, metric + LOW, key), _wide(sel, metric + HIGH, key)
    out = wide[order].astype(object)
    for col in order:
        out[col] = [_pm(v, lo, hi, 2) for v, lo, hi in zip(wide[col], low[col], high[col])]
    return out


def _wide(sel: pd.DataFrame, column: str, key: list[str]) -> pd.DataFrame:
    """``column`` (%) per dataset (columns) for each configuration (rows)."""
    return sel.pivot_table(index=key, columns="dataset", values=column, dropna=False).dropna(how="all") * 100


def lbr_table(table: pd.DataFrame, precision_k: int = 1, recall_k: int = 64, *, text: bool = False) -> pd.DataFrame:
    """LegalBench-RAG's table shape (Pipitone & Alami 2024, and the papers after it): precision@1
    and recall@64 per dataset (and ``ALL``, the macro mean), one row per configuration (%).
    Columns ``(dataset, "P@1")`` and ``(dataset, "R@64")``; NaN where a run lacks that k. ``text``:
    each value as ``mean ± half-width`` of its 95 % interval (when the table has them)."""
    import pandas as pd

    parts = {}
    for metric, k, label in (("precision", precision_k, f"P@{precision_k}"), ("recall", recall_k, f"R@{recall_k}")):
        if (table["k"] == k).any():
            parts[label] = at_k(table, k, metric, text=text)
    if not parts:
        return pd.DataFrame()
    wide = pd.concat(parts, axis=1).swaplevel(0, 1, axis=1)
    datasets = [d for d in dict.fromkeys(wide.columns.get_level_values(0)) if d != "ALL"]
    order = [d for d in sorted(datasets)] + (["ALL"] if "ALL" in wide.columns.get_level_values(0) else [])
    return wide.reindex(columns=[(d, label) for d in order for label in parts])


def to_latex(frame: pd.DataFrame, caption: str = "") -> str:
    """A table as LaTeX (booktabs), numbers with two decimals, ``±`` as ``$\\pm$``; strings escaped for LaTeX."""
    frame = frame.copy()
    latex_names = lambda names: [None if n is None else str(n).replace("_", "\\_") for n in names]
    frame.index.names = latex_names(frame.index.names)
    frame.columns.names = latex_names(frame.columns.names)
    styler = frame.style.format(_latex_cell, na_rep="--", escape="latex")  # escaping runs before the formatter
    styler = styler.format_index(escape="latex", axis=0, precision=2).format_index(escape="latex", axis=1)
    return styler.to_latex(hrules=True, caption=caption or None, multicol_align="c")


def _latex_cell(value: object) -> str:
    """A number with two decimals; a ``mean ± half-width`` text with LaTeX's ``\\pm``."""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value).replace(" ± ", " $\\pm$ ")


def provenance_lines(table: pd.DataFrame) -> list[str]:
    """Which code and data made the table's cells: one line per distinct (version, commit, dirty,
    data digest), with how many cells; nothing for a table without provenance columns."""
    columns = [c for c in (*PROVENANCE_COLUMNS, DATA_DIGEST) if c in table.columns]
    if not columns:
        return []
    cells = table.drop_duplicates("cell") if "cell" in table.columns else table.head(1)
    lines = []
    text = cells[columns].astype("string").fillna("")  # any dtype (Int64, float, bool) as text
    for values, group in text.groupby(columns, sort=False):
        found = dict(zip(columns, values if isinstance(values, tuple) else (values,)))
        code = Provenance(*(str(found.get(c, "")) for c in PROVENANCE_COLUMNS)).describe()
        digest = found.get(DATA_DIGEST) or "unknown"
        lines.append(f"computed by {code} on data {digest} ({len(group)} cell{'s' if len(group) > 1 else ''})")
    return lines


def read_results(paths: list[str]) -> pd.DataFrame:
    import pandas as pd

    frames = [read_table(p) for p in paths]
    table = pd.concat(frames, ignore_index=True)
    cols = [c for c in table.columns if c not in ("cell", "wall_seconds", "cell_seconds")]
    return table.drop_duplicates(subset=cols)


def backend_changes(
    results: pd.DataFrame, per_query: pd.DataFrame, a: str, b: str, metrics: tuple[str, ...] = SHOWN
) -> pd.DataFrame:
    """How much the embedding backend changes the results: every cell run through backend ``a`` and
    ``b`` with all other settings equal, compared query by query (per metric and k): the means,
    the share of queries whose value changed, and the paired permutation test's p-value."""
    import pandas as pd

    cells = results.drop_duplicates("cell")
    setting = [c for c in RunConfig().columns() if c in cells.columns and c != "backend"]
    rows = []
    for _, group in cells.groupby(setting, dropna=False):
        by_backend = dict(zip(group["backend"], group["cell"]))
        if a not in by_backend or b not in by_backend:
            continue
        sub = per_query[per_query["cell"].isin([by_backend[a], by_backend[b]])]
        pairs = compare_methods(sub, by_backend[a], by_backend[b], metrics, key="cell")
        n = pairs["wins"] + pairs["ties"] + pairs["losses"]
        pairs.insert(0, "variant", group["variant"].iloc[0])
        pairs["changed"] = (n - pairs["ties"]) / n
        rows.append(pairs.drop(columns=["a", "b"]))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()


def without_queries(results: pd.DataFrame, per_query: pd.DataFrame, query_ids: set[str]) -> pd.DataFrame:
    """``results`` recomputed from ``per_query`` without the queries in ``query_ids``: each
    dataset's mean over the queries left with its bootstrap 95 % interval, ``ALL`` the mean over the
    datasets that keep any (macro, as everywhere). For reporting a method tuned on one protocol on
    the queries it never saw."""
    import pandas as pd

    kept = per_query[~per_query["query_id"].isin(query_ids)]
    metrics = [m for m in ("drm", "precision", "recall", "hit", "mrr", "ndcg") if m in kept.columns]
    found = [means_with_intervals(rows, metrics).assign(cell=cell) for cell, rows in kept.groupby("cell", sort=False)]
    measured = {*metrics, *(f"{m}{end}" for m in metrics for end in (LOW, HIGH)), "dataset", "k", "n_queries"}
    settings = results.drop_duplicates("cell").drop(columns=[c for c in results.columns if c in measured])
    return pd.concat(found, ignore_index=True).merge(settings, on="cell")


def document_halves(paths: list[str]) -> dict[str, int]:
    """Each document path → half 0 or 1: per dataset, the documents sorted by a hash of their path
    and dealt alternately (a fixed split that needs no seed and ignores the file names' meaning)."""
    out: dict[str, int] = {}
    by_dataset: dict[str, list[str]] = {}
    for p in sorted(set(paths)):
        by_dataset.setdefault(p.split("/", 1)[0], []).append(p)
    for docs in by_dataset.values():
        ordered = sorted(docs, key=store.sha256)
        out.update({p: i % 2 for i, p in enumerate(ordered)})
    return out


def by_halves(results: pd.DataFrame, per_query: pd.DataFrame, query_document: dict[str, str]) -> pd.DataFrame:
    """Means over k of precision, recall and DRM (%, macro over datasets) of every cell on each half
    of the queries, split by the document they ask about (:func:`document_halves`): a setting chosen
    on one half should hold on the other."""
    half = document_halves(list(query_document.values()))
    pq = per_query.assign(half=per_query["query_id"].map(lambda q: half.get(query_document.get(q, ""), -1)))
    pq = pq[pq["half"] >= 0]
    per_ds = pq.groupby(["cell", "half", "dataset", "k"])[list(SHOWN)].mean()
    macro = per_ds.groupby(["cell", "half", "k"]).mean().groupby(["cell", "half"]).mean() * 100
    wide = macro.unstack("half")
    wide.columns = [f"{metric} half{h}" for metric, h in wide.columns]
    names = results.drop_duplicates("cell").set_index("cell")["variant"]
    return wide.join(names).set_index("variant").round(2)


def pair_view(pairs: pd.DataFrame) -> pd.DataFrame:
    """A paired-test table for people: means and the difference b − a in percent, the difference's
    95 % interval, the p-value (Holm-corrected when the table has it), wins and losses."""
    import pandas as pd

    p_column = "p_holm" if "p_holm" in pairs.columns else "p_value"
    return pd.DataFrame(
        {
            "metric": pairs["metric"],
            "k": pairs["k"],
            "a %": (pairs["mean_a"] * 100).round(2),
            "b %": (pairs["mean_b"] * 100).round(2),
            "b − a (pts)": [
                f"{d * 100:+.2f} [{lo * 100:+.2f}, {hi * 100:+.2f}]"
                for d, lo, hi in zip(pairs["diff"], pairs["diff_low"], pairs["diff_high"])
            ],
            "p (Holm)" if p_column == "p_holm" else "p": pairs[p_column].map(lambda p: f"{p:.4f}"),
            "wins": pairs["wins"],
            "losses": pairs["losses"],
        }
    )


def pair_table(per_query: pd.DataFrame, results: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Paired permutation tests of cell ``b`` against cell ``a`` (each a cell id or a variant name of
    ``results``), per metric and k, plus their means over k."""
    cells = results.drop_duplicates("cell")

    def cell(name: str) -> str:
        if name in set(cells["cell"]):
            return name
        found = cells[cells["variant"] == name]["cell"]
        if len(found) != 1:
            raise ValueError(f"{name!r}: not one cell id or variant of the results ({len(found)} match)")
        return str(found.iloc[0])

    ca, cb = cell(a), cell(b)
    pairs = compare_methods(per_query[per_query["cell"].isin([ca, cb])], ca, cb, key="cell")
    variants = cells.set_index("cell")["variant"]
    pairs.insert(0, "variant_b", variants[cb])
    pairs.insert(0, "variant_a", variants[ca])
    return pairs
