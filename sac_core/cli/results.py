"""``sac verify`` (recompute a sweep folder's cells from nothing and compare) and ``sac reidentify``
(give a sweep folder published before cell ids hashed every input its ids of today, after proving
what can be proved about its inputs)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import click

from ..engine.metrics import METRICS
from ..experiments import load_sweep
from ..experiments.cells import SweepFolder
from ..experiments.reidentify import Reidentified, reidentify_folder
from ..experiments.verify import TOLERANCE, Verified, verify_folder
from .options import CACHE, DATA_DIR, FILE, QUIET, cache_dir_of, data_dir_of, say

FOLDER = click.Path(path_type=Path, exists=True, file_okay=False)


@click.command("verify", epilog="Exit status 1 when a cell differs by more than 1e-9 or was made from other inputs.")
@click.argument("results_dir", type=FOLDER)
@DATA_DIR
@CACHE
@click.option("--cells", type=click.IntRange(min=1), help="recompute this many cells, drawn at random (default: all)")
@click.option("--seed", type=int, default=0, show_default=True, help="which cells --cells draws")
@QUIET
def verify_command(**params: Any) -> int:
    """Recompute a sweep folder's cells in a fresh temporary cache and report the largest difference.

    RESULTS_DIR: a sweep folder (results.csv, per_query.csv.gz, cells.jsonl, runs/).
    """
    data_dir = data_dir_of(params)
    start = time.perf_counter()

    def show(found: Verified) -> None:
        if found.problem:
            print(f"{found.cell} {found.variant}: {found.problem}")
        else:
            worst = ", ".join(f"{m} {d:.1e}" for m, d in found.differences.items())
            print(f"{found.cell} {found.variant}: largest difference {worst} ({found.seconds:.0f}s)")

    try:
        checked = verify_folder(
            params["results_dir"],
            data_dir,
            cells=params["cells"],
            seed=params["seed"],
            summaries_cache=cache_dir_of(params),
            progress=not params["quiet"],
            on_cell=show,
        )
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    largest = {m: max((c.differences.get(m, 0.0) for c in checked), default=0.0) for m in METRICS}
    print("largest difference per metric over the cells: " + ", ".join(f"{m} {d:.1e}" for m, d in largest.items()))
    bad = [c for c in checked if not c.ok]
    print(
        f"{len(checked) - len(bad)} of {len(checked)} cells verified (≤ {TOLERANCE:g}); wall time {time.perf_counter() - start:.1f}s"
    )
    return 1 if bad else 0


@click.command("reidentify")
@click.argument("results_dir", type=FOLDER)
@click.option("--config", type=FILE, required=True, help="the sweep file that made the folder")
@DATA_DIR
@CACHE
def reidentify_command(**params: Any) -> int:
    """Give a sweep folder of cell ids version 1 its ids of today, its inputs proved unchanged first.

    RESULTS_DIR: a sweep folder without cells.jsonl (written before 2026-11-25). Each cell's
    version-1 id must follow from its settings and the data folder in use, and its run rescored
    must give its published metrics; provenance names the commit that published the cell.
    """
    folder = params["results_dir"]
    if SweepFolder(folder).manifest.is_file():
        raise click.ClickException(f"{folder}: already identified by every input ({SweepFolder(folder).manifest.name})")
    sweep = load_sweep(params["config"])
    results = SweepFolder(folder).results

    def published_by(cid: str) -> str:
        """The commit that first wrote cell ``cid`` into the folder's results table (git's pickaxe)."""
        found = subprocess.run(
            ["git", "log", "--format=%H", "--reverse", "-S", cid, "--", results.name],
            capture_output=True,
            text=True,
            check=False,
            cwd=results.resolve().parent,
        )
        lines = found.stdout.split()
        return lines[0] if found.returncode == 0 and lines else ""

    def show(cell: Reidentified) -> None:
        print(f"{cell.old} → {cell.new} {cell.variant}: rescored Δ {cell.rescored:.1e}, means Δ {cell.means:.1e}")

    start = time.perf_counter()
    done = reidentify_folder(
        folder, sweep, data_dir_of(params), cache_dir_of(params), published_by=published_by, on_cell=show
    )
    say(f"{len(done)} cells of {folder} re-identified in {time.perf_counter() - start:.1f}s")
    return 0


COMMANDS = (verify_command, reidentify_command)
