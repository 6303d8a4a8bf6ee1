"""A no-name copy of a benchmark folder: every query without the opening that names its document.

LegalBench-RAG's queries open with the document they mean ("Consider the Non-Disclosure Agreement
between X and Y; Does the document …?"); a user typing a free question into Compare usually does
not. :func:`write_noname` writes a new benchmark folder (:func:`.transformed.write_transformed`:
same tests in the same order, corpus and summaries linked, nothing of the data copied) whose
queries are their question part (:func:`~sac_core.engine.retrieval.split_query`; a query without
an opening is kept whole), so every protocol selects the same queries with the same ids and gold
spans. Each file carries ``"transform": "no-name"``, so a sweep cell on the copy never shares an id
with the original's.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.retrieval import split_query
from .transformed import write_transformed

TRANSFORM = "no-name"


def strip_opening(query: str) -> str:
    """``query`` without its opening document reference (the whole query when it has none)."""
    return split_query(query).question


def write_noname(data_dir: Path, out_dir: Path) -> dict[str, tuple[int, int]]:
    """Write the copy; returns ``dataset → (queries, queries whose opening was removed)``. Raises
    :class:`BenchmarkError` when ``out_dir`` lies inside the project or exists and is not empty, or
    a benchmark file cannot be read."""
    return write_transformed(data_dir, out_dir, strip_opening, transform=TRANSFORM, what="no-name benchmark")
