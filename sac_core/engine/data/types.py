"""The benchmark's data types: documents, queries and their gold character spans ``[start, end)``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property

from .. import store

DATASETS: tuple[str, ...] = ("contractnli", "cuad", "maud", "privacy_qa")


class BenchmarkError(ValueError):
    """The data directory does not hold a valid benchmark; the message names file and query."""


@dataclass(frozen=True)
class Span:
    """Characters ``[start, end)`` of one document, named by its path relative to ``corpus/``."""

    file_path: str
    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Query:
    """One benchmark question: id ``<dataset>/<0-based index in its file>`` and its gold spans."""

    query_id: str
    dataset: str
    text: str
    gold: tuple[Span, ...]

    @property
    def gold_files(self) -> frozenset[str]:
        return frozenset(s.file_path for s in self.gold)


@dataclass(frozen=True)
class Document:
    file_path: str
    text: str
    # SHA-256 (hex) of the text as UTF-8: part of every result's identity (computed when not given;
    # a document read from disk gets it from the remembered file hash, see .digests).
    sha256: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.sha256:
            object.__setattr__(self, "sha256", store.sha256(self.text))

    @property
    def dataset(self) -> str:
        return self.file_path.split("/", 1)[0]


@dataclass(frozen=True)
class Benchmark:
    """Selected queries and the documents they cite (the retrieval pool), keyed by file path."""

    queries: tuple[Query, ...]
    documents: dict[str, Document]
    # How the queries were derived from a published benchmark ("" = as published; "no-name": their
    # opening document reference removed, see ``sac noname``). Part of a sweep cell's data fingerprint.
    transform: str = ""

    @property
    def datasets(self) -> tuple[str, ...]:
        """Datasets of the queries, then of documents no query cites (a corpus without gold)."""
        return tuple(dict.fromkeys([*(q.dataset for q in self.queries), *(d.dataset for d in self.documents.values())]))

    @cached_property
    def digest(self) -> str:
        """SHA-256 (hex) of everything this benchmark feeds a run: how its queries were derived,
        every query's id, text and gold spans, every document's path and content (computed once)."""
        payload = {
            "transform": self.transform,
            "queries": [[q.query_id, q.text, [[s.file_path, s.start, s.end] for s in q.gold]] for q in self.queries],
            "documents": sorted([fp, doc.sha256] for fp, doc in self.documents.items()),
        }
        return store.sha256(json.dumps(payload, ensure_ascii=False))  # the keys in this order, as first hashed

    def subset(self, datasets: tuple[str, ...]) -> Benchmark:
        """Only the queries and documents of ``datasets``."""
        queries = tuple(q for q in self.queries if q.dataset in datasets)
        return Benchmark(queries, {fp: d for fp, d in self.documents.items() if d.dataset in datasets}, self.transform)
