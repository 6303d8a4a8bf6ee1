"""The Compare page's logic: which indexes are shown side by side, opening their saved indexes (or
the background build that makes them), what building them would cost, and how much of each gold
span every index found. Names the page needs from elsewhere are re-exported (``import X as X``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.chunking import Chunk
from ..engine.data import Benchmark, Span
from ..engine.data import Query as Query
from ..engine.embedding import Embedder as Embedder
from ..engine.entities import extract_entities
from ..engine.retrieval import Hit, Retriever, Signals, as_spans, augment
from ..engine.summaries import CostEstimate, SummaryConfig, estimate_cost
from ..engine.summaries import SummaryError as SummaryError
from ..engine.summaries import load_prompt as load_prompt
from ..experiments import DEFAULT_METHODS, Column, ColumnResult, RunConfig, method_catalogue
from ..experiments import Workspace as Workspace
from ..experiments.index_store import document_summaries, load_retriever
from ..experiments.signals import with_signals
from .builds import BuildJob
from .highlight import covered

MIN_COLUMNS, MAX_COLUMNS = 2, 5
PARAM_COLUMNS = "cols"  # URL parameter: comma-separated method keys


def method_choices(base: RunConfig) -> dict[str, str]:
    """``method key → display name`` of every method a user can put in a column."""
    return {key: name for key, (name, _config) in method_catalogue(base).items()}


def parse_methods(raw: str | None, base: RunConfig) -> tuple[str, ...]:
    """Method keys from the URL (``cols=baseline,doc-aware``): unknown keys dropped, at most
    five; fewer than two known keys → the default columns."""
    known = method_catalogue(base)
    keys = tuple(dict.fromkeys(k.strip() for k in (raw or "").split(",") if k.strip() in known))[:MAX_COLUMNS]
    return keys if len(keys) >= MIN_COLUMNS else default_methods(base)


def default_methods(base: RunConfig) -> tuple[str, ...]:
    known = method_catalogue(base)
    return tuple(k for k in DEFAULT_METHODS if k in known)


def compare_columns(base: RunConfig, methods: Sequence[str] | None = None) -> tuple[Column, ...]:
    """The indexes shown side by side: ``methods`` (keys of :func:`method_choices`, default
    baseline / SAC generic / SAC expert). The extractive provider ignores the prompt, so it gets
    one SAC column instead of two identical ones."""
    catalogue = method_catalogue(base)
    keys = [k for k in (methods or default_methods(base)) if k in catalogue]
    return tuple(Column(catalogue[k][0], catalogue[k][1]) for k in keys)


def pending_cost(bench: Benchmark, columns: Sequence[Column], data_dir: Path, cache_dir: Path) -> CostEstimate:
    """What building ``columns`` would still request from the ``openai`` provider (cached: free)."""
    texts = {fp: d.text for fp, d in bench.documents.items()}
    docs = tokens_in = tokens_out = 0
    usd = 0.0
    for col in columns:
        cfg = col.config
        if cfg.method != "sac" or cfg.summary.provider != "openai":
            continue
        est = estimate_cost(texts, cfg.summary.resolved(data_dir), cache_dir)
        docs, tokens_in, tokens_out, usd = (
            docs + est.documents,
            tokens_in + est.input_tokens,
            tokens_out + est.output_tokens,
            usd + est.usd,
        )
    return CostEstimate(docs, tokens_in, tokens_out, usd, estimated=True)


def gold_coverage(query: Query, results: Sequence[ColumnResult]) -> list[tuple[Span, dict[str, float]]]:
    """For each gold span: the share of its characters each column's top-k covers (0..1)."""
    return [(g, {r.column.name: covered(g, as_spans(r.hits)) for r in results}) for g in query.gold]


def summary_source(config: SummaryConfig, data_dir: Path) -> str:
    """Where a ``file`` provider reads its summaries, relative to the data directory when inside it."""
    path = config.resolved(data_dir).summary_file
    if path is None:
        return "(no summary file)"
    try:
        return f"{Path(path).relative_to(data_dir)} in the data directory"
    except ValueError:
        return str(path)


class NotBuilt(LookupError):
    """A column's saved index is missing or stale: it has to be built first."""


def open_column(
    bench: Benchmark, column: Column, data_dir: Path, cache_dir: Path, embedder: Embedder, api_key: str | None = None
) -> tuple[Retriever, dict[str, str]]:
    """The column's retriever from its fresh saved index, and its summaries ({} for a baseline);
    raises :class:`NotBuilt` when the index is missing or stale (never builds: that is a job)."""
    config = column.config
    summaries = document_summaries(bench, config, data_dir, cache_dir, api_key, progress=False)
    retriever = load_retriever(bench, config, cache_dir, embedder, summaries)
    if retriever is None:
        raise NotBuilt(column.name)
    return with_signals(retriever, bench, config, data_dir, cache_dir, embedder, api_key), summaries or {}


def index_job(column: Column, data_dir: Path, cache_dir: Path) -> BuildJob:
    """The background build that makes ``column``'s saved index."""
    bare = column.config.with_(signals=Signals())  # signals are retrieval-time: the method's own index
    return BuildJob("index", Path(data_dir), Path(cache_dir), bare, f"{column.name} ({bare.variant})")


# --------------------------------------------------------------------------- why this wrong document


@dataclass(frozen=True)
class WrongHit:
    """Why an index ranked a chunk of another document: the two documents' summaries and facts,
    and the query's cosine to the chunk without and with the summary prefix (and the same for the
    best chunk of the gold document, for comparison)."""

    column: str
    rank: int
    chunk: Chunk
    gold_chunk: Chunk | None
    summaries: tuple[str | None, str | None]  # (wrong document's, gold document's) summary
    summary_source: str  # which index's summaries: the column's, or the first SAC column's
    facts: tuple[tuple[str, str, str], ...]  # (fact, wrong document's value, gold document's value)
    without_summary: tuple[float, float | None]  # cosine: (wrong chunk, best gold chunk)
    with_summary: tuple[float | None, float | None]


def wrong_hits(results: Sequence[ColumnResult]) -> list[tuple[str, int, Hit]]:
    """(column, rank, hit) of every hit from a wrong document, column by column."""
    return [(r.column.name, rank, h) for r in results
            for rank, (h, gold) in enumerate(zip(r.hits, r.gold_document), start=1) if not gold]  # fmt: skip


def _facts(wrong: str, gold: str) -> tuple[tuple[str, str, str], ...]:
    a, b = extract_entities(wrong), extract_entities(gold)
    return (
        ("title", a.title, b.title),
        ("parties", "; ".join(a.parties) or "—", "; ".join(b.parties) or "—"),
        ("date", a.date or "—", b.date or "—"),
        ("governing law", a.governing_law or "—", b.governing_law or "—"),
    )


def explain_wrong_hit(ws: Workspace, column: str, rank: int, hit: Hit, query: Query, asked: str) -> WrongHit:
    """The explanation of one wrong-document hit of ``column`` (see :class:`WrongHit`)."""
    retriever = ws.retrievers[column]
    sac = [c.name for c in ws.columns if c.config.method == "sac"]
    source = column if column in sac else (sac[0] if sac else "")
    summaries = ws.summaries.get(source, {})
    gold_doc = sorted(query.gold_files)[0]
    gold_chunks = [c for c in retriever.pool.chunks if c.file_path == gold_doc]
    embedder = retriever.embedder
    vectors = embedder.encode([asked, hit.chunk.text, *(c.text for c in gold_chunks)], False)
    q, chunk_vec, gold_vecs = vectors[0], vectors[1], vectors[2:]
    best = int(np.argmax(gold_vecs @ q)) if len(gold_chunks) else None
    gold_chunk = gold_chunks[best] if best is not None else None
    with_summary: list[float | None] = [None, None]
    wrong_summary, gold_summary = summaries.get(hit.chunk.file_path), summaries.get(gold_doc)
    if wrong_summary is not None:
        with_summary[0] = float(embedder.encode([augment(hit.chunk.text, wrong_summary)], False)[0] @ q)
    if gold_summary is not None and gold_chunk is not None:
        with_summary[1] = float(embedder.encode([augment(gold_chunk.text, gold_summary)], False)[0] @ q)
    docs = ws.bench.documents
    return WrongHit(
        column, rank, hit.chunk, gold_chunk, (wrong_summary, gold_summary), source,
        _facts(docs[hit.chunk.file_path].text, docs[gold_doc].text),
        (float(chunk_vec @ q), float(gold_vecs[best] @ q) if best is not None else None),
        (with_summary[0], with_summary[1]),
    )  # fmt: skip
