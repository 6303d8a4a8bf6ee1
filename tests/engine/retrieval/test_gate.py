"""The document gate (sac_core.engine.retrieval.gate) on hand-computed scores, and in the ranker."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.retrieval import DocumentAwareRetriever, SignalParts, Signals
from sac_core.engine.retrieval.gate import gate_open, peak_margin

from .test_document_aware import base, scorer


def test_peak_margin_is_the_lead_of_the_best_document() -> None:
    assert peak_margin(np.array([0.2, 0.9, 0.5])) == pytest.approx(0.4)
    assert peak_margin(np.array([0.7, 0.7])) == 0.0
    assert peak_margin(np.array([0.3])) == 0.0


@pytest.mark.parametrize(
    ("gate", "split", "scores", "open_"),
    [
        ("always", False, [0.5, 0.5], True),
        ("split", True, [0.5, 0.5], True),
        ("split", False, [1.0, 0.0], False),
        ("evidence", False, [1.0, 0.85], True),  # lead 0.15 >= 0.1
        ("evidence", False, [1.0, 0.95], False),  # lead 0.05 < 0.1
        ("evidence", True, [0.5, 0.5], True),
    ],
)
def test_gate_open(gate: str, split: bool, scores: list[float], open_: bool) -> None:
    assert gate_open(gate, split, np.array(scores), 0.1) is open_


def test_unknown_gate_and_bad_margin_fail() -> None:
    with pytest.raises(ValueError, match="unknown document gate"):
        gate_open("sometimes", True, np.array([1.0]), 0.1)
    with pytest.raises(ValueError, match="doc_gate must be one of"):
        Signals(doc_gate="sometimes")
    with pytest.raises(ValueError, match="gate_margin"):
        Signals(gate_margin=-1)


def test_labels_name_the_gate() -> None:
    s = Signals(split_query=True, doc_weight=8.0, doc_gate="split")
    assert s.label == "+split+doc:summary300×8+gate:split"
    assert Signals(doc_weight=1.0, doc_gate="evidence", gate_margin=0.2).label == "+doc:summary300×1+gate:evidence≥0.2"
    assert "doc_gate" not in Signals(doc_weight=1.0).changed()  # published cells keep their ids


def ranked(signals: Signals, query: str) -> list[tuple[str, int]]:
    hits = DocumentAwareRetriever(base(), signals, SignalParts(documents=scorer())).search([query], 3)[0]
    return [(h.chunk.file_path, h.chunk.start) for h in hits]


def test_a_query_that_names_no_document_is_ranked_plainly() -> None:
    # "the term" scores documents a 0.0, b 0.8 (no split): ungated, weight 2 lifts b's chunk to the
    # top; gated by the split, the ranking is the plain index's own: a1 (cosine 1.0) first.
    plain = [(h.chunk.file_path, h.chunk.start) for h in base().search(["the term"], 3)[0]]
    always = ranked(Signals(doc_weight=2.0, split_query=True), "the term")
    gated = ranked(Signals(doc_weight=2.0, split_query=True, doc_gate="split"), "the term")
    assert gated == plain and plain[0] == ("a.txt", 20)
    assert always[0] == ("b.txt", 0)


def test_a_query_that_names_its_document_keeps_the_prior() -> None:
    query = "Consider the NDA of Acme; how long is the term?"
    assert ranked(Signals(doc_weight=2.0, split_query=True, doc_gate="split"), query) == ranked(
        Signals(doc_weight=2.0, split_query=True), query
    )
