"""Query-selection protocols: which queries of a dataset are evaluated.

- ``full``: every query.
- ``corpus``: every query, and every document of the dataset's corpus folder in the pool, cited
  or not (your own documents, with or without a small gold file).
- ``lbr-mini``: LegalBench-RAG-mini, upstream's ``SORT_BY_DOCUMENT`` rule: stable sort by
  ``random.seed(first_snippet_file_path); random.random()`` and keep the first 194.
- ``paper``: the SAC paper's rule: ``random.seed(f"{dataset}194")`` (or ``seed``),
  ``random.shuffle`` and keep the first 194.
"""

from __future__ import annotations

import random

from .types import BenchmarkError, Query

PROTOCOLS: tuple[str, ...] = ("full", "lbr-mini", "paper", "corpus")
QUERIES_PER_DATASET = 194


def select(queries: list[Query], protocol: str, dataset: str, seed: int | None = None) -> list[Query]:
    if protocol in ("full", "corpus"):
        return list(queries)
    if protocol == "lbr-mini":
        return sorted(queries, key=_document_key)[:QUERIES_PER_DATASET]
    if protocol == "paper":
        shuffled = list(queries)
        random.Random(f"{dataset}{QUERIES_PER_DATASET}" if seed is None else seed).shuffle(shuffled)
        return shuffled[:QUERIES_PER_DATASET]
    raise BenchmarkError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")


def _document_key(query: Query) -> float:
    # Upstream seeds the global generator with the file path; a private Random gives the same draw.
    return random.Random(query.gold[0].file_path).random()
