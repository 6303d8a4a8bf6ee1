"""The best ranking a pool of chunks allows: the limit any method with these chunks stays under.

An :class:`OracleRanker` reads the gold spans (it is a measuring stick, never a method to use):
for a benchmark query it ranks first the chunks of its gold documents that hold gold characters,
the highest share of gold characters first (ties: more gold characters, then pool order): the
order that makes precision at every k highest; then the other chunks of its
gold documents (pool order); then every other chunk (pool order). Its DRM@k is therefore zero
until the gold documents run out of chunks, and its precision and recall at k are what a perfect
router and a perfect within-document ranker reach with these chunks: the oracle floor of DRM and
the oracle limits of precision and recall that a method's figures are read against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..data import Query, Span
from ..metrics.spans import merge_spans
from .pool import Pool
from .ranker import Hit, Ranker


class OracleRanker(Ranker):
    """The pool's chunks in the order the gold spans of each query make best (module docstring).
    A query given by text (not a benchmark query) gets the gold of the first benchmark query with
    that text, or the pool order when there is none."""

    pool: Pool

    def __init__(self, pool: Pool, queries: Sequence[Query]) -> None:
        self.pool = pool
        self.gold = {q.query_id: q for q in queries}
        self.by_text: dict[str, Query] = {}
        for q in queries:
            self.by_text.setdefault(q.text, q)
        self.of_file: dict[str, list[int]] = {}
        for i, c in enumerate(pool.chunks):
            self.of_file.setdefault(c.file_path, []).append(i)

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        return [self._ranked(self.by_text.get(q), k) for q in queries]

    def search_queries(self, queries: Sequence[Query], k: int, *, progress: bool = False) -> list[list[Hit]]:
        return [self._ranked(self.gold.get(q.query_id, q), k) for q in queries]

    def _ranked(self, query: Query | None, k: int) -> list[Hit]:
        """The top ``k`` chunks for ``query``; each hit's score is its gold characters."""
        chunks = self.pool.chunks
        if query is None:
            return [Hit(c, 0.0) for c in chunks[:k]]
        gold = merge_spans(query.gold)
        own = [i for fp in sorted(query.gold_files) for i in self.of_file.get(fp, [])]
        held = {i: _gold_chars(chunks[i].file_path, chunks[i].start, chunks[i].end, gold) for i in own}
        first = sorted(
            (i for i in own if held[i] > 0), key=lambda i: (-held[i] / max(1, len(chunks[i].text)), -held[i], i)
        )
        rest = sorted(i for i in own if held[i] == 0)
        order = first + rest
        if len(order) < k:
            mine = np.zeros(len(chunks), dtype=bool)
            mine[own] = True
            order += [int(i) for i in np.flatnonzero(~mine)[: k - len(order)]]
        return [Hit(chunks[i], float(held.get(i, 0))) for i in order[:k]]


def _gold_chars(file_path: str, start: int, end: int, gold: Sequence[Span]) -> int:
    """Characters of ``[start, end)`` of ``file_path`` that the (merged) gold spans cover."""
    return sum(max(0, min(end, g.end) - max(start, g.start)) for g in gold if g.file_path == file_path)
