"""``sac bench``: the parts of the report, each measured and printed as it ends.

(a)–(e) the engine (throughput, latency, memory, warm sweep, cache writes), (f)–(h) the dashboard in
a real browser (Compare, concurrent sessions, Tune), (i)–(k) the slow cold runs, (l) HNSW, (m) Ray,
(q) the whole benchmark's pool and synthetic ones 3× and 10× its size (:mod:`.scale`), (r) Compare's
first paint on fresh servers.
The measurements themselves are :mod:`.bench` and :mod:`.timing`; ``sac_core.cli.tools`` parses
the flags into :class:`BenchOptions`.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..dashboard.state import ensure_demo_corpus
from ..engine.data import available_datasets, load_benchmark
from ..engine.embedding import DEFAULT_MODEL, Embedders, default_backend
from ..engine.retrieval import build_pool
from ..engine.summaries import SummaryConfig
from ..experiments import NotBuilt, OpenContext, RunConfig, Workspace, catalogue_columns, default_keys
from ..experiments.evaluate import indexed_chunks
from ..experiments.executors import Executor
from ..experiments.methods import SAC_METHOD
from .bench import (
    MEMORY_COLUMNS,
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
from .room import first_paint, fresh_servers, prebuilt_keys, room_crowds
from .scale import SCALE_FACTORS, bench_ann, bench_scale
from .timing import (
    compare_cold,
    compare_reruns,
    concurrent_first_results,
    room_session,
    tune_stops,
)

PARTS = ("memory", "throughput", "sweep", "cache-writes", "dashboard", "first-paint", "tune", "ann", "ray", "passages",
         "cold-start", "cold-build", "paper-memory", "room-log", "room", "scale")  # fmt: skip
ROOM_SESSIONS = (1, 6, 12)  # the rounds of room (p): a room of twelve, and half of it
# minutes each: only when named in --parts
SLOW_PARTS = ("cold-start", "cold-build", "paper-memory", "room-log", "room", "scale")
# the parts that need LegalBench-RAG
DATA_PARTS = (
    "memory",
    "throughput",
    "cache-writes",
    "sweep",
    "tune",
    "ann",
    "ray",
    "passages",
    *SLOW_PARTS[:3],
    "scale",
)


@dataclass(frozen=True)
class BenchOptions:
    """What ``sac bench`` measures, and on what. ``base``: the run the figures are of (protocol,
    datasets, summaries from the data's file); without a data folder only the dashboard part runs,
    on the demo corpus. The defaults are the command's."""

    data_dir: Path | None
    cache_dir: Path
    base: RunConfig | None
    parts: tuple[str, ...]
    protocol: str = "lbr-mini"
    queries: int = 200  # queries timed for the latency
    k: int = 8
    chunks: int = 1000  # chunks encoded for the throughput
    backends: str = "torch,onnx"
    sweep: Path | None = None  # sweep file whose cached cells are rerun for (d)
    reruns: int = 20  # Compare reruns timed for (f)
    browsers: int = 8  # concurrent browser sessions for (g)
    off_grid: int = 700  # chunk size built for the off-grid Tune figure (h)
    ann_protocol: str = "paper"  # pool of the HNSW figures (l)
    ann_method: str = SAC_METHOD.name  # index of the HNSW figures (l)
    memory_columns: str = MEMORY_COLUMNS[0]  # (k): the three Compare indexes, or the baseline index three times
    ray_workers: int | None = None  # workers of the local Ray instance for (m) (default: all CPUs)
    minutes: float = 10.0  # length of the scripted session of room-log (n)
    passage_methods: str = "doc-aware-exemplars,doc-aware-within,doc-aware"  # catalogue entries timed by (o)
    sessions: tuple[int, ...] = ROOM_SESSIONS  # concurrent browser sessions of each round of room (p)
    scale_factors: tuple[int, ...] = SCALE_FACTORS  # sizes of the synthetic pools of scale (q), × the whole benchmark


def bench_parts(spec: str) -> tuple[str, ...]:
    """``--parts``: ``all`` (every part but the slow ones) or a comma list of :data:`PARTS`."""
    parts = tuple(p for p in PARTS if p not in SLOW_PARTS) if spec == "all" else tuple(spec.split(","))
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"--parts: unknown {', '.join(sorted(unknown))}; choose from {', '.join(PARTS)}")
    return parts


def session_counts(spec: str) -> tuple[int, ...]:
    """``--sessions``: a comma list of concurrent sessions per round of the room part (1 to 32 each,
    at most 8 rounds), e.g. ``1,6,12``."""
    try:
        counts = tuple(int(part) for part in spec.split(","))
    except ValueError:
        raise ValueError(f"--sessions: {spec!r} is not a comma list of integers, e.g. 1,6,12") from None
    if not counts or len(counts) > 8 or any(not 1 <= n <= 32 for n in counts):
        raise ValueError(f"--sessions: {spec!r}: 1 to 8 rounds of 1 to 32 sessions each, e.g. 1,6,12")
    return counts


def run_bench(opts: BenchOptions) -> int:
    """Measure every part ``opts.parts`` names, printing each figure as it is measured."""
    data_dir, base, parts = opts.data_dir, opts.base, set(opts.parts)
    if data_dir is None or base is None:
        skipped = [p for p in opts.parts if p in DATA_PARTS]
        if skipped:
            print(
                f"without --data (or $SAC_DATA_DIR) only the dashboard part runs, on the demo corpus; skipped: "
                f"{', '.join(skipped)}",
                file=sys.stderr,
            )
    elif {"memory", "throughput", "cache-writes"} & parts:
        _bench_engine(opts, base, data_dir)
    if data_dir is not None and "sweep" in parts and opts.sweep:
        cached, total, seconds = warm_sweep_seconds(opts.sweep, data_dir, opts.cache_dir)
        print(f"(d) warm sweep {opts.sweep}: {cached}/{total} cells cached, rerun from cache in {seconds:.1f}s")
    if "dashboard" in parts:
        _bench_dashboard(opts, data_dir)
    if "room-log" in parts:
        _bench_room_log(opts, data_dir)
    if "room" in parts:
        _bench_room(opts, data_dir, base)
    if "first-paint" in parts:
        _bench_first_paint(opts, data_dir, base)
    if data_dir is not None and base is not None:
        if "tune" in parts:
            _bench_tune(opts, base, data_dir)
        if "ann" in parts:
            bench_ann(opts.cache_dir, base, data_dir, opts.ann_protocol, opts.ann_method)
        if "scale" in parts:
            bench_scale(opts.cache_dir, base, data_dir, opts.scale_factors, opts.queries)
        if "ray" in parts:
            _bench_ray(opts, base, data_dir)
        if "passages" in parts:
            _bench_passages(opts, base, data_dir)
        _bench_cold(opts, base, data_dir)
    print(f"peak RSS at the end {peak_rss_mb():,.0f} MB")
    return 0


def _bench_engine(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(a) throughput, (b) query latency, (c) memory, (e) cost of per-batch cache writes."""
    parts, cache_dir = opts.parts, opts.cache_dir
    t0 = time.perf_counter()
    ws = Workspace.load(data_dir, cache_dir, base)
    load_s = time.perf_counter() - t0
    if "memory" in parts:
        lat = query_latency(ws, opts.queries, opts.k)  # also loads the model
        n_chunks = sum(indexed_chunks(r) or 0 for r in ws.retrievers.values())
        print(
            f"(c) three indexes of {opts.protocol} loaded ({n_chunks:,} chunks in all) in {load_s:.1f}s, model "
            f"loaded, {lat['queries']} queries run: peak RSS {peak_rss_mb():,.0f} MB"
        )
        print(
            f"(b) three-way query latency, warm, k={opts.k}, model encodes each query: "
            f"p50 {lat['p50_ms']:.1f} ms, p95 {lat['p95_ms']:.1f} ms over {lat['queries']} queries"
        )
    if "throughput" in parts:
        for backend in opts.backends.split(","):
            r = encode_vs_build(ws.bench, base, opts.chunks, backend)
            print(
                f"(a) {backend:9s}: raw encode {r['raw_per_s']:.1f} chunks/s, index build {r['build_per_s']:.1f} "
                f"chunks/s over the same {r['chunks']} chunks; build/raw = {r['ratio']:.2f}"
            )
    if "cache-writes" in parts:
        pool = build_pool(
            ws.bench.documents, chunker=base.chunker, chunk_size=base.chunk_size, chunk_overlap=base.chunk_overlap
        )
        texts = list(pool.indexed[:: max(1, len(pool) // opts.chunks)][: opts.chunks])
        for backend in opts.backends.split(","):
            rates = cache_write_cost(texts, base.model, backend)
            fine, coarse = rates[32], rates[512]
            print(
                f"(e) {backend:9s}: embedding {len(texts)} chunks into a fresh cache, a transaction and a progress "
                f"update every 32 texts: {fine:.1f} texts/s; every 512: {coarse:.1f} texts/s "
                f"({(coarse - fine) / coarse:+.1%} cost of the finer resume points)"
            )


def _bench_dashboard(opts: BenchOptions, data_dir: Path | None) -> None:
    """(f) Compare: first result and server time of a rerun; (g) concurrent browser sessions."""
    env = {"SAC_CACHE_DIR": str(Path(opts.cache_dir).resolve())}
    where = "the demo corpus"
    if data_dir is not None:
        env["SAC_DATA_DIR"] = str(Path(data_dir).resolve())
        where = f"{opts.protocol} of {data_dir.name}"
    first, typed, reruns = compare_reruns(env, opts.reruns)
    print(
        f"(f) Compare on {where}: first ranked chunks after {first:.1f}s in a fresh server; the first typed "
        f"question {typed:,.0f} ms of server time; then a warm rerun (a new question each time): {reruns}"
    )
    crowd, server_cpu = concurrent_first_results(env, opts.browsers)
    print(
        f"(g) {opts.browsers} browser sessions opening Compare at once (warm server): first ranked chunks {crowd}; "
        f"the server used {server_cpu:.1f} CPU-seconds for them, the rest of the wall time is the browsers' "
        "(they share the machine's cores)"
    )


def _bench_room_log(opts: BenchOptions, data_dir: Path | None) -> None:
    """(n) The server log of a scripted session (Compare, Tune, Review, Curves): issue 27's target is
    no stack trace and fewer than 50 lines in 10 minutes. The log is kept in the cache folder."""
    env = {"SAC_CACHE_DIR": str(Path(opts.cache_dir).resolve())}
    if data_dir is not None:
        env["SAC_DATA_DIR"] = str(Path(data_dir).resolve())
    log = Path(opts.cache_dir).resolve() / "room-log" / "streamlit.log"
    room = room_session(env, opts.minutes, log)
    where = "the demo corpus" if data_dir is None else data_dir.name
    print(
        f"(n) a scripted session on {where}: {room} (target: no stack trace, fewer than 50 lines in 10 "
        f"minutes; the log: {log})"
    )


def _bench_room(opts: BenchOptions, data_dir: Path | None, base: RunConfig | None) -> None:
    """(p) A room of twelve: rounds of concurrent sessions on one server, then one session on a fresh
    server; on the demo corpus and, with a data folder, on its default Compare columns that are prebuilt
    (the part builds nothing of real data)."""
    for where, env, keys in _compare_places(opts, data_dir, base, "(p)", demo=True):
        print(f"(p) {where}, Compare with the columns {', '.join(keys)}, k moved by one with the keyboard:")
        for crowd in room_crowds(env, opts.sessions, keys):  # its warm-up builds what the demo lacks
            print(f"(p) {where}, {crowd}")
        for line in fresh_servers(env, keys, opts.reruns):
            print(f"(p) {where}: {line}")


def _bench_first_paint(opts: BenchOptions, data_dir: Path | None, base: RunConfig | None) -> None:
    """(r) Compare's first ranked chunks on fresh servers (issue 45, point 13): on the data's default
    columns when they are prebuilt, else (no data folder) on the demo corpus."""
    for where, env, keys in _compare_places(opts, data_dir, base, "(r)", demo=data_dir is None):
        for line in first_paint(env, keys):
            print(f"(r) {where}, Compare with the columns {', '.join(keys)}: {line}")


def _compare_places(
    opts: BenchOptions, data_dir: Path | None, base: RunConfig | None, tag: str, *, demo: bool
) -> list[tuple[str, dict[str, str], tuple[str, ...]]]:
    """(where, server environment, catalogue keys) of the Compare pages a part opens: the demo corpus
    (``demo``) and the data folder's default columns that are prebuilt (at least two; the others named)."""
    cache = Path(opts.cache_dir).resolve()
    places: list[tuple[str, dict[str, str], tuple[str, ...]]] = []
    if demo:
        root = ensure_demo_corpus(cache)
        summary = SummaryConfig(provider="file", chars=150)  # the sidebar's default
        demo_base = RunConfig(protocol="full", datasets=available_datasets(root), summary=summary)
        places.append(("the demo corpus", {"SAC_CACHE_DIR": str(cache)}, default_keys(demo_base)))
    if data_dir is not None and base is not None:
        keys = prebuilt_keys(base, cache)
        missing = [key for key in default_keys(base) if key not in keys]
        if missing:
            print(f"{tag} {opts.protocol}: not prebuilt, so left out: {', '.join(missing)} (`sac index` builds them)")
        if len(keys) >= 2:
            env = {"SAC_CACHE_DIR": str(cache), "SAC_DATA_DIR": str(Path(data_dir).resolve())}
            places.append((f"{opts.protocol} of {data_dir.name}", env, keys))
    return places


def _bench_tune(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(h) Tune: a committed grid stop, and an off-grid chunk size built cold."""
    env = {"SAC_CACHE_DIR": str(Path(opts.cache_dir).resolve()), "SAC_DATA_DIR": str(Path(data_dir).resolve())}
    shown, server = tune_stops(env)
    print(
        f"(h) Tune, a committed grid stop (chunk 500 <-> 800): new answer on screen {shown}; server time of the "
        f"Tune run {server}"
    )
    bench = load_benchmark(data_dir, base.datasets, base.protocol)
    with tempfile.TemporaryDirectory() as tmp:
        off = cell_build_seconds(bench, base, data_dir, Path(tmp), opts.off_grid)  # a cold cache
    print(
        f"(h) Tune, an off-grid chunk size ({opts.off_grid}): baseline and SAC generic-150 built and every query "
        f"evaluated in {off['seconds']:.0f}s ({off['encoded']:,} texts embedded, {off['per_s']:.0f} texts/s)"
    )


def _bench_passages(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(o) Compare with a passage method, on prebuilt indexes: server time of a new question."""
    for key in opts.passage_methods.split(","):
        try:
            r = new_question_latency(data_dir, opts.cache_dir, base, key, opts.queries, opts.k)
        except NotBuilt as e:
            print(f"(o) {key}: not prebuilt ({e}); run `sac index --sentences` first")
            continue
        print(
            f"(o) Compare column {key} ({r['variant']}) on prebuilt {base.protocol} indexes, opened in "
            f"{r['open_s']:.1f}s; a new question, k={opts.k}, model encodes it: p50 {r['p50_ms']:.0f} ms, "
            f"p95 {r['p95_ms']:.0f} ms over {r['queries']} questions (target: 1 s)"
        )


def _bench_ray(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(m) embedding in this process against a local Ray instance, and the expected scaling."""
    bench = load_benchmark(data_dir, base.datasets, base.protocol)
    pool = build_pool(
        bench.documents, chunker=base.chunker, chunk_size=base.chunk_size, chunk_overlap=base.chunk_overlap
    )
    texts = list(dict.fromkeys(pool.indexed[:: max(1, len(pool) // opts.chunks)]))[: opts.chunks]
    backend = default_backend()
    local = executor_throughput(texts, DEFAULT_MODEL, backend, Executor("local", partitions=1))
    workers = opts.ray_workers or os.cpu_count() or 1
    remote = executor_throughput(
        texts, DEFAULT_MODEL, backend, Executor("ray", workers=workers, partitions=2 * workers)
    )
    print(
        f"(m) {len(texts)} chunks, {backend}: in this process {local['per_s']:.0f} texts/s; local Ray with {workers} "
        f"workers {remote['per_s']:.0f} texts/s ({remote['seconds']:.0f}s with start-up, {remote['tasks']} tasks, one "
        f"task {remote['task_per_s']:.0f} texts/s); on {os.cpu_count()} cores Ray cannot be faster: every worker "
        f"shares them. With W workers on machines of their own, expect about W × {remote['task_per_s']:.0f} "
        "texts/s while the tasks run (the driver then only reads the cache and builds the index)"
    )


def _bench_cold(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(i) Compare on an empty cache, (j) cold builds per backend, (k) memory with the paper's indexes."""
    parts = opts.parts
    if "cold-start" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            cold = compare_cold({"SAC_DATA_DIR": str(Path(data_dir).resolve())}, Path(tmp))
        print(
            f"(i) Compare on an empty cache ({opts.protocol}): first ranked chunks after {cold['first_s']:.0f}s (the "
            f"first index built), all three after {cold['all_s']:.0f}s; the builds embedded {cold['texts']:,} texts "
            f"at {cold['per_s']:.0f} texts/s, chunking and model loads included"
        )
    if "cold-build" in parts:
        bench = load_benchmark(data_dir, base.datasets, base.protocol)
        configs = [col.config for col in catalogue_columns(base)]
        for backend in opts.backends.split(","):
            built = cold_build(bench, configs, data_dir, backend)
            print(
                f"(j) {backend:9s}: cold build of the {len(configs)} Compare indexes of {opts.protocol} "
                f"({built['texts']:,} chunks, {built['encoded']:,} embedded): {built['seconds'] / 60:.1f} min, "
                f"{built['per_s']:.0f} texts/s"
            )
    if "paper-memory" in parts:
        _bench_paper_memory(opts, base, data_dir)


def _bench_paper_memory(opts: BenchOptions, base: RunConfig, data_dir: Path) -> None:
    """(k) peak RSS of a fresh process holding three saved indexes of the paper protocol."""
    cache_dir = opts.cache_dir
    bench = load_benchmark(data_dir, base.datasets, "paper")
    paper = base.with_(protocol="paper")
    for config in dict.fromkeys(memory_configs(paper, opts.memory_columns)):  # baseline-x3: checked once
        indexer = config.method_plugin.indexer()
        ctx = OpenContext(bench, data_dir, cache_dir, Embedders(cache_dir))
        if indexer is None:
            raise ValueError(f"(k) method {config.method!r} has no index")
        check = indexer.check(config, ctx)
        if not check.fresh:
            raise ValueError(
                f"(k) needs the saved index of {config.variant} on the paper protocol ({check.reason}): "
                f"run `sac index --protocol paper` first, or --memory-columns baseline-x3"
            )
    m = loaded_memory(data_dir, Path(cache_dir), "paper", bench.datasets, opts.memory_columns)
    which = "the three Compare indexes" if opts.memory_columns == "compare" else "the baseline index three times"
    print(
        f"(k) {which} of the paper protocol ({m['chunks']:,} chunks) loaded from disk in "
        f"{m['load_s']:.1f}s and one query run, in a fresh process: peak RSS {m['peak_rss_mb']:,.0f} MB"
    )
