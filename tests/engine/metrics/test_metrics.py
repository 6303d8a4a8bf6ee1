"""Hand-computed expected values. Gold: doc A [100, 200) and [300, 350) → 150 gold characters.

Ranked retrieval: A[150, 250), A[180, 260) (overlaps the first), B[0, 100) (wrong document),
A[320, 330).
"""

import math

import pandas as pd
import pytest

from sac_core.engine.data import Query, Span
from sac_core.engine.metrics import (
    drm,
    hit,
    mean_by_dataset,
    merge_spans,
    mrr,
    ndcg,
    precision_recall,
    score_query,
    score_run,
)

GOLD = (Span("A", 100, 200), Span("A", 300, 350))
QUERY = Query("ds/0", "ds", "q", GOLD)
RUN = [Span("A", 150, 250), Span("A", 180, 260), Span("B", 0, 100), Span("A", 320, 330)]


def test_merge_spans_joins_overlaps_per_document():
    merged = merge_spans([Span("A", 180, 260), Span("B", 0, 10), Span("A", 150, 250), Span("A", 260, 270)])
    assert merged == [Span("A", 150, 270), Span("B", 0, 10)]


@pytest.mark.parametrize(
    "k, precision, recall",
    [
        (1, 50 / 100, 50 / 150),  # A[150,250) covers 50 gold characters
        (2, 50 / 110, 50 / 150),  # merged A[150,260): the overlap is counted once
        (4, 60 / 220, 60 / 150),  # + B (100 wrong characters) + A[320,330) (10 gold)
        (8, 60 / 220, 60 / 150),  # k beyond the 4 results changes nothing
    ],
)
def test_merged_precision_recall(k, precision, recall):
    assert precision_recall(RUN[:k], GOLD) == pytest.approx((precision, recall))


@pytest.mark.parametrize("k, precision, recall", [(2, 70 / 180, 70 / 150), (4, 80 / 290, 80 / 150)])
def test_compat_mode_counts_overlapping_chunks_twice(k, precision, recall):
    # LegalBench-RAG sums per chunk: A[180,260) adds its own 20 gold characters again.
    assert precision_recall(RUN[:k], GOLD, "compat") == pytest.approx((precision, recall))


def test_several_gold_documents_and_wrong_documents():
    gold = (Span("A", 0, 10), Span("C", 0, 30))
    retrieved = [Span("C", 0, 15), Span("B", 0, 50), Span("A", 5, 10)]
    assert precision_recall(retrieved, gold) == pytest.approx((20 / 70, 20 / 40))
    assert drm([s.file_path for s in retrieved], {"A", "C"}) == pytest.approx(1 / 3)


def test_drm_and_empty_retrieval():
    files = [s.file_path for s in RUN]
    assert drm(files[:2], {"A"}) == 0.0
    assert drm(files, {"A"}) == 0.25
    assert math.isnan(drm([], {"A"}))
    assert precision_recall([], GOLD) == (0.0, 0.0)
    empty = score_query([], QUERY, 4)
    assert empty["precision"] == empty["recall"] == empty["hit"] == empty["mrr"] == empty["ndcg"] == 0.0


def test_document_ranking_metrics():
    files = ["B", "A", "B", "A"]
    assert hit(files[:1], {"A"}) == 0.0 and hit(files[:2], {"A"}) == 1.0
    assert mrr(files, {"A"}) == 0.5  # documents ranked B, A
    assert ndcg(files, {"A"}, 2) == pytest.approx(1 / math.log2(3))
    # two gold documents, ranked 1st and 3rd among distinct documents A, B, C
    assert ndcg(["A", "A", "B", "C"], {"A", "C"}, 4) == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))


def test_score_run_and_macro_mean():
    q2 = Query("other/0", "other", "q", (Span("B", 0, 100),))
    per_query = score_run([QUERY, q2], {"ds/0": RUN}, ks=(1, 4))  # other/0 retrieved nothing
    assert list(per_query.columns[:3]) == ["query_id", "dataset", "k"]
    table = mean_by_dataset(per_query).set_index(["dataset", "k"])
    assert table.loc[("ds", 4), "drm"] == 0.25
    assert math.isnan(table.loc[("other", 4), "drm"])
    assert table.loc[("ALL", 4), "recall"] == pytest.approx((60 / 150 + 0.0) / 2)
    assert table.loc[("ALL", 4), "drm"] == 0.25  # NaN of an empty retrieval is skipped
    assert isinstance(per_query, pd.DataFrame) and len(per_query) == 4
