"""``sac evaluate`` (one configuration over every query, scored) and ``sac index`` (build and save
the indexes the Compare page opens, or one method's)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from ..engine.data import load_benchmark, write_csv
from ..engine.embedding import Embedders
from ..engine.retrieval.sentences import MAX_SENTENCE_CHARS
from ..engine.summaries import SummaryConfig
from ..experiments import (
    METHODS,
    OpenContext,
    RunConfig,
    catalogue,
    catalogue_columns,
    evaluate,
    format_results,
    open_method,
    write_run,
)
from ..experiments.catalogue import preset_config
from ..experiments.evaluate import summaries_read
from ..experiments.executors import embed_ahead
from ..experiments.index_store import embed_queries
from ..experiments.methods import with_bank
from ..experiments.sentence_store import open_sentences
from ..experiments.settings import OPTION_PREFIX, SUMMARY_PREFIX
from .options import (
    DATA,
    EXECUTION,
    INDEX,
    METHOD,
    RANKING,
    SUMMARIES,
    PluginHelp,
    cache_dir_of,
    data_dir_of,
    executor_of,
    optional_data_dir,
    run_config,
    say,
)
from .params import OUT_FILE, Registered


@click.command("evaluate", cls=PluginHelp)
@DATA
@METHOD
@INDEX
@RANKING
@SUMMARIES
@click.option("--out", type=OUT_FILE, help="results table (CSV)")
@click.option("--run-out", type=OUT_FILE, help="run file (JSONL)")
@click.option("--per-query-out", type=OUT_FILE, help="per-query metrics (CSV)")
@click.option("--save-index", is_flag=True, help="save the index this run builds (see `sac index`)")
@click.option("--preset", metavar="KEY", help="run a named method of the catalogue (`sac presets` lists them)")
@click.option(
    "--bank",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="the labelled examples a preset with clause exemplars reads (default: the data folder)",
)
@click.option(
    "--retriever",
    metavar="MODULE:FACTORY",
    help="a live retriever: any object with retrieve(query, k) -> snippets (sets --method retriever)",
)
def evaluate_command(**params: Any) -> int:
    """Retrieve for every query and score DRM, precision, recall, ..."""
    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    config = run_config(params, data_dir)
    if params["preset"]:
        try:
            config = preset_config(config, params["preset"])
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="'--preset'") from None
    if params["bank"]:
        config = with_bank(config, params["bank"])
    if params["retriever"]:
        options = (*config.options, ("retriever.factory", params["retriever"]))
        config = config.with_(method="retriever", options=options)
    start = time.perf_counter()
    bench = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
    say(f"{config.protocol}: {len(bench.queries)} queries, {len(bench.documents)} documents; variant {config.variant}")
    progress = not params["quiet"]
    ctx = OpenContext(
        bench, data_dir, cache_dir, Embedders(cache_dir), progress=progress, save=params["save_index"], notes=say
    )
    for read in summaries_read(config, ctx):
        say(read.describe())
    ev = evaluate(config, ctx)
    wall = time.perf_counter() - start
    ev.results["wall_seconds"] = round(wall, 1)
    if params["out"]:
        params["out"].parent.mkdir(parents=True, exist_ok=True)
        write_csv(ev.results, params["out"])
    if params["run_out"]:
        write_run(params["run_out"], ev.run)
    if params["per_query_out"]:
        write_csv(ev.per_query, params["per_query_out"])
    print(format_results(ev.results))
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in ev.seconds.items())
    chunks = ev.results["n_chunks"].iloc[0]
    built = "no index" if chunks != chunks else f"{int(chunks)} chunks"  # NaN: a method without an index
    print(f"\n{built}; wall time {wall:.1f}s ({stages})")
    for path, what in ((params["out"], "results"), (params["run_out"], "run"), (params["per_query_out"], "per-query")):
        if path:
            say(f"{what} written to {path}")
    return 0


@click.command("index")
@DATA
@click.option("--method", type=Registered(METHODS), help="one index instead of the Compare page's")
@INDEX
@SUMMARIES
@click.option("--force", is_flag=True, help="rebuild even when a fresh saved index exists")
@click.option("--sentences", is_flag=True, help="also embed every document's sentences (passage methods in Compare)")
@EXECUTION
def index_command(**params: Any) -> int:
    """Build and save everything the dashboard's default columns open (Compare, Map, Review: their
    indexes and what their stages read), or one method's, so they load in seconds."""
    data_dir, cache_dir = data_dir_of(params), cache_dir_of(params)
    base = run_config(params, data_dir)
    start = time.perf_counter()
    bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
    if params["method"]:
        configs = [(params["method"], base)]
    else:  # exactly what the Compare page opens for these settings (and this data)
        configs = [(col.name, col.config) for col in catalogue_columns(base, bench=bench)]
    say(f"{base.protocol}: {len(bench.documents)} documents; {len(configs)} index(es)")
    embedders = Embedders(cache_dir)
    ctx = OpenContext(bench, data_dir, cache_dir, embedders, progress=not params["quiet"], save=True, notes=say)
    for name, config in configs:
        _build_index(name, config, ctx, params)
        if config.stages:  # e.g. the recommended method's clause exemplars: embedded now, not on the page
            t0 = time.perf_counter()
            open_method(config, ctx)
            print(f"{name}: what its stages read is ready ({time.perf_counter() - t0:.1f}s)")
    models = {(c.model, c.backend): c for _, c in configs if c.method_plugin.indexer() is not None}
    for config in models.values():  # Compare then answers a benchmark query without loading the model
        new = embed_queries(bench, config, embedders, progress=not params["quiet"])
        print(f"{len(bench.queries):,} benchmark queries ({config.backend}): {new:,} embedded now, the rest cached")
    if params["sentences"]:  # what the passage methods' Compare columns need beyond the indexes
        t0 = time.perf_counter()
        open_sentences(base, ctx, MAX_SENTENCE_CHARS)
        print(f"sentences of {len(bench.documents)} documents embedded or found in {time.perf_counter() - t0:.1f}s")
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def _build_index(name: str, config: RunConfig, ctx: OpenContext, params: dict[str, Any]) -> None:
    """Build and save ``config``'s index unless a fresh one is saved (``--force``: always), saying which."""
    t0 = time.perf_counter()
    indexer = config.method_plugin.indexer()
    if indexer is None:
        print(f"{name} ({config.variant}): method {config.method!r} has no index to build")
        return
    check = indexer.check(config, ctx)
    if check.fresh and not params["force"]:
        print(f"{name} ({config.variant}): already built and fresh in {check.folder}")
        return
    if check.state == "stale":
        say(f"{name} ({config.variant}): the saved index is stale ({check.reason}); rebuilding")
    executor = executor_of(params)
    ray_done = embed_ahead([(config, ctx)], executor, progress=False, desc=name) if executor.kind != "local" else None
    encoded = ctx.embedders.encoded
    retriever = indexer.build(config, ctx)
    seconds = time.perf_counter() - t0
    new = ctx.embedders.encoded - encoded + (ray_done["embedded"] if ray_done else 0)
    rate = f", {new / seconds:.0f} texts/s" if new else ""
    print(
        f"{name} ({config.variant}, {config.backend}): {len(retriever.pool):,} chunks, {new:,} texts embedded now, "
        f"{seconds:.1f}s{rate} → {check.folder}"
    )


@click.command("presets")
@click.option("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR; without one: with its LLM summaries)")
def presets_command(**params: Any) -> int:
    """List the named methods: the key `sac evaluate --preset` and Compare take, what each runs."""
    data_dir = optional_data_dir(params)
    if data_dir:
        base = run_config({"datasets": "all"}, data_dir)
    else:  # as on LegalBench-RAG, whose summaries/llm.jsonl the SAC presets read
        base = RunConfig(summary=SummaryConfig(provider="file"))
        say(
            "No data folder (--data or $SAC_DATA_DIR): the presets as they run on LegalBench-RAG, with the LLM "
            "summaries of its summaries/llm.jsonl. On a folder without that file, sac-generic runs SAC on "
            "extractive summaries (SAC extractive) and sac-expert is not offered."
        )
    entries = catalogue(base)
    width = max(map(len, entries), default=0)
    for key, preset in entries.items():
        mark = " (a default Compare column)" if preset.default else ""
        runs = " · ".join([preset.config.variant, *_beyond_variant(preset.config, base)])
        print(f"{key:<{width}}  {preset.title}{mark}\n{'':<{width}}  {runs}")
    return 0


def _beyond_variant(config: RunConfig, base: RunConfig) -> list[str]:
    """The settings a preset changes that its variant id does not name (``semantic_weight 0.5``: the
    hybrid baseline's id is ``baseline``); the method, summaries and plug-in options are in the id."""
    named = ("method", "variant", "stages")
    mine, theirs = config.columns(), base.columns()
    return [
        f"{column} {value}"
        for column, value in mine.items()
        if column not in named
        and not column.startswith((OPTION_PREFIX, SUMMARY_PREFIX))
        and value != theirs.get(column)
    ]


COMMANDS = (evaluate_command, index_command, presets_command)
