"""Where the embarrassingly parallel work runs: in this process (the default) or on Ray.

Summaries and embeddings are split by document into partitions; each partition is one task that
fills the same content-addressed caches as a local run (``<cache>/summaries``,
``<cache>/embeddings``, written batch by batch). A task that fails or whose worker is preempted
is simply run again (Ray retries it): whatever it had already written is a cache hit, so nothing
is computed twice, and the driver then reads everything from the caches. The caches must live on
a filesystem every worker sees (one machine, or a shared volume mounted at the same path).

Ray is optional (``pip install .[scale]``): ``ray.init()`` starts a local instance by default, an
``address`` joins an existing cluster. API keys are never sent to tasks: workers read
``$OPENAI_API_KEY`` from their own environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..engine.embedding import Embedder
from ..engine.summaries import SummaryConfig, summarize_documents
from .config import RunConfig
from .plugins import OpenContext

EXECUTORS: tuple[str, ...] = ("local", "ray")
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Executor:
    """``kind``: ``local`` or ``ray``; ``address``: a Ray cluster (None: a local Ray instance with
    ``workers`` CPUs, default all); ``partitions``: tasks per job; ``max_retries``: per task."""

    kind: str = "local"
    address: str | None = None
    workers: int | None = None
    partitions: int = 8
    max_retries: int = 3

    def __post_init__(self) -> None:
        if self.kind not in EXECUTORS:
            raise ValueError(f"unknown executor {self.kind!r}; choose one of {', '.join(EXECUTORS)}")
        if self.partitions < 1 or self.max_retries < 0:
            raise ValueError("executor: partitions must be >= 1 and max_retries >= 0")


def run_tasks(fn: Callable[[T], R], payloads: Sequence[T], executor: Executor) -> list[R]:
    """``[fn(p) for p in payloads]``, in this process or as Ray tasks (retried on failure)."""
    if executor.kind == "local":
        return [fn(p) for p in payloads]
    import ray  # optional dependency: pip install .[scale]

    if not ray.is_initialized():
        if executor.address:
            ray.init(address=executor.address, log_to_driver=False)
        else:
            ray.init(num_cpus=executor.workers, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(max_retries=executor.max_retries, retry_exceptions=True)(fn)
    return list(ray.get([remote.remote(p) for p in payloads]))


def partition(items: Sequence[T], parts: int, weight: Callable[[T], int] = lambda _: 1) -> list[list[T]]:
    """``items`` in at most ``parts`` groups of about equal total ``weight``, order kept inside groups
    (greedy: each item to the lightest group so far)."""
    groups: list[list[T]] = [[] for _ in range(max(1, min(parts, len(items))))]
    loads = [0] * len(groups)
    for item in sorted(items, key=weight, reverse=True):
        i = loads.index(min(loads))
        groups[i].append(item)
        loads[i] += weight(item)
    return [g for g in groups if g]


# --------------------------------------------------------------------------- embeddings


@dataclass(frozen=True)
class EmbedTask:
    """Embed ``texts`` (one partition of documents' indexed texts) into the cache."""

    model: str
    backend: str
    cache_dir: Path
    texts: tuple[str, ...]


def embed_partition(task: EmbedTask) -> dict[str, int]:
    """Texts in the partition and how many this attempt sent through the model (cache misses)."""
    embedder = Embedder(task.model, Path(task.cache_dir), backend=task.backend)
    embedder.encode(list(task.texts), progress=False)
    return {"texts": len(task.texts), "encoded": embedder.encoded, "pid": os.getpid()}


def prefill_embeddings(
    texts_by_document: Mapping[str, Sequence[str]],
    model: str,
    backend: str,
    cache_dir: Path,
    executor: Executor,
    task: Callable[[EmbedTask], dict[str, Any]] = embed_partition,
) -> list[dict[str, Any]]:
    """Fill the embedding cache with every text, documents partitioned across ``executor``'s tasks.
    A text that several documents share goes to one task only (concurrent tasks would both miss the
    cache and embed it twice)."""
    seen: set[str] = set()
    unique: dict[str, list[str]] = {}
    for document in sorted(texts_by_document):
        own = [t for t in dict.fromkeys(texts_by_document[document]) if t not in seen]
        seen.update(own)
        if own:
            unique[document] = own
    groups = partition(sorted(unique), executor.partitions, weight=lambda d: len(unique[d]))
    payloads = [
        EmbedTask(model, backend, Path(cache_dir), tuple(t for d in group for t in unique[d])) for group in groups
    ]
    return run_tasks(task, payloads, executor)


# --------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class SummaryTask:
    documents: tuple[tuple[str, str], ...]  # (file_path, text)
    config: SummaryConfig
    cache_dir: Path


def summarize_partition(task: SummaryTask) -> dict[str, int]:
    """Summaries of one partition into the cache (the key comes from the worker's environment)."""
    records = summarize_documents(dict(task.documents), task.config, Path(task.cache_dir), progress=False)
    return {"documents": len(records), "new": sum(not r.cached for r in records.values()), "pid": os.getpid()}


def prefill_summaries(
    documents: Mapping[str, str], config: SummaryConfig, cache_dir: Path, executor: Executor
) -> list[dict[str, Any]]:
    """Fill the summary cache for ``documents``, partitioned across ``executor``'s tasks (nothing to
    do for the ``file`` provider, which reads its JSONL)."""
    if config.provider == "file":
        return []
    groups = partition(sorted(documents), executor.partitions, weight=lambda d: len(documents[d]))
    payloads = [SummaryTask(tuple((d, documents[d]) for d in group), config, Path(cache_dir)) for group in groups]
    return run_tasks(summarize_partition, payloads, executor)


def indexed_texts(config: RunConfig, ctx: OpenContext) -> dict[str, list[str]]:
    """``document → the texts`` ``config``'s method embeds for its index (none without an index, or
    without a dense one: BM25 alone embeds nothing)."""
    indexer = config.method_plugin.indexer()
    if indexer is None or config.semantic_weight == 0:
        return {}
    pool = indexer.pool(config, ctx)
    by_document: dict[str, list[str]] = {}
    for chunk, text in zip(pool.chunks, pool.indexed):
        by_document.setdefault(chunk.file_path, []).append(text)
    return by_document


def embed_ahead(
    runs: Sequence[tuple[RunConfig, OpenContext]], executor: Executor, *, progress: bool, desc: str
) -> dict[str, int]:
    """Every summary the runs read, then every text their indexes embed, computed before any of them
    is scored, each text once: in this process with one progress bar over all of them (texts, rate
    and time left for the whole work: blocks are taken in a shuffled order, so the rate so far is a
    fair estimate), or on Ray (:func:`prefill_embeddings`). What follows (building each index,
    scoring) then finds everything cached; an interruption loses at most the block being embedded.
    Returns ``{"summarized": n, "embedded": n}``: what was computed now."""
    done = {"summarized": 0, "embedded": 0}
    wanted: dict[tuple[str, str, Path], dict[str, list[str]]] = {}
    for config, ctx in runs:
        texts = {fp: d.text for fp, d in ctx.bench.documents.items()}
        for summary in config.summaries_read():
            resolved = summary.resolved(ctx.data_dir)
            done["summarized"] += sum(r["new"] for r in prefill_summaries(texts, resolved, ctx.cache_dir, executor))
        by_model = wanted.setdefault((config.model, config.backend, ctx.cache_dir), {})
        for document, found in indexed_texts(config, ctx).items():
            by_model.setdefault(document, []).extend(found)
    for (model, backend, cache_dir), by_document in wanted.items():
        if executor.kind != "local":
            done["embedded"] += sum(
                r["encoded"] for r in prefill_embeddings(by_document, model, backend, cache_dir, executor)
            )
            continue
        embedder = runs[0][1].embedders.get(model, backend) if runs else Embedder(model, cache_dir, backend=backend)
        every = [t for found in by_document.values() for t in found]
        done["embedded"] += embedder.fill(every, progress=progress, desc=desc)
    return done
