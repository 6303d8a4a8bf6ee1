"""``sac sweep`` (a grid of configurations from a TOML file, every cell cached) and ``sac report``
(results tables printed as the paper's tables)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import load_benchmark, read_queries, read_table, resolve_data_dir, write_csv
from ..experiments import load_sweep, run_sweep
from ..experiments.cells import MANIFEST, PER_QUERY, RESULTS, RUNS, SIGNIFICANCE, SweepFolder, read_per_query
from ..experiments.report import (
    at_k,
    backend_changes,
    by_halves,
    lbr_table,
    mean_over_k,
    pair_table,
    pair_view,
    plus_minus,
    provenance_lines,
    read_results,
    to_latex,
    without_queries,
)
from .interop import write_html_report
from .options import CACHE, DATA_DIR, EXECUTION, FILE, QUIET, cache_dir_of, data_dir_of, executor_of, say
from .params import OUT_FILE, OUT_FOLDER


@click.command("sweep")
@click.option("--config", type=FILE, required=True, help="sweep file, e.g. sweeps/lbr-mini-grid.toml")
@DATA_DIR
@CACHE
@click.option("--out", type=OUT_FOLDER, help="output folder (default: results/<sweep name>)")
@QUIET
@click.option(
    "--cached-only", is_flag=True, help="write only the cells already computed; list the others (stale or new)"
)
@EXECUTION
def sweep_command(**params: Any) -> int:
    """Run a grid of configurations from a TOML file, every cell cached."""
    sweep = load_sweep(params["config"])
    data_dir = data_dir_of(params)
    out_dir = params["out"] or Path("results") / sweep.name
    start = time.perf_counter()
    say(f"sweep {sweep.name}: {len(sweep.cells)} cells → {out_dir}")
    stale = SweepFolder(out_dir).unreadable()
    if stale:
        first = next(iter(stale.values()))
        say(
            f"{len(stale)} published cells of {out_dir} name settings that no longer exist ({first}): stale, not reused"
        )
    cached_only = params["cached_only"]
    missing: list[str] = []
    table = run_sweep(
        sweep,
        data_dir,
        cache_dir_of(params),
        out_dir,
        progress=not params["quiet"],
        cached_only=cached_only,
        on_missing=lambda config, why: missing.append(f"  {config.variant} (chunk {config.chunk_size}): {why}"),
        executor=executor_of(params),
    )
    if cached_only:
        say(f"{table['cell'].nunique()} of {len(sweep.cells)} cells were cached and are written")
        if missing:
            say(f"{len(missing)} not written:\n" + "\n".join(missing))
    print("means over k, ALL datasets (%, ± the 95 % bootstrap interval over queries):")
    print(plus_minus(mean_over_k(table, per_query=read_per_query(out_dir))).to_string())
    say(f"{RESULTS}, {PER_QUERY}, {SIGNIFICANCE}, {MANIFEST} and {RUNS}/ written to {out_dir}")
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=FILE)
@click.option("--k", type=int, default=8, show_default=True, help="the cut-off of the per-dataset tables")
@click.option(
    "--without-queries-of",
    metavar="PROTOCOL",
    help="recompute without the queries of this protocol (e.g. lbr-mini, where methods were tuned)",
)
@click.option("--data", help="LegalBench-RAG directory for --without-queries-of and the HTML report's example texts")
@click.option(
    "--html", type=OUT_FILE, help="also write a self-contained HTML report (curves, tables, significance, flips)"
)
@click.option("--flip", metavar="A,B", help="the two variants whose flipped queries the HTML report shows")
@click.option("--latex", type=OUT_FILE, help="also write the means over k and the P@1/R@64 table as LaTeX")
@click.option("--halves", is_flag=True, help="also each cell on both halves of the queries, split by document")
@click.option(
    "--pair",
    nargs=2,
    multiple=True,
    metavar="A B",
    help="paired permutation tests of cell B against cell A (cell ids or variant names; repeatable)",
)
@click.option("--pairs-out", type=OUT_FILE, help="write the --pair tables to this CSV")
@click.option(
    "--per-query",
    "per_query_files",
    multiple=True,
    type=FILE,
    help="the per-query table of each RESULTS file, in order (sac evaluate --per-query-out): the means over k "
    f"then have their 95 % intervals (default: {PER_QUERY} beside the first RESULTS file, as a sweep writes it)",
)
def report_command(**params: Any) -> int:
    """Print results as the paper's tables (means over k; per dataset at k).

    RESULTS: results CSV files (sac evaluate --out, or a sweep's results.csv).
    """
    import pandas as pd  # ~1 s to import: only once the arguments are checked

    per_query_path = Path(params["results"][0]).parent / PER_QUERY
    if params["per_query_files"]:
        table, per_query = _with_per_query(params["results"], params["per_query_files"])
    else:
        table, per_query = read_results([str(p) for p in params["results"]]), read_per_query(params["results"][0])
    protocol = params["without_queries_of"]
    if protocol:
        if per_query is None:
            raise click.ClickException(f"--without-queries-of needs {per_query_path} (a sweep's per-query results)")
        seen = {q.query_id for q in load_benchmark(resolve_data_dir(params["data"]), "all", protocol).queries}
        table = without_queries(table, per_query, seen)
        per_query = per_query[~per_query["query_id"].isin(seen)]
        print(f"without the {len(seen)} queries of protocol {protocol}:")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        _print_tables(table, per_query, params["k"])
        _print_backend_changes(table, per_query, params["k"])
        if params["halves"] or params["pair"]:
            if per_query is None:
                raise click.ClickException(f"--halves / --pair need {per_query_path} (a sweep's per-query results)")
            _print_halves_and_pairs(params, table, per_query)
    if params["latex"]:
        params["latex"].parent.mkdir(parents=True, exist_ok=True)
        means, lbr = (
            to_latex(
                plus_minus(mean_over_k(table, per_query=per_query)), "Means over k (\\%, ± half the 95 \\% interval)"
            ),
            to_latex(lbr_table(table, text=True), "P@1 and R@64 (\\%, ± half the 95 \\% interval)"),
        )
        params["latex"].write_text(means + "\n" + lbr, encoding="utf-8")
        say(f"LaTeX tables → {params['latex']}")
    if params["html"]:
        write_html_report(params, table)
    return 0


def _print_tables(table: Any, per_query: Any, k: int) -> None:
    fixed = {
        c: table[c].iloc[0]
        for c in ("protocol", "model", "backend", "chunk_size", "semantic_weight")
        if c in table.columns and table[c].nunique(dropna=False) == 1
    }
    print("setting: " + ", ".join(f"{c}={v}" for c, v in fixed.items()))
    for line in provenance_lines(table):
        print(line)
    ks = ",".join(str(int(k)) for k in sorted(table["k"].unique()))
    means = mean_over_k(table, per_query=per_query)
    if any(c.endswith("_low") for c in means.columns):
        what = "(%, ± half the 95 % bootstrap interval over queries), ALL datasets, mean over k = " + ks
    else:  # a mean over k's interval is bootstrapped from the queries: none without their table
        what = (
            f"(%), ALL datasets, mean over k = {ks}; without ±: no per-query table (give --per-query, from "
            "sac evaluate --per-query-out)"
        )
    print(f"precision / recall / DRM {what}:")
    print(plus_minus(means).to_string())
    lbr = lbr_table(table, text=True)
    if not lbr.empty:
        print("\nLegalBench-RAG's table: precision@1 and recall@64 per dataset (%, ± half the 95 % interval):")
        print(lbr.to_string())
    for metric in ("drm", "precision", "recall"):
        print(f"\n{metric}@{k} per dataset (%, ± half the 95 % interval):")
        print(at_k(table, k, metric, text=True).to_string())


def _with_per_query(results: tuple[Path, ...], per_query: tuple[Path, ...]) -> tuple[Any, Any]:
    """The RESULTS tables and their ``--per-query`` tables, each pair one cell (the results file's stem
    when it names none: ``sac evaluate`` writes one configuration per file)."""
    import pandas as pd

    if len(per_query) != len(results):
        raise click.BadParameter(
            f"{len(per_query)} given for {len(results)} RESULTS file(s): one per-query table each, in order",
            param_hint="'--per-query'",
        )
    tables, rows = [], []
    for result, queries in zip(results, per_query):
        table, found = read_table(result), read_table(queries)
        if "cell" not in table.columns:
            table.insert(0, "cell", result.stem)
        if "cell" not in found.columns:
            found.insert(0, "cell", table["cell"].iloc[0])
        tables.append(table)
        rows.append(found)
    return pd.concat(tables, ignore_index=True), pd.concat(rows, ignore_index=True)


def _print_halves_and_pairs(params: dict[str, Any], table: Any, per_query: Any) -> None:
    """``--halves``: each cell on both halves of the queries (split by document); ``--pair``: paired tests."""
    import pandas as pd

    if params["halves"]:
        data_dir = resolve_data_dir(params["data"])
        owner = {
            q.query_id: q.gold[0].file_path
            for ds in sorted(per_query["dataset"].unique())
            for q in read_queries(data_dir, str(ds))
        }
        print("\nprecision / recall / DRM (%, means over k) on each half of the queries, split by document:")
        print(by_halves(table, per_query, owner).to_string())
    pairs = [pair_table(per_query, table, a, b) for a, b in params["pair"]]
    for found in pairs:
        print(f"\n{found['variant_b'].iloc[0]}\n  against {found['variant_a'].iloc[0]} (paired permutation tests):")
        shown = found[found["metric"].isin(["drm", "precision", "recall"])]
        print(pair_view(shown).to_string(index=False))
    if pairs and params["pairs_out"]:
        params["pairs_out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(pd.concat(pairs, ignore_index=True), params["pairs_out"])


def _print_backend_changes(table: Any, per_query: Any, k: int) -> None:
    """With two embedding backends in the table: how many query values changed between them."""
    backends = sorted(table["backend"].dropna().unique()) if "backend" in table.columns else []
    if len(backends) < 2 or per_query is None:
        return
    changes = backend_changes(table, per_query, backends[0], backends[-1])
    if changes.empty:
        return
    at = changes[changes["k"] == k]
    print(
        f"\n{backends[-1]} against {backends[0]}, query by query at k={k} ('changed': share of "
        "queries whose value differs; p: paired permutation test):"
    )
    columns = ["variant", "metric", "mean_a", "mean_b", "changed", "wins", "losses", "p_value"]
    print(at[columns].round(4).to_string(index=False))
    print(f"over every k: {changes['changed'].mean():.1%} of query values changed")


COMMANDS = (sweep_command, report_command)
