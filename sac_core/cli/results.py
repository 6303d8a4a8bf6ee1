"""``sac verify``: recompute a sweep folder's cells from nothing and compare. (A published cell whose
inputs changed is never re-identified: ``sac sweep --cached-only`` lists it as stale and ``sac sweep``
recomputes it.)"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.metrics import METRICS
from ..experiments.verify import TOLERANCE, Verified, verify_folder
from .options import CACHE, DATA_DIR, QUIET, cache_dir_of, data_dir_of

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


COMMANDS = (verify_command,)
