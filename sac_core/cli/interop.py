"""Other retrievers in, standard files out: ``sac runs`` (import a run file as a method; list; remove),
``sac export`` (TREC run + qrels, per-query metrics, BEIR), ``sac compare`` (paired significance of
runs against the first) and the HTML report of ``sac report --html``."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import (
    DATA_ENV,
    RUN_FORMATS,
    Benchmark,
    load_benchmark,
    parse_datasets,
    read_table,
    resolve_data_dir,
    write_csv,
)
from ..engine.embedding import Embedders
from ..engine.metrics import MODES
from ..experiments import OpenContext, RunConfig, evaluate, format_results
from ..experiments.cells import SweepFolder
from ..experiments.export import (
    export_beir,
    export_run,
    from_cell,
    from_file,
    from_stored,
    pick_cell,
    score_metrics,
)
from ..experiments.html_report import examples_from_folder, render
from ..experiments.report import mean_over_k, to_latex
from ..experiments.run_store import import_run, list_runs, remove_run
from ..experiments.significance import compare_systems
from .options import DATA, PATH, RUN, RUN_DATA, cache_dir_of, data_dir_of, say
from .params import OUT_FILE, OUT_FOLDER, Ks


@click.group("runs")
def runs_group() -> None:
    """Another retriever's run file (JSONL or TREC) as a method: import (and score), list, remove."""


@runs_group.command("import")
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@RUN_DATA
@click.option("--name", required=True, help="the name the run is known by (run.name, Compare, sweeps)")
@click.option("--format", "fmt", type=click.Choice(RUN_FORMATS), help="default: detected ('{' starts JSONL)")
@click.option("--k", "ks", type=Ks(), default=RUN.ks, show_default=",".join(map(str, RUN.ks)), help="cut-offs")
@click.option("--metric-mode", default=RUN.metric_mode, type=click.Choice(MODES), show_default=True)
@click.option("--out", type=OUT_FILE, help="results table (CSV), as sac evaluate --out")
@click.option("--per-query-out", type=OUT_FILE, help="per-query metrics (CSV)")
def runs_import(**params: Any) -> int:
    """Import FILE as run NAME (stored in <cache>/runs/NAME/) and score it like sac evaluate.

    FILE: LegalBench-RAG-shaped JSONL or TREC (doc ids file_path#start-end); every line is checked
    against the benchmark, and an error names the file, line and field. Without --protocol the run is
    scored on the smallest protocol that holds all its queries (full when they leave lbr-mini)."""
    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    datasets = parse_datasets(params["datasets"], data_dir)
    path: Path = params["file"]
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror})") from None
    start = time.perf_counter()
    stored = import_run(
        data,
        name=params["name"],
        source=str(path),
        data_dir=data_dir,
        cache_dir=cache_dir,
        protocol=params["protocol"],
        datasets=datasets,
        seed=params["seed"],
        fmt=params["fmt"],
    )
    protocol = stored.protocol
    chosen = "" if params["protocol"] else " (the smallest protocol holding every query of the run)"
    skipped = ""
    if stored.skipped:
        skipped = (
            f"; {stored.skipped} lines for queries outside {protocol} NOT scored (without --protocol every line is)"
        )
    say(
        f"imported {path} ({stored.format}) as run {stored.name}: {stored.queries} queries of protocol {protocol}{chosen}{skipped}"
    )
    config = RunConfig(
        protocol=protocol,
        datasets=datasets,
        seed=params["seed"],
        method="run",
        ks=params["ks"],
        metric_mode=params["metric_mode"],
        options=(("run.name", stored.name),),
    )
    bench = load_benchmark(data_dir, datasets, protocol, params["seed"])
    ev = evaluate(config, OpenContext(bench, data_dir, cache_dir, Embedders(cache_dir)))
    ev.results["wall_seconds"] = round(time.perf_counter() - start, 1)
    if params["out"]:
        params["out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(ev.results, params["out"])
    if params["per_query_out"]:
        write_csv(ev.per_query, params["per_query_out"])
    print(format_results(ev.results))
    return 0


@runs_group.command("list")
@click.option("--cache-dir", type=PATH, help="default: $SAC_CACHE_DIR or ./cache")
def runs_list(**params: Any) -> int:
    """The imported runs: name, protocol, datasets, queries, format and source, when."""
    for r in list_runs(cache_dir_of(params)):
        datasets = ",".join(r.datasets)
        print(f"{r.name}\t{r.protocol}\t{datasets}\t{r.queries} queries\t{r.format} from {r.source}\t{r.imported}")
    return 0


@runs_group.command("remove")
@click.argument("name")
@click.option("--cache-dir", type=PATH, help="default: $SAC_CACHE_DIR or ./cache")
def runs_remove(**params: Any) -> int:
    """Remove imported run NAME and the cached sweep cells scored from it."""
    evicted = remove_run(cache_dir_of(params), params["name"])
    print(f"removed run {params['name']} ({evicted} cached sweep cells of it dropped)")
    return 0


def _source(raw: str, params: dict[str, Any]) -> tuple[Any, Benchmark]:
    """A run named on the command line: a sweep folder (with --cell/--variant), a run file, or an imported run."""
    path = Path(raw)
    if path.is_dir():
        where = dict(item.split("=", 1) for item in params.get("where") or ())
        row = pick_cell(path, params.get("cell"), params.get("variant"), where)
        return from_cell(path, row, resolve_data_dir(params["data"]))
    if path.is_file():
        data_dir = data_dir_of(params)
        datasets = parse_datasets(params["datasets"], data_dir)
        return from_file(path, data_dir, params["protocol"], datasets, params["seed"], params["ks"])
    return from_stored(raw, resolve_data_dir(params["data"]), cache_dir_of(params), params["ks"])


@click.command("export")
@click.argument("source")
@DATA
@click.option("--cell", help="the sweep cell's id")
@click.option("--variant", help="the sweep cell's variant (with --where when several share it)")
@click.option("--where", multiple=True, metavar="COLUMN=VALUE", help="e.g. chunk_size=500 (repeatable)")
@click.option("--k", "ks", type=Ks(), default=RUN.ks, help="k of the per-query metrics (a sweep cell: its own)")
@click.option("--doc-k", type=int, help="chunks the document-level run is made of (default: the largest k)")
@click.option("--beir", is_flag=True, help="also write the benchmark as a BEIR folder (<out>/beir)")
@click.option("--out", type=OUT_FOLDER, required=True, help="output folder")
def export_command(**params: Any) -> int:
    """TREC run + qrels (chunk and document level), per-query metrics (CSV, Parquet), BEIR folder.

    SOURCE: a sweep folder (with --cell or --variant), a run file, or an imported run's name."""
    source, bench = _source(params["source"], params)
    written = export_run(params["out"], source, bench, doc_k=params["doc_k"])
    if params["beir"]:
        written += export_beir(params["out"] / "beir", bench)
    for path in written:
        print(f"wrote {path}")
    return 0


@click.command("compare")
@click.argument("runs", nargs=-1, required=True)
@DATA
@click.option("--k", "ks", type=Ks(), default=RUN.ks, show_default=",".join(map(str, RUN.ks)), help="cut-offs")
@click.option("--at-k", type=int, default=8, show_default=True, help="print this k only (0: every k)")
@click.option("--metrics", default="drm,precision,recall", show_default=True)
@click.option("--variant", help="with a sweep folder: the cell's variant")
@click.option("--where", multiple=True, metavar="COLUMN=VALUE", help="with a sweep folder (repeatable)")
@click.option("--out", type=OUT_FILE, help="the whole table (CSV)")
@click.option("--latex", type=OUT_FILE, help="the printed table as LaTeX")
def compare_command(**params: Any) -> int:
    """Paired significance of runs against the first: Fisher's randomisation test (10,000 seeded
    sign flips), Holm-corrected over the runs when more than two.

    RUNS: run files, imported run names or sweep folders (with --variant/--where)."""
    import pandas as pd

    if len(params["runs"]) < 2:
        raise click.UsageError("needs two runs or more (the first is the reference)")
    frames: list[pd.DataFrame] = []
    names: list[str] = []
    for raw in params["runs"]:
        source, bench = _source(raw, params)
        name = source.name if source.name not in names else f"{source.name}-{len(names)}"
        frames.append(score_metrics(source, bench).assign(run=name))
        names.append(name)
    table = compare_systems(pd.concat(frames, ignore_index=True), names, tuple(params["metrics"].split(",")))
    shown = table[table["k"] == params["at_k"]] if params["at_k"] else table
    holm = " (p_holm: Holm-corrected over the runs compared with the first)" if len(names) > 2 else ""
    print(f"each run against {names[0]}; Fisher's randomisation test, 10,000 sign flips{holm}; means in %:")
    out = shown.assign(mean_a=shown["mean_a"] * 100, mean_b=shown["mean_b"] * 100)
    print(out.round(4).to_string(index=False))
    if params["out"]:
        write_csv(table, params["out"])
    if params["latex"]:
        columns = ["mean_a", "mean_b", "p_value", "p_holm"]
        params["latex"].write_text(to_latex(out.set_index(["b", "metric", "k"])[columns]), encoding="utf-8")
        say(f"LaTeX → {params['latex']}")
    return 0


def write_html_report(params: dict[str, Any], table: Any) -> None:
    """``sac report --html``: one self-contained HTML file (curves, tables, significance, flipped
    queries with their top chunks against gold when ``--data`` or ``$SAC_DATA_DIR`` is given)."""
    import pandas as pd

    results = [str(p) for p in params["results"]]
    folder = Path(results[0]).parent
    sig_path, pq_path = SweepFolder(folder).significance, SweepFolder(folder).per_query
    significance = read_table(sig_path) if sig_path.is_file() else None
    per_query = read_table(pq_path) if pq_path.is_file() else None
    examples: list = []
    names: list[str] = []
    variants = list(dict.fromkeys(table["variant"]))
    if pq_path.is_file() and len(variants) >= 2:
        if params.get("flip"):
            names = [v.strip() for v in params["flip"].split(",")]
            if len(names) != 2 or not all(v in variants for v in names):
                raise ValueError(f"--flip needs two variants of the table: {', '.join(variants)}")
        else:  # the plain baseline against the variant with the lowest mean DRM over k
            best = mean_over_k(table).reset_index().sort_values("drm")["variant"].iloc[0]
            names = [variants[0], best if best != variants[0] else variants[1]]
        examples = examples_from_folder(folder, table, per_query, names[0], names[1], "drm", params["k"])
    bench = None
    if examples and (params.get("data") or os.environ.get(DATA_ENV)):
        row = table.iloc[0]
        seed = None if pd.isna(row.get("seed")) else int(row["seed"])
        datasets = tuple(str(row["datasets"]).split(","))
        bench = load_benchmark(resolve_data_dir(params.get("data")), datasets, row["protocol"], seed)
    title = f"Retrieval report: {', '.join(dict.fromkeys(Path(p).parent.name for p in results))}"
    notes = [f"From {', '.join(results)}; {len(variants)} variants."]
    page = render(
        table,
        title=title,
        k=params["k"],
        significance=significance,
        examples=examples,
        example_names=names,
        bench=bench,
        notes=notes,
        per_query=per_query,
    )
    params["html"].parent.mkdir(parents=True, exist_ok=True)
    params["html"].write_text(page, encoding="utf-8")
    print(f"HTML report ({len(page) / 1e6:.1f} MB, self-contained) → {params['html']}")


COMMANDS = (runs_group, export_command, compare_command)
