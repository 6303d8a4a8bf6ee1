"""The demo grid the Curves page can run on the demo corpus: baseline and SAC over a few chunk
sizes, cell by cell with progress, into ``<cache>/results/demo``."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from ..engine.data import available_datasets
from ..engine.metrics import DEFAULT_KS
from ..engine.summaries import SummaryConfig
from ..experiments import RunConfig, Sweep, run_sweep
from ..experiments.methods import BASELINE, SAC_METHOD

DEMO_SWEEP = "demo"


def demo_sweep(
    datasets: Sequence[str],
    chunk_sizes: Sequence[int] = (300, 500),
    prompts: Sequence[str] = ("generic", "expert"),
    chars: Sequence[int] = (150,),
    weights: Sequence[float] = (1.0,),
    ks: Sequence[int] = DEFAULT_KS,
) -> Sweep:
    """A small grid on the demo corpus (``full`` protocol, file summaries): baseline and SAC."""
    base = RunConfig(protocol="full", datasets=tuple(datasets), ks=tuple(ks), summary=SummaryConfig(provider="file"))
    cells: list[RunConfig] = []
    for size in chunk_sizes:
        for w in weights:
            cells.append(base.with_(method=BASELINE.name, chunk_size=size, semantic_weight=w))
            for n in chars:
                for prompt in prompts:
                    summary = SummaryConfig(provider="file", prompt=prompt, chars=n)
                    cells.append(
                        base.with_(method=SAC_METHOD.name, chunk_size=size, semantic_weight=w, summary=summary)
                    )
    return Sweep(DEMO_SWEEP, tuple(dict.fromkeys(cells)))


def demo_grid(demo: Path) -> Sweep:
    """:func:`demo_sweep` over every dataset of the demo folder ``demo``: what the Curves page runs."""
    return demo_sweep(available_datasets(demo))


def run_with_progress(
    sweep: Sweep,
    data_dir: Path,
    cache_dir: Path,
    out_dir: Path,
    on_progress: Callable[[float, str], None] | None = None,
) -> pd.DataFrame:
    """``run_sweep`` cell by cell (each cell lands in the sweep cache), reporting progress, then
    once more over all cells (all cached) to write ``out_dir``."""
    report = on_progress or (lambda fraction, message: None)
    n = len(sweep.cells)
    with tempfile.TemporaryDirectory() as scratch:
        for i, cell in enumerate(sweep.cells):
            report(
                i / max(n, 1),
                f"cell {i + 1}/{n}: {cell.variant}, chunk {cell.chunk_size}, weight {cell.semantic_weight}",
            )
            run_sweep(Sweep(sweep.name, (cell,)), data_dir, cache_dir, Path(scratch), progress=False)
    report(0.99, "writing results")
    table = run_sweep(sweep, data_dir, cache_dir, out_dir, progress=False)
    report(1.0, "done")
    return table
