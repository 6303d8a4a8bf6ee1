"""The measurement tools (:mod:`sac_core.tooling`): ``sac bench`` (speed and memory figures of this
machine) and ``sac screenshots`` (the committed pictures of every page)."""

from __future__ import annotations

import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import click

from ..engine.data import PROTOCOLS
from ..engine.summaries import SummaryConfig
from ..experiments import METHODS
from ..tooling.bench import MEMORY_COLUMNS
from ..tooling.bench_parts import (
    PARTS,
    ROOM_SESSIONS,
    SLOW_PARTS,
    BenchOptions,
    bench_parts,
    run_bench,
    session_counts,
)
from ..tooling.scale import SCALE_FACTORS
from .options import (
    CACHE,
    DATA_DIR,
    DATASETS,
    PATH,
    PROTOCOL,
    cache_dir_of,
    deferred,
    optional_data_dir,
    run_config,
    say,
)
from .params import OUT_FOLDER, Registered

DEFAULTS = {f.name: f.default for f in fields(BenchOptions)}  # the flags' defaults: BenchOptions holds them
_take_screenshots = deferred("sac_core.tooling.screenshots:take_screenshots")  # loads the dashboard and Plotly


def _option(flag: str, help: str, **kind: Any) -> Any:
    """A flag of ``sac bench`` whose default is the BenchOptions field of the same name."""
    name = flag.lstrip("-").replace("-", "_")
    return click.option(flag, default=DEFAULTS[name], show_default=DEFAULTS[name] is not None, help=help, **kind)


def _parts(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    try:
        return bench_parts(value)
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("--parts: ")) from None


def _sessions(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        return session_counts(value)
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("--sessions: ")) from None


def _factors(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        factors = tuple(int(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma list of integers, e.g. 1,3,10") from None
    if not factors or any(not 1 <= f <= 50 for f in factors) or list(factors) != sorted(set(factors)):
        raise click.BadParameter(f"{value!r}: increasing sizes from 1 to 50, e.g. 1,3,10")
    return factors


@click.command("bench")
@DATA_DIR
@PROTOCOL
@DATASETS
@CACHE
@_option("--queries", "queries timed for the latency", type=int)
@_option("--k", "the cut-off of the latency and warm figures", type=int)
@_option("--chunks", "chunks encoded for the throughput", type=int)
@_option("--backends", "embedding backends compared, comma-separated")
@click.option("--sweep", type=PATH, help="sweep file whose cached cells are rerun for (d)")
@click.option(
    "--parts",
    default="all",
    callback=_parts,
    show_default=True,
    help=f"some of {','.join(PARTS)}; all = all but the slow {','.join(SLOW_PARTS)}",
)
@_option("--reruns", "Compare reruns timed for (f)", type=int)
@_option("--browsers", "concurrent browser sessions for (g)", type=int)
@_option("--off-grid", "chunk size built for the off-grid Tune figure (h)", type=int)
@_option("--ann-protocol", "pool of the HNSW figures (l)", type=click.Choice(PROTOCOLS))
@_option("--ann-method", "index of the HNSW figures (l)", type=Registered(METHODS))
@_option(
    "--memory-columns",
    "(k): the three Compare indexes, or the baseline index loaded three times (same size)",
    type=click.Choice(MEMORY_COLUMNS),
)
@click.option("--ray-workers", type=int, help="workers of the local Ray instance for (m) (default: all CPUs)")
@_option("--minutes", "length of the scripted session of room-log (n)", type=float)
@_option("--passage-methods", "catalogue entries timed by (o), comma-separated")
@click.option(
    "--sessions",
    default=",".join(map(str, ROOM_SESSIONS)),
    callback=_sessions,
    show_default=True,
    help="concurrent browser sessions of each round of room (p), comma-separated",
)
@click.option(
    "--scale-factors",
    default=",".join(map(str, SCALE_FACTORS)),
    callback=_factors,
    show_default=True,
    help="sizes of the synthetic pools of scale (q), times the whole benchmark's, comma-separated",
)
def bench_command(**params: Any) -> int:
    """Measure throughput, query latency, memory and warm sweep time."""
    data_dir = optional_data_dir(params)
    base = (
        None
        if data_dir is None
        else run_config(params, data_dir, summary=SummaryConfig(provider="file").resolved(data_dir))
    )
    chosen = {k: v for k, v in params.items() if k in DEFAULTS and k not in ("data_dir", "cache_dir", "base")}
    return run_bench(BenchOptions(data_dir, cache_dir_of(params), base, **chosen))


@click.command("screenshots")
@click.option(
    "--out", type=OUT_FOLDER, default=Path("docs/screenshots"), show_default=True, help="folder for the PNG files"
)
@click.option("--data", help="LegalBench-RAG directory for the real-data Compare shot (default: $SAC_DATA_DIR)")
@CACHE
def screenshots_command(**params: Any) -> int:
    """Regenerate the committed screenshots of every page (headless Chromium)."""
    start = time.perf_counter()
    shots = _take_screenshots(params["out"], cache_dir_of(params), optional_data_dir(params), say=say)
    for path in shots:
        print(f"wrote {path}")
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


COMMANDS = (bench_command, screenshots_command)
