"""``sac separation``: how far apart the documents lie in each Compare index, and against DRM over
the dense cells of a sweep."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import load_benchmark, read_table, write_csv
from ..engine.embedding import Embedders
from ..experiments import OpenContext, catalogue_columns, load_sweep
from ..experiments.cells import SweepFolder
from ..experiments.separation import NEIGHBOURS, correlations, grid_separation, index_separation, open_index_retriever
from .options import DATA, PATH, SUMMARIES, cache_dir_of, data_dir_of, run_config, say
from .params import OUT_FILE


@click.command("separation")
@DATA
@SUMMARIES
@click.option("--out", type=OUT_FILE, help="CSV of the Compare indexes' figures")
@click.option("--sweep", type=PATH, help="also every dense cell of this sweep, with its DRM")
@click.option("--results", type=PATH, help="the sweep's results folder (default: results/<name>)")
@click.option("--grid-out", type=OUT_FILE, help="CSV of the sweep cells' figures")
@click.option("--embed-missing", is_flag=True, help="embed cells whose embeddings are not cached")
def separation_command(**params: Any) -> int:
    """How far apart documents lie in each index (and vs DRM over a grid)."""
    import pandas as pd  # ~1 s to import: only once the arguments are checked

    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    start = time.perf_counter()
    base = run_config(params, data_dir)
    bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
    rows = []
    embedders = Embedders(cache_dir)
    for column in catalogue_columns(base):
        config = column.config
        ctx = OpenContext(bench, data_dir, cache_dir, embedders, progress=not params["quiet"], save=True, notes=say)
        sep = index_separation(open_index_retriever(config, ctx))
        figures = {"chunks": sep.chunks, "own_share": sep.own_share, "silhouette": sep.silhouette}
        rows.append({"index": column.name, "variant": config.variant, "chunk_size": config.chunk_size, **figures})
    table = pd.DataFrame(rows)
    print(
        f"{base.protocol}, the Compare indexes: own-document share of the {NEIGHBOURS} nearest chunks, "
        "silhouette by document (cosine, 5,000-chunk sample):"
    )
    print(table.round(4).to_string(index=False))
    if params["out"]:
        params["out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(table, params["out"])
    if params["sweep"]:
        _grid(params, data_dir, cache_dir)
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def _grid(params: dict[str, Any], data_dir: Path, cache_dir: Path) -> None:
    """Separation of every dense cell of ``--sweep`` whose embeddings are cached, with its DRM."""

    sweep = load_sweep(params["sweep"])
    folder = params["results"] or Path("results") / sweep.name
    results = read_table(SweepFolder(folder).results)
    grid = grid_separation(sweep, results, data_dir, cache_dir, cached_only=not params["embed_missing"])
    print(
        f"\n{len(grid)} dense cells of {sweep.name} (indexes whose embeddings are cached), separation "
        "and means over k (ALL datasets):"
    )
    print(grid.drop(columns="cell").round(4).to_string(index=False))
    if len(grid) >= 3:
        print("\ncorrelation over these cells:")
        print(correlations(grid).round(4).to_string(index=False))
    if params["grid_out"]:
        params["grid_out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(grid, params["grid_out"])


COMMANDS = (separation_command,)
