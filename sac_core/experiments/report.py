"""Results tables in the shape of the SAC paper's: means over k, and per dataset at one k.

Input: a results table as written by ``sac evaluate --out`` or ``sac sweep`` (one row per
dataset incl. ``ALL`` × configuration × k). Values are returned in percent.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .config import RunConfig
from .significance import compare_methods

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

KEY = ["variant", "chunk_size", "semantic_weight", "model", "backend", "protocol"]
SHOWN = ("precision", "recall", "drm")


def _key(table: pd.DataFrame) -> list[str]:
    """The configuration columns that vary in ``table`` (``variant`` always)."""
    return [c for c in KEY if c in table.columns and (c == "variant" or table[c].nunique(dropna=False) > 1)]


def mean_over_k(table: pd.DataFrame, dataset: str = "ALL") -> pd.DataFrame:
    """Precision, recall and DRM of ``dataset``, averaged over the k of each configuration (%)."""
    sel = table[table["dataset"] == dataset]
    return (sel.groupby(_key(table), dropna=False)[list(SHOWN)].mean() * 100).round(2)


def at_k(table: pd.DataFrame, k: int = 8, metric: str = "drm") -> pd.DataFrame:
    """``metric@k`` per dataset (columns) for each configuration (rows) (%)."""
    sel = table[table["k"] == k]
    wide = sel.pivot_table(index=_key(table), columns="dataset", values=metric, dropna=False).dropna(how="all") * 100
    order = [d for d in wide.columns if d != "ALL"] + (["ALL"] if "ALL" in wide.columns else [])
    return wide[order].round(2)


def lbr_table(table: pd.DataFrame, precision_k: int = 1, recall_k: int = 64) -> pd.DataFrame:
    """LegalBench-RAG's table shape (Pipitone & Alami 2024, and the papers after it): precision@1
    and recall@64 per dataset (and ``ALL``, the macro mean), one row per configuration (%).
    Columns ``(dataset, "P@1")`` and ``(dataset, "R@64")``; NaN where a run lacks that k."""
    import pandas as pd

    parts = {}
    for metric, k, label in (("precision", precision_k, f"P@{precision_k}"), ("recall", recall_k, f"R@{recall_k}")):
        sel = table[table["k"] == k]
        if sel.empty:
            continue
        parts[label] = (
            sel.pivot_table(index=_key(table), columns="dataset", values=metric, dropna=False).dropna(how="all") * 100
        )
    if not parts:
        return pd.DataFrame()
    wide = pd.concat(parts, axis=1).swaplevel(0, 1, axis=1)
    datasets = [d for d in dict.fromkeys(wide.columns.get_level_values(0)) if d != "ALL"]
    order = [d for d in sorted(datasets)] + (["ALL"] if "ALL" in wide.columns.get_level_values(0) else [])
    return wide.reindex(columns=[(d, label) for d in order for label in parts]).round(2)


def to_latex(frame: pd.DataFrame, caption: str = "") -> str:
    """A table as LaTeX (booktabs), numbers with two decimals; strings escaped for LaTeX."""
    frame = frame.copy()
    latex_names = lambda names: [None if n is None else str(n).replace("_", "\\_") for n in names]
    frame.index.names = latex_names(frame.index.names)
    frame.columns.names = latex_names(frame.columns.names)
    styler = frame.style.format(precision=2, na_rep="--", escape="latex")
    styler = styler.format_index(escape="latex", axis=0, precision=2).format_index(escape="latex", axis=1)
    return styler.to_latex(hrules=True, caption=caption or None, multicol_align="c")


def read_results(paths: list[str]) -> pd.DataFrame:
    import pandas as pd

    frames = [pd.read_csv(p) for p in paths]
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
    dataset's mean over the queries left, ``ALL`` the mean over the datasets that keep any (macro,
    as everywhere). For reporting a method tuned on one protocol on the queries it never saw."""
    import pandas as pd

    kept = per_query[~per_query["query_id"].isin(query_ids)]
    metrics = [m for m in ("drm", "precision", "recall", "hit", "mrr", "ndcg") if m in kept.columns]
    by_dataset = kept.groupby(["cell", "dataset", "k"], as_index=False)[metrics].mean()
    overall = by_dataset.groupby(["cell", "k"], as_index=False)[metrics].mean().assign(dataset="ALL")
    settings = results.drop_duplicates("cell").drop(columns=[*metrics, "dataset", "k", "n_queries"], errors="ignore")
    return pd.concat([by_dataset, overall], ignore_index=True).merge(settings, on="cell")


def document_halves(paths: list[str]) -> dict[str, int]:
    """Each document path → half 0 or 1: per dataset, the documents sorted by a hash of their path
    and dealt alternately (a fixed split that needs no seed and ignores the file names' meaning)."""
    out: dict[str, int] = {}
    by_dataset: dict[str, list[str]] = {}
    for p in sorted(set(paths)):
        by_dataset.setdefault(p.split("/", 1)[0], []).append(p)
    for docs in by_dataset.values():
        ordered = sorted(docs, key=lambda p: hashlib.sha256(p.encode()).hexdigest())
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
