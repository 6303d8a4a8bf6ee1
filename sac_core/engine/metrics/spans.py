"""Character-level precision and recall between retrieved and gold spans ``[start, end)``.

``merged`` (default): retrieved spans are merged per document first, so characters covered by
two overlapping chunks count once; gold spans are merged likewise. Then

    precision = |retrieved ∩ gold| / |retrieved|,   recall = |retrieved ∩ gold| / |gold|

over character positions. ``compat`` reproduces LegalBench-RAG's ``QAResult`` exactly: plain
sums over every (retrieved, gold) pair in the same file, without merging. The two agree
whenever the retrieved spans do not overlap. Precision is 0 when nothing is retrieved.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..data import Span

MODES: tuple[str, ...] = ("merged", "compat")


def merge_spans(spans: Iterable[Span]) -> list[Span]:
    """Union of spans per document: sorted, non-overlapping; touching spans are joined."""
    by_file: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for s in spans:
        by_file[s.file_path].append((s.start, s.end))
    merged: list[Span] = []
    for fp in sorted(by_file):
        ranges = sorted(by_file[fp])
        cur_s, cur_e = ranges[0]
        for start, end in ranges[1:]:
            if start <= cur_e:
                cur_e = max(cur_e, end)
            else:
                merged.append(Span(fp, cur_s, cur_e))
                cur_s, cur_e = start, end
        merged.append(Span(fp, cur_s, cur_e))
    return merged


def _overlap_sum(retrieved: Sequence[Span], gold: Sequence[Span]) -> int:
    total = 0
    for r in retrieved:
        for g in gold:
            if r.file_path == g.file_path:
                total += max(0, min(r.end, g.end) - max(r.start, g.start))
    return total


def precision_recall(retrieved: Sequence[Span], gold: Sequence[Span], mode: str = "merged") -> tuple[float, float]:
    """Character precision and recall of ``retrieved`` (already cut to top-k) against ``gold``."""
    if mode == "merged":
        retrieved, gold = merge_spans(retrieved), merge_spans(gold)
    elif mode != "compat":
        raise ValueError(f"unknown metric mode {mode!r}; choose one of {', '.join(MODES)}")
    hit = _overlap_sum(retrieved, gold)
    retrieved_len = sum(len(s) for s in retrieved)
    gold_len = sum(len(s) for s in gold)
    precision = hit / retrieved_len if retrieved_len else 0.0
    recall = hit / gold_len if gold_len else 0.0
    return precision, recall
