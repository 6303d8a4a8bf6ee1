"""``sac``: the command line. Each subcommand parses flags into a RunConfig and calls sac_core."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from .dashboard import review as rv
from .dashboard.compare import compare_columns
from .dashboard.screenshots import ScreenshotError, take_screenshots
from .dashboard.timing import compare_cold, compare_reruns, concurrent_first_results, tune_stops
from .engine.chunking import CHUNKERS
from .engine.data import (
    CACHE_ENV,
    PROTOCOLS,
    BenchmarkError,
    default_cache_dir,
    ingest_folder,
    load_benchmark,
    parse_datasets,
    read_queries,
    resolve_data_dir,
    write_demo_corpus,
    write_heldout,
)
from .engine.embedding import BACKENDS, DEFAULT_MODEL, Embedder, Embedders, default_backend
from .engine.indexes import load_index
from .engine.metrics import DEFAULT_KS
from .engine.retrieval import Signals, build_pool
from .engine.retrieval.sentences import MAX_SENTENCE_CHARS
from .engine.summaries import SummaryConfig, SummaryError, estimate_cost, run_cost, summarize_documents
from .experiments import (
    METHODS,
    NotBuilt,
    OpenContext,
    RunConfig,
    Workspace,
    evaluate,
    format_results,
    load_sweep,
    run_sweep,
    write_run,
)
from .experiments.bench import (
    MEMORY_COLUMNS,
    ann_figures,
    cache_write_cost,
    cell_build_seconds,
    cold_build,
    encode_vs_build,
    executor_throughput,
    loaded_memory,
    memory_configs,
    new_question_latency,
    peak_rss_mb,
    query_latency,
    warm_sweep_seconds,
)
from .experiments.config import OptionValue, parse_option
from .experiments.evaluate import indexed_chunks, summaries_read
from .experiments.executors import EXECUTORS, Executor, prefill, prefill_summaries
from .experiments.index_store import index_folder
from .experiments.methods import SAC_METHOD, IndexMethod
from .experiments.noname import write_noname
from .experiments.report import (
    at_k,
    backend_changes,
    by_halves,
    legalbench_shape,
    mean_over_k,
    pair_table,
    read_results,
    without_queries,
)
from .experiments.sentence_store import open_sentences
from .experiments.separation import NEIGHBOURS, correlations, grid_separation, index_separation, open_index_retriever


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(x) for x in text.split(",")}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--k takes comma-separated integers, got {text!r}") from None
    if not ks or min(ks) < 1:
        raise argparse.ArgumentTypeError("--k values must be >= 1")
    return ks


def _add_data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", help=f"LegalBench-RAG directory (default: ${{{'SAC_DATA_DIR'}}})")
    p.add_argument("--protocol", default="lbr-mini", choices=PROTOCOLS)
    p.add_argument("--datasets", default="all", help="'all' or comma list, e.g. cuad,maud")
    p.add_argument("--seed", type=int, help="shuffle seed for --protocol paper (default: the paper's)")
    p.add_argument("--cache-dir", type=Path, default=None, help=f"default: ${CACHE_ENV} or ./cache")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def _add_summary_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--provider",
        default=None,
        choices=["extractive", "openai", "file"],
        help="summary source (default: file if --summary-file or <data>/summaries/llm.jsonl exists, "
        "else openai if OPENAI_API_KEY is set, else extractive)",
    )
    p.add_argument("--prompt", default="generic", help="generic | expert | path to a prompt JSON file")
    p.add_argument("--chars", type=int, default=150, help="target summary length in characters")
    p.add_argument("--summary-file", type=Path, help="JSONL of summaries for --provider file")
    p.add_argument("--llm-model", default="gpt-4o-mini", help="model name for --provider openai")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    p.add_argument("--concurrency", type=int, default=4, help="parallel requests for --provider openai")


def _add_llm_args(p: argparse.ArgumentParser) -> None:
    """Settings of the openai provider that only `sac summarize` exposes (evaluate uses defaults)."""
    p.add_argument("--temperature", type=float, default=0.0)
    p.add_argument("--max-length-retries", type=int, default=10, help="re-asks, each 20 characters shorter")
    p.add_argument("--max-input-tokens", type=int, default=64_000, help="longer documents: head + tail")
    p.add_argument("--api-retries", type=int, default=5, help="retries on 429, 5xx and timeouts")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per request")
    p.add_argument("--price-input", type=float, default=0.15, help="USD per 1M input tokens")
    p.add_argument("--price-output", type=float, default=0.60, help="USD per 1M output tokens")


def summary_config(args: argparse.Namespace, data_dir: Path) -> SummaryConfig:
    provider = args.provider
    if provider is None:
        if args.summary_file or (data_dir / "summaries" / "llm.jsonl").exists():
            provider = "file"
        else:
            provider = "openai" if os.environ.get("OPENAI_API_KEY") else "extractive"
    extra = {}
    if hasattr(args, "temperature"):  # `sac summarize`
        extra = dict(
            temperature=args.temperature,
            max_retries_length=args.max_length_retries,
            max_input_tokens=args.max_input_tokens,
            max_retries_api=args.api_retries,
            timeout=args.timeout,
            price_input_per_m=args.price_input,
            price_output_per_m=args.price_output,
        )
    config = SummaryConfig(
        provider=provider,
        prompt=args.prompt,
        chars=args.chars,
        model=args.llm_model,
        base_url=args.base_url,
        concurrency=args.concurrency,
        summary_file=args.summary_file,
        **extra,
    )
    return config.resolved(data_dir)


def _executor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--executor", default="local", choices=EXECUTORS,
                   help="where summaries and embeddings are computed: this process, or Ray (pip install .[scale])")  # fmt: skip
    p.add_argument("--ray-address", help="an existing Ray cluster (default: start a local Ray instance)")
    p.add_argument("--ray-workers", type=int, help="CPUs of the local Ray instance (default: all)")
    p.add_argument("--partitions", type=int, default=8, help="tasks per job (documents are split among them)")


def _executor(args: argparse.Namespace) -> Executor:
    return Executor(args.executor, args.ray_address, args.ray_workers, args.partitions)


def _index_args(p: argparse.ArgumentParser) -> None:
    """The settings that decide what an index holds (shared by `evaluate` and `index`)."""
    p.add_argument("--chunker", default="rcts", choices=list(CHUNKERS))
    p.add_argument("--chunk-size", type=int, default=500, help="characters")
    p.add_argument("--chunk-overlap", type=int, default=0, help="characters")
    p.add_argument("--model", default=DEFAULT_MODEL, help="sentence-transformers name or local path")
    p.add_argument(
        "--backend",
        default=default_backend(),
        choices=BACKENDS,
        help="embedding runtime (default: onnx when installed)",
    )


def cmd_index(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    cache_dir = args.cache_dir or default_cache_dir()
    base = RunConfig(
        protocol=args.protocol,
        datasets=parse_datasets(args.datasets, data_dir),
        seed=args.seed,
        chunker=args.chunker,
        chunk_size=args.chunk_size,
        chunk_overlap=args.chunk_overlap,
        model=args.model,
        backend=args.backend,
        summary=summary_config(args, data_dir),
    )
    if args.method:
        configs = [(args.method, base.with_(method=args.method))]
    else:  # exactly what the Compare page opens for these settings
        configs = [(col.name, col.config) for col in compare_columns(base)]
    start = time.perf_counter()
    bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
    print(f"{base.protocol}: {len(bench.documents)} documents; {len(configs)} index(es)", file=sys.stderr)
    embedders = Embedders(cache_dir)
    say = lambda message: print(message, file=sys.stderr)
    ctx = OpenContext(bench, data_dir, cache_dir, embedders, progress=not args.quiet, save=True, notes=say)
    for name, config in configs:
        t0 = time.perf_counter()
        method = config.method_plugin
        if not isinstance(method, IndexMethod):
            print(f"{name} ({config.variant}): method {config.method!r} has no index to build")
            continue
        check = method.check(config, ctx)
        if check.fresh and not args.force:
            print(f"{name} ({config.variant}): already built and fresh in {check.folder}")
            continue
        if check.state == "stale":
            print(f"{name} ({config.variant}): the saved index is stale ({check.reason}); rebuilding", file=sys.stderr)
        executor = _executor(args)
        ray_done = prefill(config, ctx, executor) if executor.kind != "local" else None
        encoded = embedders.encoded
        retriever = method.build(config, ctx)
        seconds = time.perf_counter() - t0
        new = embedders.encoded - encoded + (ray_done["embedded"] if ray_done else 0)
        rate = f", {new / seconds:.0f} texts/s" if new else ""
        print(
            f"{name} ({config.variant}, {config.backend}): {len(retriever.pool):,} chunks, {new:,} texts embedded now, "
            f"{seconds:.1f}s{rate} → {check.folder}"
        )
    if args.sentences:  # what the passage methods' Compare columns need beyond the indexes
        t0 = time.perf_counter()
        open_sentences(base, ctx, MAX_SENTENCE_CHARS)
        print(f"sentences of {len(bench.documents)} documents embedded or found in {time.perf_counter() - t0:.1f}s")
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def cmd_summarize(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    cache_dir = args.cache_dir or default_cache_dir()
    config = summary_config(args, data_dir)
    bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), args.protocol, args.seed)
    texts = {fp: d.text for fp, d in bench.documents.items()}
    before = estimate_cost(texts, config, cache_dir)
    print(
        f"{len(texts)} documents, {len(texts) - before.documents} already cached; "
        f"provider {config.provider}, prompt {config.prompt_name}, {config.chars} characters",
        file=sys.stderr,
    )
    if config.provider == "openai":
        print(
            f"estimate for the {before.documents} to request: ~{before.input_tokens:,} input + "
            f"~{before.output_tokens:,} output tokens ≈ ${before.usd:.2f}",
            file=sys.stderr,
        )
    if args.estimate_only:
        return 0
    start = time.perf_counter()
    if args.executor != "local":
        prefill_summaries(texts, config, cache_dir, _executor(args))
    records = summarize_documents(texts, config, cache_dir, progress=not args.quiet)  # key from $OPENAI_API_KEY
    wall = time.perf_counter() - start
    after = run_cost(records, config)
    retried = sum(len(r.attempts) > 1 for r in records.values())
    lengths = [len(r.summary) for r in records.values()]
    print(
        f"{len(records)} summaries ({sum(r.cached for r in records.values())} from cache, {retried} needed "
        f"length retries); length min/mean/max {min(lengths)}/{sum(lengths) / len(lengths):.0f}/{max(lengths)} "
        f"characters; {wall:.1f}s"
    )
    if config.provider == "openai":
        print(f"this run: {after.input_tokens:,} input + {after.output_tokens:,} output tokens ≈ ${after.usd:.4f}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("w", encoding="utf-8") as f:
            for r in sorted(records.values(), key=lambda r: r.file_path):
                row = {
                    "file_path": r.file_path,
                    "prompt": config.prompt_name,
                    "chars": r.chars,
                    "summary": r.summary,
                    "provider": r.provider,
                    "model": r.model,
                }
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"written to {args.out} (the format --provider file reads)")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    cache_dir = args.cache_dir or default_cache_dir()
    config = RunConfig(
        protocol=args.protocol,
        datasets=parse_datasets(args.datasets, data_dir),
        seed=args.seed,
        method=args.method,
        chunker=args.chunker,
        chunk_size=args.chunk_size,
        chunk_overlap=args.chunk_overlap,
        model=args.model,
        backend=args.backend,
        semantic_weight=args.semantic_weight,
        fusion_depth=args.fusion_depth,
        ks=args.k,
        metric_mode=args.metric_mode,
        summary=summary_config(args, data_dir),
        signals=args.signals,
        options=tuple(args.option),
    )
    start = time.perf_counter()
    bench = load_benchmark(data_dir, config.datasets, config.protocol, config.seed)
    print(
        f"{config.protocol}: {len(bench.queries)} queries, {len(bench.documents)} documents; variant {config.variant}",
        file=sys.stderr,
    )
    say = lambda message: print(message, file=sys.stderr)
    ctx = OpenContext(
        bench, data_dir, cache_dir, Embedders(cache_dir), progress=not args.quiet, save=args.save_index, notes=say
    )
    for read in summaries_read(config, ctx):
        say(read.describe())
    ev = evaluate(config, ctx)
    wall = time.perf_counter() - start
    ev.results["wall_seconds"] = round(wall, 1)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        ev.results.to_csv(args.out, index=False)
    if args.run_out:
        write_run(args.run_out, ev.run)
    if args.per_query_out:
        ev.per_query.to_csv(args.per_query_out, index=False)
    print(format_results(ev.results))
    stages = ", ".join(f"{k} {v:.1f}s" for k, v in ev.seconds.items())
    print(f"\n{int(ev.results['n_chunks'].iloc[0])} chunks; wall time {wall:.1f}s ({stages})")
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    sweep = load_sweep(args.config)
    data_dir = resolve_data_dir(args.data)
    out_dir = args.out or Path("results") / sweep.name
    start = time.perf_counter()
    print(f"sweep {sweep.name}: {len(sweep.cells)} cells → {out_dir}", file=sys.stderr)
    table = run_sweep(
        sweep,
        data_dir,
        args.cache_dir or default_cache_dir(),
        out_dir,
        progress=not args.quiet,
        cached_only=args.cached_only,
    )
    if args.cached_only:
        print(f"{table['cell'].nunique()} of {len(sweep.cells)} cells were cached and are written", file=sys.stderr)
    print("means over k, ALL datasets (%):")
    summary = mean_over_k(table)
    print(summary.round(2).to_string())
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def _bench_engine(args: argparse.Namespace, parts: tuple[str, ...], data_dir: Path, cache_dir: Path) -> None:
    """(a) throughput, (b) query latency, (c) memory, (e) cost of per-batch cache writes."""
    base = RunConfig(
        protocol=args.protocol,
        datasets=parse_datasets(args.datasets, data_dir),
        summary=SummaryConfig(provider="file", chars=150).resolved(data_dir),
    )
    t0 = time.perf_counter()
    ws = Workspace.load(data_dir, cache_dir, base)
    load_s = time.perf_counter() - t0
    if "memory" in parts:
        lat = query_latency(ws, args.queries, args.k)  # also loads the model
        n_chunks = sum(indexed_chunks(r) or 0 for r in ws.retrievers.values())
        print(f"(c) three indexes of {args.protocol} loaded ({n_chunks:,} chunks in all) in {load_s:.1f}s, model "
              f"loaded, {lat['queries']} queries run: peak RSS {peak_rss_mb():,.0f} MB")  # fmt: skip
        print(f"(b) three-way query latency, warm, k={args.k}, model encodes each query: "
              f"p50 {lat['p50_ms']:.1f} ms, p95 {lat['p95_ms']:.1f} ms over {lat['queries']} queries")  # fmt: skip
    if "throughput" in parts:
        for backend in args.backends.split(","):
            r = encode_vs_build(ws.bench, base, args.chunks, backend)
            print(f"(a) {backend:9s}: raw encode {r['raw_per_s']:.1f} chunks/s, index build {r['build_per_s']:.1f} "
                  f"chunks/s over the same {r['chunks']} chunks; build/raw = {r['ratio']:.2f}")  # fmt: skip
    if "cache-writes" in parts:
        pool = build_pool(
            ws.bench.documents, chunker=base.chunker, chunk_size=base.chunk_size, chunk_overlap=base.chunk_overlap
        )
        texts = list(pool.indexed[:: max(1, len(pool) // args.chunks)][: args.chunks])
        for backend in args.backends.split(","):
            rates = cache_write_cost(texts, base.model, backend)
            fine, coarse = rates[32], rates[512]
            print(f"(e) {backend:9s}: embedding {len(texts)} chunks into a fresh cache, a transaction and a progress "
                  f"update every 32 texts: {fine:.1f} texts/s; every 512: {coarse:.1f} texts/s "
                  f"({(coarse - fine) / coarse:+.1%} cost of the finer resume points)")  # fmt: skip


def _bench_dashboard(args: argparse.Namespace, data_dir: Path | None, cache_dir: Path) -> None:
    """(f) Compare: first result and server time of a rerun; (g) concurrent browser sessions."""
    env = {"SAC_CACHE_DIR": str(Path(cache_dir).resolve())}
    where = "the demo corpus"
    if data_dir is not None:
        env["SAC_DATA_DIR"] = str(Path(data_dir).resolve())
        where = f"{args.protocol} of {data_dir.name}"
    first, typed, reruns = compare_reruns(env, args.reruns)
    print(f"(f) Compare on {where}: first ranked chunks after {first:.1f}s in a fresh server; the first typed "
          f"question {typed:,.0f} ms of server time; then a warm rerun (a new question each time): {reruns}")  # fmt: skip
    crowd, server_cpu = concurrent_first_results(env, args.browsers)
    print(f"(g) {args.browsers} browser sessions opening Compare at once (warm server): first ranked chunks {crowd}; "
          f"the server used {server_cpu:.1f} CPU-seconds for them, the rest of the wall time is the browsers' "
          "(they share the machine's cores)")  # fmt: skip


def _bench_tune(args: argparse.Namespace, data_dir: Path, cache_dir: Path) -> None:
    """(h) Tune: a committed grid stop, and an off-grid chunk size built cold."""
    env = {"SAC_CACHE_DIR": str(Path(cache_dir).resolve()), "SAC_DATA_DIR": str(Path(data_dir).resolve())}
    shown, server = tune_stops(env)
    print(f"(h) Tune, a committed grid stop (chunk 500 <-> 800): new answer on screen {shown}; server time of the "
          f"Tune run {server}")  # fmt: skip
    bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), args.protocol)
    base = RunConfig(protocol=args.protocol, datasets=bench.datasets, summary=SummaryConfig(provider="file"))
    with tempfile.TemporaryDirectory() as tmp:
        off = cell_build_seconds(bench, base, data_dir, Path(tmp), args.off_grid)  # a cold cache
    print(f"(h) Tune, an off-grid chunk size ({args.off_grid}): baseline and SAC generic-150 built and every query "
          f"evaluated in {off['seconds']:.0f}s ({off['encoded']:,} texts embedded, {off['per_s']:.0f} texts/s)")  # fmt: skip


def _bench_ann(args: argparse.Namespace, data_dir: Path, cache_dir: Path) -> None:
    """(l) HNSW against the exact index on a saved pool (default: the paper protocol's SAC generic-150)."""
    protocol = args.ann_protocol
    bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), protocol)
    config = RunConfig(protocol=protocol, datasets=bench.datasets, method=args.ann_method,
                       summary=SummaryConfig(provider="file", chars=150))  # fmt: skip
    saved = load_index(index_folder(cache_dir, config))
    if saved is None or saved.dense is None or saved.dense.kind != "flat":
        raise ValueError(f"(l) needs the exact saved index of {config.variant} on {protocol}: "
                         f"run `sac index --protocol {protocol}` first")  # fmt: skip
    queries = Embedder(config.model, cache_dir, backend=config.backend).encode(
        [q.text for q in bench.queries], progress=False
    )
    r = ann_figures(saved.dense, queries, DEFAULT_KS, config.hnsw_m, config.ef_search)
    recall = ", ".join(f"@{k} {v:.3f}" for k, v in r["recall"].items())
    (fp50, fp95), (hp50, hp95) = r["latency"]["flat"], r["latency"]["hnsw"]
    print(f"(l) {protocol}, {config.variant}, {r['chunks']:,} chunks: HNSW (M={config.hnsw_m}, efConstruction 200, "
          f"efSearch {config.ef_search}) built in {r['build_s']:.0f}s; recall of the exact top-k over "
          f"{len(bench.queries)} queries {recall}; one query, top 64: exact p50 {fp50:.1f} ms / p95 {fp95:.1f} ms, "
          f"HNSW p50 {hp50:.2f} ms / p95 {hp95:.2f} ms")  # fmt: skip


def _bench_passages(args: argparse.Namespace, data_dir: Path, cache_dir: Path) -> None:
    """(n) Compare with a passage method, on prebuilt indexes: server time of a new question."""
    base = RunConfig(
        protocol=args.protocol,
        datasets=parse_datasets(args.datasets, data_dir),
        summary=SummaryConfig(provider="file", chars=150).resolved(data_dir),
    )
    for key in args.passage_methods.split(","):
        try:
            r = new_question_latency(data_dir, cache_dir, base, key, args.queries, args.k)
        except NotBuilt as e:
            print(f"(n) {key}: not prebuilt ({e}); run `sac index` first")
            continue
        print(f"(n) Compare column {key} ({r['variant']}) on prebuilt {args.protocol} indexes, opened in "
              f"{r['open_s']:.1f}s; a new question, k={args.k}, model encodes it: p50 {r['p50_ms']:.0f} ms, "
              f"p95 {r['p95_ms']:.0f} ms over {r['queries']} questions (target: 1 s)")  # fmt: skip


def _bench_ray(args: argparse.Namespace, data_dir: Path) -> None:
    """(m) embedding in this process against a local Ray instance, and the expected scaling."""
    bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), args.protocol)
    pool = build_pool(bench.documents)
    texts = list(dict.fromkeys(pool.indexed[:: max(1, len(pool) // args.chunks)]))[: args.chunks]
    backend = default_backend()
    local = executor_throughput(texts, DEFAULT_MODEL, backend, Executor("local", partitions=1))
    workers = args.ray_workers or os.cpu_count() or 1
    remote = executor_throughput(
        texts, DEFAULT_MODEL, backend, Executor("ray", workers=workers, partitions=2 * workers)
    )
    print(f"(m) {len(texts)} chunks, {backend}: in this process {local['per_s']:.0f} texts/s; local Ray with {workers} "
          f"workers {remote['per_s']:.0f} texts/s ({remote['seconds']:.0f}s with start-up, {remote['tasks']} tasks, one "
          f"task {remote['task_per_s']:.0f} texts/s); on {os.cpu_count()} cores Ray cannot be faster: every worker "
          f"shares them. With W workers on machines of their own, expect about W × {remote['task_per_s']:.0f} "
          "texts/s while the tasks run (the driver then only reads the cache and builds the index)")  # fmt: skip


def _bench_cold(args: argparse.Namespace, parts: tuple[str, ...], data_dir: Path, cache_dir: Path) -> None:
    """(i) Compare on an empty cache, (j) cold builds per backend, (k) memory with the paper's indexes."""
    if "cold-start" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            cold = compare_cold({"SAC_DATA_DIR": str(Path(data_dir).resolve())}, Path(tmp))
        print(f"(i) Compare on an empty cache ({args.protocol}): first ranked chunks after {cold['first_s']:.0f}s (the "
              f"first index built), all three after {cold['all_s']:.0f}s; the builds embedded {cold['texts']:,} texts "
              f"at {cold['per_s']:.0f} texts/s, chunking and model loads included")  # fmt: skip
    if "cold-build" in parts:
        bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), args.protocol)
        base = RunConfig(protocol=args.protocol, datasets=bench.datasets, summary=SummaryConfig(provider="file"))
        configs = [col.config for col in compare_columns(base)]
        for backend in args.backends.split(","):
            built = cold_build(bench, configs, data_dir, backend)
            print(f"(j) {backend:9s}: cold build of the {len(configs)} Compare indexes of {args.protocol} "
                  f"({built['texts']:,} chunks, {built['encoded']:,} embedded): {built['seconds'] / 60:.1f} min, "
                  f"{built['per_s']:.0f} texts/s")  # fmt: skip
    if "paper-memory" in parts:
        bench = load_benchmark(data_dir, parse_datasets(args.datasets, data_dir), "paper")
        base = RunConfig(protocol="paper", datasets=bench.datasets, summary=SummaryConfig(provider="file", chars=150))
        for config in dict.fromkeys(memory_configs(base, args.memory_columns)):  # baseline-x3: checked once
            method = config.method_plugin
            ctx = OpenContext(bench, data_dir, cache_dir, Embedders(cache_dir))
            if not isinstance(method, IndexMethod):
                raise ValueError(f"(k) method {config.method!r} has no index")
            check = method.check(config, ctx)
            if not check.fresh:
                raise ValueError(f"(k) needs the saved index of {config.variant} on the paper protocol ({check.reason}): "
                                 f"run `sac index --protocol paper` first, or --memory-columns baseline-x3")  # fmt: skip
        m = loaded_memory(data_dir, Path(cache_dir), "paper", bench.datasets, args.memory_columns)
        which = "the three Compare indexes" if args.memory_columns == "compare" else "the baseline index three times"
        print(f"(k) {which} of the paper protocol ({m['chunks']:,} chunks) loaded from disk in "
              f"{m['load_s']:.1f}s and one query run, in a fresh process: peak RSS {m['peak_rss_mb']:,.0f} MB")  # fmt: skip


BENCH_PARTS = (
    "memory", "throughput", "sweep", "cache-writes", "dashboard", "tune", "ann", "ray", "passages",
    "cold-start", "cold-build", "paper-memory",
)  # fmt: skip
SLOW_PARTS = ("cold-start", "cold-build", "paper-memory")  # minutes each: only when named in --parts
DATA_PARTS = (
    "memory",
    "throughput",
    "cache-writes",
    "sweep",
    "tune",
    "ann",
    "ray",
    "passages",
    *SLOW_PARTS,
)  # need LegalBench-RAG


def cmd_bench(args: argparse.Namespace) -> int:
    parts = (
        tuple(p for p in BENCH_PARTS if p not in SLOW_PARTS) if args.parts == "all" else tuple(args.parts.split(","))
    )
    unknown = set(parts) - set(BENCH_PARTS)
    if unknown:
        raise ValueError(f"--parts: unknown {', '.join(sorted(unknown))}; choose from {', '.join(BENCH_PARTS)}")
    data_dir = resolve_data_dir(args.data) if (args.data or os.environ.get("SAC_DATA_DIR")) else None
    cache_dir = args.cache_dir or default_cache_dir()
    if data_dir is None and set(parts) & set(DATA_PARTS):
        print(f"without --data (or $SAC_DATA_DIR) only the dashboard part runs, on the demo corpus; skipped: "
              f"{', '.join(p for p in parts if p in DATA_PARTS)}", file=sys.stderr)  # fmt: skip
    if data_dir is not None:
        if {"memory", "throughput", "cache-writes"} & set(parts):
            _bench_engine(args, parts, data_dir, cache_dir)
        if "sweep" in parts and args.sweep:
            cached, total, seconds = warm_sweep_seconds(args.sweep, data_dir, cache_dir)
            print(f"(d) warm sweep {args.sweep}: {cached}/{total} cells cached, rerun from cache in {seconds:.1f}s")
    if "dashboard" in parts:
        _bench_dashboard(args, data_dir, cache_dir)
    if data_dir is not None:
        if "tune" in parts:
            _bench_tune(args, data_dir, cache_dir)
        if "ann" in parts:
            _bench_ann(args, data_dir, cache_dir)
        if "ray" in parts:
            _bench_ray(args, data_dir)
        if "passages" in parts:
            _bench_passages(args, data_dir, cache_dir)
        _bench_cold(args, parts, data_dir, cache_dir)
    print(f"peak RSS at the end {peak_rss_mb():,.0f} MB")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    table = read_results(args.results)
    if args.without_queries_of:
        per_query_path = Path(args.results[0]).parent / "per_query.csv.gz"
        if not per_query_path.is_file():
            raise SystemExit(f"--without-queries-of needs {per_query_path} (a sweep's per-query results)")
        seen = load_benchmark(resolve_data_dir(args.data), "all", args.without_queries_of).queries
        table = without_queries(table, pd.read_csv(per_query_path), {q.query_id for q in seen})
        print(f"without the {len(seen)} queries of protocol {args.without_queries_of}:")
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        fixed = {
            c: table[c].iloc[0]
            for c in ("protocol", "model", "backend", "chunk_size", "semantic_weight")
            if c in table.columns and table[c].nunique(dropna=False) == 1
        }
        print("setting: " + ", ".join(f"{c}={v}" for c, v in fixed.items()))
        ks = ",".join(str(int(k)) for k in sorted(table["k"].unique()))
        print(f"precision / recall / DRM (%), ALL datasets, mean over k = {ks}:")
        print(mean_over_k(table).to_string())
        for metric in ("drm", "precision", "recall"):
            print(f"\n{metric}@{args.k} per dataset (%):")
            print(at_k(table, args.k, metric).to_string())
        if {1, 64} <= set(table["k"].astype(int)):
            print("\nLegalBench-RAG's shape: precision@1 and recall@64 per dataset (%):")
            print(legalbench_shape(table).round(2).to_string())
        per_query_file = Path(args.results[0]).parent / "per_query.csv.gz"
        if args.halves or args.pair:
            if not per_query_file.is_file():
                raise SystemExit(f"--halves / --pair need {per_query_file} (a sweep's per-query results)")
            per_query_table = pd.read_csv(per_query_file)
        if args.halves:
            data_dir = resolve_data_dir(args.data)
            owner = {
                q.query_id: q.gold[0].file_path
                for ds in sorted(per_query_table["dataset"].unique())
                for q in read_queries(data_dir, str(ds))
            }
            print("\nprecision / recall / DRM (%, means over k) on each half of the queries, split by document:")
            print(by_halves(table, per_query_table, owner).to_string())
        pairs = [pair_table(per_query_table, table, a, b) for a, b in args.pair or []]
        for found in pairs:
            print(f"\n{found['variant_b'].iloc[0]}\n  against {found['variant_a'].iloc[0]} (paired permutation tests):")
            shown = found[found["metric"].isin(["drm", "precision", "recall"])]
            print(
                shown[["metric", "k", "mean_a", "mean_b", "p_value", "wins", "losses"]].round(4).to_string(index=False)
            )
        if pairs and args.pairs_out:
            args.pairs_out.parent.mkdir(parents=True, exist_ok=True)
            pd.concat(pairs, ignore_index=True).to_csv(args.pairs_out, index=False)
        backends = sorted(table["backend"].dropna().unique()) if "backend" in table.columns else []
        per_query = Path(args.results[0]).parent / "per_query.csv.gz"
        if len(backends) > 1 and per_query.is_file():
            changes = backend_changes(table, pd.read_csv(per_query), backends[0], backends[-1])
            if not changes.empty:
                at = changes[changes["k"] == args.k]
                print(f"\n{backends[-1]} against {backends[0]}, query by query at k={args.k} ('changed': share of "
                      "queries whose value differs; p: paired permutation test):")  # fmt: skip
                print(at[["variant", "metric", "mean_a", "mean_b", "changed", "wins", "losses", "p_value"]]
                      .round(4).to_string(index=False))  # fmt: skip
                print(f"over every k: {changes['changed'].mean():.1%} of query values changed")
    return 0


def cmd_heldout(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    datasets = "cuad,maud" if args.datasets == "all" else args.datasets
    kept = write_heldout(
        data_dir, args.out, datasets.split(","), args.exclude.split(","), args.max_docs, args.seed or 0
    )
    for ds, (queries, docs) in kept.items():
        print(f"{ds}: {queries} queries over {docs} documents outside {args.exclude}")
    print(f"wrote {args.out}; run it with --data {args.out} --protocol full")
    return 0


def cmd_noname(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    counts = write_noname(data_dir, args.out)
    for ds, (queries, changed) in counts.items():
        print(f"{ds}: {queries} queries, {changed} without their opening document reference")
    print(f"wrote {args.out}; run it as {data_dir} (same protocols, query ids and gold): --data {args.out}")
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    name = args.name or args.folder.resolve().name
    start = time.perf_counter()
    bar = tqdm(desc=f"ingesting {args.folder}", unit="file", disable=args.quiet)
    report = ingest_folder(args.folder, args.out, name, args.gold, on_file=lambda _: bar.update())
    bar.close()
    for problem in report.failed:
        print(f"sac: {args.folder / problem.source}: {problem.reason}", file=sys.stderr)
    for problem in report.skipped:
        print(f"sac: {args.folder / problem.source}: skipped, {problem.reason}", file=sys.stderr)
    chars = sum(r.characters for r in report.written)
    print(f"{len(report.written)} written ({chars:,} characters), {len(report.unchanged)} unchanged, "
          f"{len(report.failed)} failed, {len(report.skipped)} skipped → {args.out / 'corpus' / name}; "
          f"{time.perf_counter() - start:.1f}s")  # fmt: skip
    print(f"next: sac index --data {args.out} --protocol corpus   (then SAC_DATA_DIR={args.out} make app)")
    return 1 if report.failed else 0


def cmd_separation(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data)
    cache_dir = args.cache_dir or default_cache_dir()
    start = time.perf_counter()
    base = RunConfig(protocol=args.protocol, datasets=parse_datasets(args.datasets, data_dir), seed=args.seed,
                     summary=summary_config(args, data_dir))  # fmt: skip
    bench = load_benchmark(data_dir, base.datasets, base.protocol, base.seed)
    rows = []
    embedders = Embedders(cache_dir)
    for column in compare_columns(base):
        config = column.config
        ctx = OpenContext(bench, data_dir, cache_dir, embedders, progress=not args.quiet, save=True)
        retriever = open_index_retriever(config, ctx)
        sep = index_separation(retriever)
        rows.append({"index": column.name, "variant": config.variant, "chunk_size": config.chunk_size,
                     "chunks": sep.chunks, "own_share": sep.own_share, "silhouette": sep.silhouette})  # fmt: skip
    table = pd.DataFrame(rows)
    print(f"{base.protocol}, the Compare indexes: own-document share of the {NEIGHBOURS} nearest chunks, "
          "silhouette by document (cosine, 5,000-chunk sample):")  # fmt: skip
    print(table.round(4).to_string(index=False))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(args.out, index=False)
    if args.sweep:
        sweep = load_sweep(args.sweep)
        folder = args.results or Path("results") / sweep.name
        grid = grid_separation(
            sweep, pd.read_csv(folder / "results.csv"), data_dir, cache_dir, cached_only=not args.embed_missing
        )
        print(f"\n{len(grid)} dense cells of {sweep.name} (indexes whose embeddings are cached), separation "
              "and means over k (ALL datasets):")  # fmt: skip
        print(grid.drop(columns="cell").round(4).to_string(index=False))
        if len(grid) >= 3:
            print("\ncorrelation over these cells:")
            print(correlations(grid).round(4).to_string(index=False))
        if args.grid_out:
            args.grid_out.parent.mkdir(parents=True, exist_ok=True)
            grid.to_csv(args.grid_out, index=False)
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    url = args.db or rv.default_url(args.cache_dir or default_cache_dir())
    db = rv.ReviewDB(url)
    print(f"review database {rv.safe_url(url)}", file=sys.stderr)
    if args.action == "list":
        for session in db.sessions():
            names = ", ".join(m["name"] for m in session.methods)
            print(f"{session.name}\t{session.created_at:%Y-%m-%d %H:%M} by {session.created_by}\tk={session.k}\t"
                  f"{names}")  # fmt: skip
        return 0
    if args.action == "import":
        counts = rv.import_jsonl(db, args.file)
        print(f"imported {counts['labels']} labels and {counts['preferences']} preferences (upserted: no duplicates)")
        return 0
    if not args.session:
        raise ValueError(f"sac review {args.action} needs --session NAME")
    if args.action == "export":
        count = rv.export(db, args.session, args.out)
        print(f"{count} rows → {args.out}")
        return 0
    session = rv.session_by_name(db, args.session)
    labels, prefs = rv.label_table(db, session.id), rv.preference_table(db, session.id)
    methods = [m["name"] for m in session.methods]
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(f"session {session.name}: {labels['reviewer'].nunique() if len(labels) else 0} reviewers, "
              f"{len(labels)} labels, {len(prefs)} preferences")  # fmt: skip
        print("\nby method (judged relevant or partly, gold precision of the same chunks, relevant but not gold):")
        print(rv.by_method(labels, methods).round(3).to_string(index=False))
        print("\npreferences (95% Wilson intervals):")
        print(rv.win_rates(prefs, methods).round(3).to_string(index=False))
        agree = rv.agreement(labels)
        if int(agree["reviewers"]) < 2:
            print(f"\nagreement: needs two reviewers of the same chunks ({agree['reviewers']} so far)")
        else:
            print(f"\nagreement: {agree['statistic']} {agree['kappa']:.3f} over {agree['chunks']} chunks, "
                  f"{agree['reviewers']} reviewers")  # fmt: skip
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    dest = write_demo_corpus(args.dest)
    print(f"demo benchmark written to {dest}; try: sac evaluate --data {dest} --protocol full")
    return 0


def cmd_screenshots(args: argparse.Namespace) -> int:
    data_dir = resolve_data_dir(args.data) if (args.data or os.environ.get("SAC_DATA_DIR")) else None
    start = time.perf_counter()
    shots = take_screenshots(args.out, args.cache_dir or default_cache_dir(), data_dir,
                             say=lambda m: print(m, file=sys.stderr))  # fmt: skip
    for path in shots:
        print(f"wrote {path}")
    print(f"wall time {time.perf_counter() - start:.1f}s")
    return 0


def _option(raw: str) -> tuple[str, OptionValue]:
    try:
        return parse_option(raw)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"--option: {e}") from None


def _signals(raw: str) -> Signals:
    """``key=value,...`` → Signals; each value is read as the field's type (bool, int, float, str)."""
    defaults = Signals()
    kinds: dict[str, type] = {f.name: type(getattr(defaults, f.name)) for f in dataclasses.fields(Signals)}
    values: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in raw.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key not in kinds:
            raise argparse.ArgumentTypeError(f"--signals: {item!r} is not key=value with a key of {', '.join(kinds)}")
        kind = kinds[key]
        try:
            values[key] = value.lower() in ("1", "true", "yes") if kind is bool else kind(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--signals: {key} needs a {kind.__name__}, got {value!r}") from None
    try:
        return Signals(**values)  # type: ignore[arg-type]
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"--signals: {e}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sac", description="Summary-Augmented Chunking on LegalBench-RAG")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("evaluate", help="retrieve for every query and score DRM, precision, recall, ...")
    _add_data_args(ev)
    ev.add_argument("--method", default=METHODS.default, choices=METHODS.names())
    _index_args(ev)
    ev.add_argument("--semantic-weight", type=float, default=1.0, help="1 dense, 0 BM25, between: hybrid")
    ev.add_argument("--fusion-depth", type=int, default=100, help="candidates per ranker for the hybrid")
    ev.add_argument("--k", type=_ks, default=DEFAULT_KS, help="e.g. 1,2,4,8,16,32,64")
    ev.add_argument("--metric-mode", default="merged", choices=["merged", "compat"])
    ev.add_argument(
        "--signals",
        type=_signals,
        default=Signals(),
        help="document-aware options, e.g. split_query=true,doc_weight=2,doc_bm25=0.25 (README: Beyond SAC)",
    )
    ev.add_argument(
        "--option",
        action="append",
        type=_option,
        default=[],
        metavar="PLUGIN.FIELD=VALUE",
        help="a parameter of a registered method or stage (repeatable)",
    )
    _add_summary_args(ev)
    ev.add_argument("--out", type=Path, help="results table (CSV)")
    ev.add_argument("--run-out", type=Path, help="run file (JSONL)")
    ev.add_argument("--per-query-out", type=Path, help="per-query metrics (CSV)")
    ev.add_argument("--save-index", action="store_true", help="save the index this run builds (see `sac index`)")
    ev.set_defaults(func=cmd_evaluate)

    ix = sub.add_parser("index", help="build and save indexes (default: the Compare page's) so they load in seconds")
    _add_data_args(ix)
    ix.add_argument("--method", choices=METHODS.names(), help="one index instead of the Compare page's")
    _index_args(ix)
    _add_summary_args(ix)
    ix.add_argument("--force", action="store_true", help="rebuild even when a fresh saved index exists")
    ix.add_argument(
        "--sentences", action="store_true", help="also embed every document's sentences (passage methods in Compare)"
    )
    _executor_args(ix)
    ix.set_defaults(func=cmd_index)

    su = sub.add_parser("summarize", help="make (or import) one SAC summary per document, cached and resumable")
    _add_data_args(su)
    _add_summary_args(su)
    _add_llm_args(su)
    su.add_argument("--estimate-only", action="store_true", help="print the cost estimate and stop")
    su.add_argument("--out", type=Path, help="also write the summaries as JSONL")
    _executor_args(su)
    su.set_defaults(func=cmd_summarize)

    sw = sub.add_parser("sweep", help="run a grid of configurations from a TOML file, every cell cached")
    sw.add_argument("--config", type=Path, required=True, help="sweep file, e.g. sweeps/lbr-mini-grid.toml")
    sw.add_argument("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
    sw.add_argument("--cache-dir", type=Path, default=None)
    sw.add_argument("--out", type=Path, help="output folder (default: results/<sweep name>)")
    sw.add_argument("--quiet", action="store_true")
    sw.add_argument("--cached-only", action="store_true", help="write only the cells already computed")
    sw.set_defaults(func=cmd_sweep)

    be = sub.add_parser("bench", help="measure throughput, query latency, memory and warm sweep time")
    be.add_argument("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
    be.add_argument("--protocol", default="lbr-mini", choices=PROTOCOLS)
    be.add_argument("--datasets", default="all")
    be.add_argument("--cache-dir", type=Path, default=None)
    be.add_argument("--queries", type=int, default=200, help="queries timed for the latency")
    be.add_argument("--k", type=int, default=8)
    be.add_argument("--chunks", type=int, default=1000, help="chunks encoded for the throughput")
    be.add_argument("--backends", default="torch,onnx")
    be.add_argument("--sweep", type=Path, help="sweep file whose cached cells are rerun for (d)")
    be.add_argument(
        "--parts",
        default="all",
        help=f"some of {','.join(BENCH_PARTS)}; all (default) = all but the slow {','.join(SLOW_PARTS)}",
    )
    be.add_argument("--reruns", type=int, default=20, help="Compare reruns timed for (f)")
    be.add_argument("--browsers", type=int, default=8, help="concurrent browser sessions for (g)")
    be.add_argument("--off-grid", type=int, default=700, help="chunk size built for the off-grid Tune figure (h)")
    be.add_argument("--ann-protocol", default="paper", choices=PROTOCOLS, help="pool of the HNSW figures (l)")
    be.add_argument(
        "--ann-method", default=SAC_METHOD.name, choices=METHODS.names(), help="index of the HNSW figures (l)"
    )
    be.add_argument(
        "--memory-columns", default="compare", choices=MEMORY_COLUMNS,
        help="(k): the three Compare indexes, or the baseline index loaded three times (same size)",
    )  # fmt: skip
    be.add_argument("--ray-workers", type=int, help="workers of the local Ray instance for (m) (default: all CPUs)")
    be.add_argument("--passage-methods", default="doc-aware-within,doc-aware",
                    help="catalogue entries timed by (n), comma-separated")  # fmt: skip
    be.set_defaults(func=cmd_bench)

    rp = sub.add_parser("report", help="print results as the paper's tables (means over k; per dataset at k)")
    rp.add_argument("results", nargs="+", help="results CSV files (sac evaluate --out, or a sweep's results.csv)")
    rp.add_argument("--k", type=int, default=8)
    rp.add_argument(
        "--without-queries-of",
        metavar="PROTOCOL",
        help="recompute without the queries of this protocol (e.g. lbr-mini, where methods were tuned)",
    )
    rp.add_argument(
        "--data", help="LegalBench-RAG directory for --without-queries-of / --halves (default: $SAC_DATA_DIR)"
    )
    rp.add_argument(
        "--halves", action="store_true", help="also each cell on both halves of the queries, split by document"
    )
    rp.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("A", "B"),
        help="paired permutation tests of cell B against cell A (cell ids or variant names; repeatable)",
    )
    rp.add_argument("--pairs-out", type=Path, help="write the --pair tables to this CSV")
    rp.set_defaults(func=cmd_report)

    ig = sub.add_parser(
        "ingest", help="turn a folder of PDF, DOCX, text, Markdown and HTML files into a data directory",
        description="Exit status 1 when some files could not be read (they are listed; the rest are written).",
    )  # fmt: skip
    ig.add_argument("folder", type=Path, help="the documents (searched recursively)")
    ig.add_argument("--out", type=Path, required=True, help="data directory to write (corpus/, benchmarks/)")
    ig.add_argument("--name", help="dataset name (default: the folder's name)")
    ig.add_argument("--gold", type=Path, help="a benchmark JSON of questions with gold spans in the written texts")
    ig.add_argument("--quiet", action="store_true")
    ig.set_defaults(func=cmd_ingest)

    ho = sub.add_parser(
        "heldout", help="write a benchmark folder of queries whose documents no protocol tuned or reported on"
    )
    _add_data_args(ho)
    ho.add_argument(
        "--out", type=Path, required=True, help="new folder (outside the project): benchmarks/ + corpus symlinks"
    )
    ho.add_argument("--exclude", default="lbr-mini,paper", help="protocols whose documents are left out")
    ho.add_argument("--max-docs", type=int, default=40, help="documents per dataset at most (sampled)")
    ho.set_defaults(func=cmd_heldout)

    nn = sub.add_parser("noname", help="write a copy of a benchmark folder whose queries do not name their document")
    nn.add_argument("--data", help="LegalBench-RAG directory (default: $SAC_DATA_DIR)")
    nn.add_argument(
        "--out", type=Path, required=True, help="new folder (outside the project): benchmarks/ + corpus symlink"
    )
    nn.set_defaults(func=cmd_noname)

    se = sub.add_parser("separation", help="how far apart documents lie in each index (and vs DRM over a grid)")
    _add_data_args(se)
    _add_summary_args(se)
    se.add_argument("--out", type=Path, help="CSV of the Compare indexes' figures")
    se.add_argument("--sweep", type=Path, help="also every dense cell of this sweep, with its DRM")
    se.add_argument("--results", type=Path, help="the sweep's results folder (default: results/<name>)")
    se.add_argument("--grid-out", type=Path, help="CSV of the sweep cells' figures")
    se.add_argument("--embed-missing", action="store_true", help="embed cells whose embeddings are not cached")
    se.set_defaults(func=cmd_separation)

    rw = sub.add_parser("review", help="review sessions: list, report, export (CSV/JSONL), import (JSONL)")
    rw.add_argument("action", choices=["list", "report", "export", "import"])
    rw.add_argument("file", nargs="?", type=Path, help="for import: a JSONL export")
    rw.add_argument("--session", help="the session's name")
    rw.add_argument("--out", type=Path, help="for export: a .csv or .jsonl file")
    rw.add_argument("--db", help="database URL (default: $SAC_REVIEW_DB, else <cache>/review.sqlite)")
    rw.add_argument("--cache-dir", type=Path, default=None)
    rw.set_defaults(func=cmd_review)

    de = sub.add_parser("demo", help="write the generated demo benchmark to a folder")
    de.add_argument("dest", type=Path)
    de.set_defaults(func=cmd_demo)
    sh = sub.add_parser("screenshots", help="regenerate the committed screenshots of every page (headless Chromium)")
    sh.add_argument("--out", type=Path, default=Path("screenshots"), help="folder for the PNG files")
    sh.add_argument("--data", help="LegalBench-RAG directory for the real-data Compare shot (default: $SAC_DATA_DIR)")
    sh.add_argument("--cache-dir", type=Path, default=None)
    sh.set_defaults(func=cmd_screenshots)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (BenchmarkError, SummaryError, ScreenshotError, rv.ReviewError, ValueError, KeyError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"sac: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sac: interrupted; finished work is cached, rerun to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
