"""Hit, MRR and nDCG through ranx equal the per-query definitions (hand-computed cases, random runs)."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sac_core.engine.metrics import hit, mrr, ndcg
from sac_core.engine.metrics.ranking import document_run, ranx_scores


def test_hand_computed() -> None:
    # chunks of documents b, a, b, c; gold {a, c}: documents b (1), a (2), c (3)
    got = ranx_scores({"q": {"a", "c"}, "none": {"a"}}, {"q": ["b", "a", "b", "c"]}, (1, 2, 4))
    assert got["q", 1] == {"hit": 0.0, "mrr": 0.0, "ndcg": 0.0}
    assert got["q", 2]["mrr"] == 0.5 and got["q", 2]["ndcg"] == pytest.approx(
        (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    )
    assert got["q", 4]["ndcg"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))
    assert got["none", 4] == {"hit": 0.0, "mrr": 0.0, "ndcg": 0.0}  # retrieved nothing
    assert document_run(["b", "a", "b", "c"], 3) == {"b": 2.0, "a": 1.0}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sets(st.sampled_from("abcdefg"), min_size=1, max_size=3),
                          st.lists(st.sampled_from("abcdefgh"), max_size=20)), min_size=1, max_size=12))  # fmt: skip
def test_ranx_equals_the_definitions(queries: list[tuple[set[str], list[str]]]) -> None:
    gold = {f"q{i}": g for i, (g, _) in enumerate(queries)}
    retrieved = {f"q{i}": r for i, (_, r) in enumerate(queries)}
    ks = (1, 2, 4, 8, 16)
    got = ranx_scores(gold, retrieved, ks)
    for qid in gold:
        for k in ks:
            top = retrieved[qid][:k]
            want = {"hit": hit(top, gold[qid]), "mrr": mrr(top, gold[qid]), "ndcg": ndcg(top, gold[qid], k)}
            assert got[qid, k] == pytest.approx(want, abs=1e-9)


def test_document_ids_of_any_length_reach_ranx_in_one_width() -> None:
    """ranx compiles its kernels once per width of the document ids it is given (a minute each, in
    every fresh process): paths of any length give one width, the one `make setup` compiles."""
    from ranx.data_structures import common

    short = ranx_scores({"q": {"a.txt"}}, {"q": ["b.txt", "a.txt"]}, (2,))
    long = ranx_scores(
        {"q": {"cuad/" + "a" * 60 + ".txt"}}, {"q": ["maud/" + "b" * 90 + ".txt", "cuad/" + "a" * 60 + ".txt"]}, (2,)
    )
    assert short == long == {("q", 2): {"hit": 1.0, "mrr": 0.5, "ndcg": pytest.approx(1 / math.log2(3))}}
    widths = {w for sig in common.create_and_sort.signatures for w in re.findall(r"UnicodeCharSeq\((\d+)\)", str(sig))}
    assert widths == {"9"}
