"""The Compare page's logic: which indexes are shown side by side, opening their saved indexes (or
the background build that makes them), what building them would cost, and how much of each gold
span every index found. :class:`NotBuilt` (what :func:`open_column` raises, which the page catches)
and :func:`load_prompt` are re-exported for the page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.chunking import Chunk, chunk_document
from ..engine.data import Benchmark, Query, Span
from ..engine.embedding import Embedder, Embedders
from ..engine.entities import extract_entities
from ..engine.indexes import search_threads
from ..engine.retrieval import Hit, Ranker, as_spans, augment
from ..engine.summaries import CostEstimate, SummaryConfig, estimate_cost
from ..engine.summaries import load_prompt as load_prompt
from ..experiments import (
    Column,
    ColumnResult,
    OpenContext,
    RunConfig,
    Workspace,
    catalogue,
    catalogue_columns,
    default_keys,
    open_method,
)
from ..experiments import NotBuilt as NotBuilt
from .builds import BuildJob
from .highlight import covered

MIN_COLUMNS, MAX_COLUMNS = 2, 5
PARAM_COLUMNS = "cols"  # URL parameter: comma-separated method keys
# Where the method picker sends a reader for what each method does (a page of the documentation).
METHODS_DOC = "docs/methods/index.md"
METHODS_LABEL = f"Methods side by side ({MIN_COLUMNS}-{MAX_COLUMNS}; the documentation's Methods page, {METHODS_DOC}, explains each)"
# Each column's metrics: (key, label, what it measures at k, said where it is shown: the metric's help).
METRICS: tuple[tuple[str, str, str], ...] = (
    ("drm", "DRM", "Document-Level Retrieval Mismatch: the share of the top {k} chunks that come from a wrong "
     "document (lower is better)."),
    ("precision", "precision", "Character precision: the share of the top {k} chunks' characters that lie inside "
     "a gold span. A chunk of the right document counts its text around the clause against it, so four ✓ "
     "chunks can still score 15 %."),
    ("recall", "recall", "Character recall: the share of the gold spans' characters found in the top {k} chunks."),
)  # fmt: skip
SCORES_NOTE = (
    "A chunk's score is on its own method's scale (a cosine, a sum of fused signals, …): scores of different "
    "columns cannot be compared, their ranks (#1, #2, …) can."
)


def method_choices(base: RunConfig, bench: Benchmark | None = None) -> dict[str, str]:
    """``method key → display name`` of every method a user can put in a column (the catalogue;
    with ``bench``, only what fits it: an imported run only on its own benchmark)."""
    return {key: preset.title for key, preset in catalogue(base, bench).items()}


def parse_methods(raw: str | None, base: RunConfig, bench: Benchmark | None = None) -> tuple[str, ...]:
    """Method keys from the URL (``cols=baseline,doc-aware``): unknown keys dropped, at most
    five; fewer than two known keys → the default columns."""
    known = catalogue(base, bench)
    keys = tuple(dict.fromkeys(k.strip() for k in (raw or "").split(",") if k.strip() in known))[:MAX_COLUMNS]
    return keys if len(keys) >= MIN_COLUMNS else default_methods(base, bench)


def default_methods(base: RunConfig, bench: Benchmark | None = None) -> tuple[str, ...]:
    """The default columns; for a ``bench`` without questions (an ingested corpus), none that learns
    from labelled questions (:attr:`Preset.needs_questions`)."""
    return default_keys(base, bench)


def compare_columns(
    base: RunConfig, methods: Sequence[str] | None = None, bench: Benchmark | None = None
) -> tuple[Column, ...]:
    """The columns shown side by side: ``methods`` (keys of :func:`method_choices`, by default the
    catalogue's default columns: baseline, SAC generic, recommended; one SAC column with the
    extractive provider, which ignores the prompt)."""
    return catalogue_columns(base, methods, bench)


def pending_cost(bench: Benchmark, columns: Sequence[Column], data_dir: Path, cache_dir: Path) -> CostEstimate:
    """What opening ``columns`` would still request from the ``openai`` provider (cached: free),
    each set of summaries counted once however many columns read it."""
    texts = {fp: d.text for fp, d in bench.documents.items()}
    wanted: dict[SummaryConfig, None] = {}
    for col in columns:
        for summary in col.config.summaries_read():
            if summary.provider == "openai":
                wanted[summary.resolved(data_dir)] = None
    estimates = [estimate_cost(texts, summary, cache_dir) for summary in wanted]
    return CostEstimate(
        sum(e.documents for e in estimates),
        sum(e.input_tokens for e in estimates),
        sum(e.output_tokens for e in estimates),
        sum(e.usd for e in estimates),
        estimated=True,
    )


def columns_key(ws: Workspace) -> str:
    """What a workspace's columns are (names and every setting: their ``repr``): part of a shared
    cache key, as text (a cache hashes it at once; hashing the configs field by field costs ms)."""
    return column_set_key(ws.columns)


def column_set_key(columns: Sequence[Column]) -> str:
    """:func:`columns_key` of ``columns`` before they are opened in a workspace."""
    return repr(tuple((c.name, c.config) for c in columns))


def query_key(query: Query | None) -> str | None:
    """A benchmark query's id (None for free text): part of a shared cache key."""
    return None if query is None else query.query_id


def reference(results: Sequence[ColumnResult]) -> ColumnResult | None:
    """The column the others' metrics are compared with (the baseline, as the workspace chose it), if shown."""
    return next((r for r in results if r.baseline), None)


def with_summaries(ws: Workspace, results: Sequence[ColumnResult]) -> list[ColumnResult]:
    """The columns whose index prepended document summaries (SAC and its kin), in order."""
    return [r for r in results if ws.summaries.get(r.column.name)]


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


def load_embedder(config: RunConfig, cache_dir: Path) -> Embedder:
    """The embedding model ``config`` names (its model and backend) over the embedding cache of
    ``cache_dir``: what the server loads once and shares among the columns that use it."""
    return Embedder(config.model, Path(cache_dir), backend=config.backend)


def open_column(
    bench: Benchmark, config: RunConfig, data_dir: Path, cache_dir: Path, embedder: Embedder, api_key: str | None = None
) -> tuple[Ranker, Mapping[str, str]]:
    """A column's ranker opened from its saved index (``embedder``: the server's loaded model), and
    the summaries its index prepended ({} when none); raises :class:`NotBuilt` when the index is
    missing or stale (never builds: that is a job). The server's searches run single-threaded from
    then on (:func:`~sac_core.engine.indexes.search_threads`): one question per session at a time."""
    search_threads(1)
    embedders = Embedders(cache_dir)
    embedders.add(embedder)
    ctx = OpenContext(bench, Path(data_dir), Path(cache_dir), embedders, api_key=api_key, build=False)
    opened = open_method(config, ctx)
    return opened.ranker, opened.summaries


def workspace(
    bench: Benchmark, columns: Sequence[Column], opened: Mapping[str, tuple[Ranker, Mapping[str, str]]], data_key: str
) -> Workspace | None:
    """The Compare workspace over the ``columns`` already ``opened`` (ranker and summaries by column
    name; the others left out), on the data ``data_key`` names; None when none is open."""
    ready = [col for col in columns if col.name in opened]
    if not ready:
        return None
    rankers = {col.name: opened[col.name][0] for col in ready}
    return Workspace(bench, ready, rankers, {col.name: opened[col.name][1] for col in ready}, data_key)


def index_job(column: Column, data_dir: Path, cache_dir: Path) -> BuildJob:
    """The background build that makes what ``column`` needs saved (its method's index, and what its
    stages need), labelled in words: the column's name, and the index it works on when that is
    another method's (the variant id is for exports, not for a progress bar a reader sees)."""
    config = column.config
    on = f" (on the {config.method_plugin.title} index)" if config.stages else ""
    return BuildJob("index", Path(data_dir), Path(cache_dir), config, f"{column.name}{on}")


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


def _gold_chunks(ranker: Ranker, config: RunConfig, bench: Benchmark, gold_doc: str) -> list[Chunk]:
    """The chunks of the gold document as the column's index holds them (chunked with the
    column's settings when its method has no chunk index)."""
    if ranker.pool is not None:
        return [c for c in ranker.pool.chunks if c.file_path == gold_doc]
    text = bench.documents[gold_doc].text
    return chunk_document(gold_doc, text, config.chunker, config.chunk_size, config.chunk_overlap)


def explain_wrong_hit(
    ws: Workspace, column: str, rank: int, hit: Hit, query: Query, asked: str, embedder: Embedder | None = None
) -> WrongHit:
    """The explanation of one wrong-document hit of ``column`` (see :class:`WrongHit`). The query
    and chunks are encoded by the column's own model, else ``embedder``, else another column's."""
    ranker = ws.retrievers[column]
    with_summaries = [c.name for c in ws.columns if ws.summaries.get(c.name)]  # SAC-like: summaries prepended
    source = column if column in with_summaries else (with_summaries[0] if with_summaries else "")
    summaries = ws.summaries.get(source, {})
    gold_doc = sorted(query.gold_files)[0]
    config = next(c.config for c in ws.columns if c.name == column)
    gold_chunks = _gold_chunks(ranker, config, ws.bench, gold_doc)
    candidates = [e for e in (ranker.embedder, embedder, *ws.embedders()) if e is not None]
    if not candidates:
        raise ValueError("no embedding model to explain this hit with")
    embedder = candidates[0]
    vectors = embedder.encode([asked, hit.chunk.text, *(c.text for c in gold_chunks)], progress=False)
    q, chunk_vec, gold_vecs = vectors[0], vectors[1], vectors[2:]
    best = int(np.argmax(gold_vecs @ q)) if len(gold_chunks) else None
    gold_chunk = gold_chunks[best] if best is not None else None
    with_summary: list[float | None] = [None, None]
    wrong_summary, gold_summary = summaries.get(hit.chunk.file_path), summaries.get(gold_doc)
    if wrong_summary is not None:
        with_summary[0] = float(embedder.encode([augment(hit.chunk.text, wrong_summary)], progress=False)[0] @ q)
    if gold_summary is not None and gold_chunk is not None:
        with_summary[1] = float(embedder.encode([augment(gold_chunk.text, gold_summary)], progress=False)[0] @ q)
    docs = ws.bench.documents
    return WrongHit(
        column, rank, hit.chunk, gold_chunk, (wrong_summary, gold_summary), source,
        _facts(docs[hit.chunk.file_path].text, docs[gold_doc].text),
        (float(chunk_vec @ q), float(gold_vecs[best] @ q) if best is not None else None),
        (with_summary[0], with_summary[1]),
    )  # fmt: skip
