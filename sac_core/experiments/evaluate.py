"""The whole experiment: benchmark → method (summaries, index) → stages → retrieval → metrics."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine.data import Benchmark, Span
from ..engine.metrics import mean_by_dataset, score_run
from ..engine.retrieval import Ranker, as_spans
from ..engine.summaries import SummaryConfig
from .config import RunConfig
from .plugins import OpenContext, Opened

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd


@dataclass
class Evaluation:
    config: RunConfig
    per_query: pd.DataFrame  # one row per (query, k)
    results: pd.DataFrame  # one row per (dataset incl. ALL, k), metrics then config columns
    run: dict[str, list[Span]]  # query id → ranked spans, up to max k
    seconds: dict[str, float] = field(default_factory=dict)  # wall time per stage


def open_method(config: RunConfig, ctx: OpenContext) -> Opened:
    """``config``'s method opened in ``ctx`` (loaded, or built as ``ctx`` allows), then wrapped by
    every stage ``config`` switches on, in registration order."""
    opened = config.method_plugin.open(config, ctx)
    for stage in config.stages:
        opened = stage.wrap(opened, config, ctx)
    return opened


@dataclass(frozen=True)
class SummariesRead:
    """Which summaries one part of a run (its method or a stage) reads, and how long they really are."""

    part: str  # the plug-in's name: "sac", "signals", ...
    config: SummaryConfig
    mean_chars: float  # measured over the benchmark's documents (characters)
    documents: int

    @property
    def setting(self) -> str:
        """``provider/prompt/chars``, e.g. ``file/generic/300`` (``extractive/-/300``: no prompt)."""
        prompt = "-" if self.config.provider == "extractive" else self.config.prompt_name
        return f"{self.config.provider}/{prompt}/{self.config.chars}"

    def describe(self) -> str:
        return (
            f"{self.part} reads summaries {self.setting} (provider/prompt/target characters): "
            f"mean {self.mean_chars:.0f} characters over {self.documents} documents"
        )


def summaries_read(config: RunConfig, ctx: OpenContext) -> list[SummariesRead]:
    """The summaries the method and each active stage of ``config`` read (fetched through ``ctx``,
    cached), with their measured mean length."""
    parts = [(config.method_plugin.name, config.method_plugin.summaries(config))]
    parts += [(stage.name, stage.summaries(config)) for stage in config.stages]
    out = []
    for name, wanted in parts:
        if wanted is None:
            continue
        texts = list(ctx.summaries(wanted).values())
        mean = sum(map(len, texts)) / len(texts) if texts else 0.0
        out.append(SummariesRead(name, wanted, mean, len(texts)))
    return out


def indexed_chunks(ranker: Ranker) -> int | None:
    """How many chunks the ranker's index holds (None for a method without one, e.g. an imported run)."""
    return None if ranker.pool is None else len(ranker.pool)


def run_queries(
    ranker: Ranker, bench: Benchmark, config: RunConfig, *, progress: bool = False
) -> tuple[dict[str, list[Span]], pd.DataFrame]:
    """Every benchmark query through ``ranker``: the run (ranked spans up to max k) and its per-query metrics."""
    hits = ranker.search_queries(bench.queries, config.max_k, progress=progress)  # a run: by query id
    run = {q.query_id: as_spans(h) for q, h in zip(bench.queries, hits)}
    return run, score_run(bench.queries, run, config.ks, config.metric_mode)


def evaluate(config: RunConfig, ctx: OpenContext) -> Evaluation:
    """Run ``config`` on ``ctx.bench``: a fresh saved index is loaded instead of rebuilt (see
    :mod:`.index_store`); ``ctx.save`` saves an index this run builds."""
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    opened = open_method(config, ctx)
    seconds["open"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    run, per_query = run_queries(opened.ranker, ctx.bench, config, progress=ctx.progress)
    seconds["retrieve"] = time.perf_counter() - t0
    results = mean_by_dataset(per_query)
    counts: dict[str, object] = {
        "n_queries": len(ctx.bench.queries),
        "n_documents": len(ctx.bench.documents),
        "n_chunks": indexed_chunks(opened.ranker),
    }
    sentences = opened.ranker.sentences_read()  # the passage methods' embedding cost
    if sentences:
        counts["sentences_embedded"] = sentences
    for read in summaries_read(config, ctx):  # what each part read, as measured (not part of the cell id)
        counts[f"summaries_{read.part}"] = read.setting
        counts[f"summaries_{read.part}_mean_chars"] = round(read.mean_chars, 1)
    for key, value in {**config.columns(), **counts}.items():
        results[key] = value
    results.insert(1, "variant", results.pop("variant"))
    return Evaluation(config, per_query, results, run, seconds)


def format_results(results: pd.DataFrame, metrics: tuple[str, ...] = ("drm", "precision", "recall")) -> str:
    """A readable table: one row per (dataset, variant, metric), one column per k, in percent."""
    long = results.melt(id_vars=["dataset", "variant", "k"], value_vars=list(metrics), var_name="metric")
    wide = long.pivot_table(index=["dataset", "variant", "metric"], columns="k", values="value", sort=False)
    wide.columns = [f"@{k}" for k in wide.columns]
    return (wide * 100).round(2).to_string()
