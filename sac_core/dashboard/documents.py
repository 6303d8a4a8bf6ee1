"""The Documents page's logic: a document's summaries, its legal entities and sections, and the
gold spans that lie in it."""

from __future__ import annotations

from pathlib import Path

from ..engine.chunking import Chunk, chunk_document
from ..engine.data import Benchmark, Query, Span
from ..engine.entities import extract_entities
from ..engine.retrieval.sections import split_sections
from ..engine.summaries import SummaryConfig, summarize_documents


def chunks(file_path: str, text: str, size: int, overlap: int) -> list[Chunk]:
    """The document cut as the page shows it: the rcts chunker, ``size`` characters a chunk,
    ``overlap`` characters shared by neighbours."""
    return chunk_document(file_path, text, "rcts", size, overlap)


def summary_prompts(provider: str) -> tuple[str, ...]:
    """Prompts worth showing for a provider: the extractive one reads no prompt, so just one."""
    return ("generic",) if provider == "extractive" else ("generic", "expert")


def document_summaries_for(
    file_path: str,
    text: str,
    provider: str,
    chars: int,
    data_dir: Path,
    cache_dir: Path,
    api_key: str | None = None,
) -> dict[str, str]:
    """``prompt → summary`` of one document (from the caches or the summary file when there)."""
    out = {}
    for prompt in summary_prompts(provider):
        config = SummaryConfig(provider=provider, prompt=prompt, chars=chars).resolved(data_dir)
        records = summarize_documents({file_path: text}, config, cache_dir, api_key=api_key, progress=False)
        out[prompt] = records[file_path].summary
    return out


def gold_by_document(bench: Benchmark) -> dict[str, list[tuple[Query, Span]]]:
    """For every document of the benchmark: its (query, gold span) pairs in span order (one pass)."""
    out: dict[str, list[tuple[Query, Span]]] = {fp: [] for fp in bench.documents}
    for q in bench.queries:
        for s in q.gold:
            out.setdefault(s.file_path, []).append((q, s))
    for pairs in out.values():
        pairs.sort(key=lambda p: (p[1].start, p[1].end, p[0].query_id))
    return out


def queries_citing(bench: Benchmark, file_path: str) -> list[tuple[Query, Span]]:
    """Every (query, gold span) of the benchmark that lies in document ``file_path``, in span order."""
    return gold_by_document(bench).get(file_path, [])


def entity_rows(text: str) -> list[dict[str, str]]:
    """The legal entities the entity signal of retrieval matches queries against (one row each)."""
    return [{"entity": kind, "value": value} for kind, value in extract_entities(text).rows()]


def section_rows(text: str) -> list[dict[str, object]]:
    """The sections the section routing ranks: heading and character span ``[start, end)``."""
    return [
        {
            "section": i,
            "heading": s.heading or "(opening text)",
            "start": s.start,
            "end": s.end,
            "characters": s.end - s.start,
        }
        for i, s in enumerate(split_sections(text), start=1)
    ]
