"""Do today's metrics agree with a published sweep's? Rescore its committed run files and compare
with its committed per-query table (used to check that Hit/MRR/nDCG through ranx equal the
hand-written definitions that produced the published numbers)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pandas as pd

from ..engine.data import load_benchmark, read_table
from ..engine.metrics import METRICS, score_run
from .cells import SweepFolder
from .runs import read_run_text


def rescore_folder(
    folder: Path, data_dir: Path, metrics: tuple[str, ...] = METRICS, cells: int | None = None
) -> pd.DataFrame:
    """Per cell of sweep folder ``folder`` (the first ``cells`` of them, or all): the largest
    absolute difference per metric between its committed per-query values and the run file
    rescored now (NaN = NaN counts as equal). Columns ``cell``, ``variant``, ``queries``, then one per metric."""
    results = read_table(SweepFolder(folder).results)
    per_query = read_table(SweepFolder(folder).per_query)
    rows = []
    benches: dict[tuple, object] = {}
    settings = results.drop_duplicates("cell")
    for _, cell in settings.head(cells).iterrows() if cells else settings.iterrows():
        seed = None if pd.isna(cell.get("seed")) else int(cell["seed"])
        key = (cell["protocol"], cell["datasets"], seed)
        if key not in benches:
            benches[key] = load_benchmark(data_dir, tuple(str(cell["datasets"]).split(",")), cell["protocol"], seed)
        bench = benches[key]
        path = SweepFolder(folder).run_path(str(cell["cell"]))
        run = read_run_text(gzip.decompress(path.read_bytes()).decode("utf-8"), path)
        ks = tuple(sorted(int(k) for k in results.loc[results["cell"] == cell["cell"], "k"].unique()))
        mode = cell["metric_mode"] if "metric_mode" in cell and isinstance(cell["metric_mode"], str) else "merged"
        now = score_run(bench.queries, run, ks, mode).set_index(["query_id", "k"])  # type: ignore[attr-defined]
        then = per_query[per_query["cell"] == cell["cell"]].set_index(["query_id", "k"])
        joined = then[list(metrics)].merge(
            now[list(metrics)], left_index=True, right_index=True, how="outer", suffixes=("", "_now")
        )
        row: dict[str, object] = {"cell": cell["cell"], "variant": cell["variant"], "queries": len(then) // len(ks)}
        for m in metrics:
            a, b = joined[m], joined[f"{m}_now"]
            both_nan = a.isna() & b.isna()
            diff = (a - b).abs().where(~both_nan, 0.0)
            row[m] = float(diff.fillna(float("inf")).max())
        rows.append(row)
    return pd.DataFrame(rows)
