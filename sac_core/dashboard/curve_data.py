"""What a sweep of the Curves page ran on and what made it: its protocol and datasets (said in words
beside its figures), the code and data behind its cells, and whether the data folder in use is that
data (read from its results table; the figures are :mod:`.curve_views`, the reading :mod:`.curves`)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..engine.data import Benchmark
from ..experiments.cells import DATA_DIGEST

# Each query protocol in words: which queries of a dataset, over which documents (engine/data/protocols.py).
PROTOCOL_WORDS: dict[str, str] = {
    "lbr-mini": "LegalBench-RAG-mini: 194 queries per dataset, chosen by their document, so few documents; "
    "the protocol the dashboard opens on",
    "paper": "the SAC paper's: 194 random queries per dataset, over many more documents",
    "full": "every query of each dataset",
    "corpus": "every query, and every document of the corpus folder",
}
HEADLINE_PROTOCOL = "paper"  # the protocol of the README's headline table


def data_check(results: pd.DataFrame, bench: Benchmark | None) -> str | None:
    """Why a sweep's figures were not computed on ``bench`` (the folder in use, loaded with the
    sweep's protocol and datasets; None: it has not those datasets), or None when they were or the
    table does not say (written before results carried their data digest)."""
    if DATA_DIGEST not in results.columns:
        return None
    digests = sorted({str(d) for d in results[DATA_DIGEST].dropna().unique()})
    if not digests:
        return None
    if bench is None:
        return "computed on other data: the data folder in use has not this sweep's datasets"
    here = bench.digest[: len(digests[0])]
    if here not in digests:
        return f"computed on other data (digest {', '.join(digests)}) than the folder in use ({here})"
    if len(digests) > 1:
        return f"{len(digests) - 1} of its data digests are not the folder in use's ({here}): mixed data"
    return None


@dataclass(frozen=True)
class SweepData:
    """What a sweep ran on, read from its results table: the protocol, the pooled datasets and the
    pool's numbers of queries and documents (None where the table does not say)."""

    protocol: str | None
    datasets: tuple[str, ...]
    queries: int | None
    documents: int | None

    def describe(self) -> str:
        size = "" if self.queries is None else f": {self.queries:,} queries, {self.documents or 0:,} documents"
        return f"protocol {self.protocol or '?'}, datasets {', '.join(self.datasets) or '?'}{size}"

    def matches(self, bench: Benchmark) -> bool:
        """``bench`` (loaded with this protocol and these datasets) is the data the sweep ran on: the
        same numbers of queries and documents. Query ids name a query only within its data folder,
        so Curves links a flipped query to Compare only then."""
        return (
            self.queries is not None
            and set(self.datasets) == set(bench.datasets)
            and (self.queries, self.documents) == (len(bench.queries), len(bench.documents))
        )


def sweep_data(results: pd.DataFrame) -> SweepData:
    """:class:`SweepData` from a sweep's results (its ``ALL`` rows; one value each, else unknown)."""
    rows = results[results["dataset"] == "ALL"] if (results["dataset"] == "ALL").any() else results

    def one(column: str) -> object:
        values = rows[column].dropna().unique().tolist() if column in rows.columns else []
        return values[0] if len(values) == 1 else None

    named = one("datasets")
    datasets = tuple(str(named).split(",")) if named else tuple(sorted(set(results["dataset"]) - {"ALL"}))
    queries, documents = one("n_queries"), one("n_documents")
    return SweepData(
        None if one("protocol") is None else str(one("protocol")),
        tuple(d for d in datasets if d != "ALL"),
        None if queries is None else int(queries),  # type: ignore[call-overload]
        None if documents is None else int(documents),  # type: ignore[call-overload]
    )


def protocol_note(data: SweepData) -> str:
    """Which protocol a sweep's numbers are on, in words, and whether it is the README headline's: the
    pages open on lbr-mini, the README's headline is on the paper protocol, and the numbers differ."""
    protocol = data.protocol or "?"
    words = PROTOCOL_WORDS.get(protocol, "a protocol this version does not describe")
    size = "" if data.queries is None else f", {data.queries:,} queries, {data.documents or 0:,} documents"
    line = f"These numbers are on protocol {protocol} ({words}): datasets {', '.join(data.datasets) or '?'}{size}."
    if protocol == HEADLINE_PROTOCOL:
        return line + " The README's headline table is on this protocol too."
    return line + (
        f" The README's headline table is on protocol {HEADLINE_PROTOCOL} ({PROTOCOL_WORDS[HEADLINE_PROTOCOL]}): "
        "other queries, other numbers (its sweeps are named …-paper)."
    )
