"""``sac verify``: recompute published sweep cells from nothing and say how far they are from what
was published.

Each chosen cell (all, or ``cells`` of them drawn with ``seed``) is opened from its configuration
(``cells.jsonl``) on the data folder in use, in a fresh temporary cache: every summary (except
those an LLM was paid for, whose texts are part of the cell's identity anyway), chunk, embedding
and index is made again. First the cell's identity is recomputed: when it differs, the published
cell was made from other inputs (another data folder, other code) and is reported as such.
Otherwise its per-query metrics are compared with the published ones, query by query and k by k,
and the largest absolute difference per metric is reported.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine import store
from ..engine.data import load_benchmark
from ..engine.metrics import METRICS
from ..engine.progress import progress_bar
from .cells import CellRecord, SweepFolder
from .identity import cell_inputs
from .plugins import OpenContext
from .sweep import evaluate_cell

TOLERANCE = 1e-9  # the largest difference a verified cell may show


@dataclass(frozen=True)
class Verified:
    """One recomputed cell: ``differences`` per metric (largest absolute difference over queries
    and k; empty when the inputs differed), ``problem`` when it could not be compared."""

    cell: str
    variant: str
    seconds: float
    differences: dict[str, float] = field(default_factory=dict)
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem and all(d <= TOLERANCE for d in self.differences.values())


def choose(cells: list[str], n: int | None, seed: int) -> list[str]:
    """``n`` of ``cells`` drawn with ``seed`` (all of them when ``n`` is None or at least their number), in folder order."""
    if n is None or n >= len(cells):
        return list(cells)
    drawn = set(random.Random(seed).sample(cells, n))
    return [c for c in cells if c in drawn]


def verify_folder(
    path: Path,
    data_dir: Path,
    *,
    cells: int | None = None,
    seed: int = 0,
    summaries_cache: Path | None = None,
    progress: bool = True,
    on_cell: Callable[[Verified], None] | None = None,
) -> list[Verified]:
    """Recompute cells of the sweep folder ``path`` (see the module docstring). ``summaries_cache``:
    the cache folder whose LLM summaries may be read (paid for: never requested again)."""
    folder = SweepFolder(Path(path))
    published = folder.read_cells()
    if not published:
        raise ValueError(f"{path}: no published cells (results.csv, per_query.csv.gz, cells.jsonl and runs/)")
    chosen = choose(list(published), cells, seed)
    out = []
    for cid in progress_bar(chosen, desc=f"verifying {folder.path.name}", unit="cell", disable=not progress):
        record = published[cid]
        with tempfile.TemporaryDirectory(prefix="sac-verify-") as tmp:
            cache = Path(tmp)
            if summaries_cache is not None and record.config.summary.provider == "openai":
                store.folder(cache, "summaries").symlink_to(store.folder(Path(summaries_cache).resolve(), "summaries"))
            bench = load_benchmark(data_dir, record.config.datasets, record.config.protocol, record.config.seed)
            ctx = OpenContext.new(bench, data_dir, cache, progress=progress)
            t0 = time.perf_counter()
            inputs = cell_inputs(record.config, ctx)
            if inputs.id != cid:
                changed = [k for k in inputs.payload if inputs.payload.get(k) != record.inputs.payload.get(k)]
                problem = f"made from other inputs ({', '.join(changed)}): recomputed, it is cell {inputs.id}"
                result = Verified(cid, record.config.variant, time.perf_counter() - t0, problem=problem)
            else:
                fresh = evaluate_cell(record.config, ctx, inputs)
                result = Verified(cid, record.config.variant, time.perf_counter() - t0, _differences(record, fresh))
        out.append(result)
        if on_cell is not None:
            on_cell(result)
    return out


def _differences(published: CellRecord, fresh: CellRecord) -> dict[str, float]:
    """The largest absolute difference per metric between two cells' per-query tables (a value
    known in one and missing in the other counts as infinitely far)."""
    key = ["query_id", "k"]
    a = published.per_query.set_index(key).sort_index()
    b = fresh.per_query.set_index(key).sort_index()
    if not a.index.equals(b.index):
        return dict.fromkeys(METRICS, float("inf"))  # other queries or cut-offs: nothing matches
    out = {}
    for m in METRICS:
        if m in a.columns:
            gap = (a[m] - b[m]).abs().fillna(0.0)
            gap[a[m].isna() != b[m].isna()] = float("inf")
            out[m] = float(gap.max()) if len(gap) else 0.0
    return out
