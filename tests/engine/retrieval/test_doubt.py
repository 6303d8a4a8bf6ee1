"""Saying when the router is unsure: the best two documents about equal (sac_core.engine.retrieval.gate
.in_doubt) on hand-computed scores, in the document-aware ranker and through a passage method,
and in what Compare reads."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.data import Benchmark
from sac_core.engine.retrieval import DocumentAwareRetriever, SignalParts, Signals
from sac_core.engine.retrieval.documents import DocumentScorer
from sac_core.engine.retrieval.gate import DOUBT_MARGIN, in_doubt
from sac_core.engine.retrieval.within_document import WithinDocumentRanker, WithinDocumentSettings
from sac_core.experiments import Workspace
from sac_core.experiments.catalogue import Column
from sac_core.experiments.config import RunConfig

from .test_document_aware import QUERY, base, scorer

SIGNALS = Signals(split_query=True, doc_weight=1.0, doc_gate="split")


def test_in_doubt_names_the_best_two_when_they_lie_closer_than_the_margin() -> None:
    assert in_doubt(np.array([0.2, 0.61, 0.6]), margin=0.02) == (1, 2)
    assert in_doubt(np.array([0.2, 0.65, 0.6]), margin=0.02) is None  # a lead of 0.05
    assert in_doubt(np.array([0.5, 0.5]), margin=0.02) == (0, 1)  # a tie: index order
    assert in_doubt(np.array([0.5]), margin=0.02) is None
    assert in_doubt(np.array([0.5, 0.5 - DOUBT_MARGIN / 2])) == (0, 1)  # the default margin


def tied() -> DocumentScorer:
    """Both documents' representations equal: the reference scores them the same."""
    return DocumentScorer(("a.txt", "b.txt"), np.array([[0.0, 1.0, 0.0]] * 2, dtype=np.float32))


def test_the_ranker_doubts_when_two_documents_score_the_same() -> None:
    ranker = DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=tied()))
    assert ranker.document_doubt(QUERY) == ("a.txt", "b.txt")


def test_no_doubt_when_one_document_leads_or_the_query_names_none() -> None:
    clear = DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=scorer()))
    assert clear.document_doubt(QUERY) is None  # cosine to the reference: a 1.0, b 0.0
    closed = DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=tied()))
    assert closed.document_doubt("how long is the term?") is None  # no reference: the gate is closed


def test_a_ranker_without_document_scores_never_doubts() -> None:
    assert base().document_doubt(QUERY) is None


def test_a_passage_method_passes_the_doubt_on() -> None:
    inner = DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=tied()))
    assert WithinDocumentRanker(inner, WithinDocumentSettings(), split=True).document_doubt(QUERY) == (
        "a.txt",
        "b.txt",
    )


@pytest.mark.parametrize("margin", [0.0, -1.0])
def test_a_margin_of_zero_or_less_never_doubts(margin: float) -> None:
    assert in_doubt(np.array([0.5, 0.5]), margin=margin) is None


def test_compare_columns_carry_the_doubt_of_their_ranker() -> None:
    """What Compare and the answer row read: each column's result names the two documents."""
    rankers = {
        "tied": DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=tied())),
        "clear": DocumentAwareRetriever(base(), SIGNALS, SignalParts(documents=scorer())),
    }
    columns = [Column(name, RunConfig()) for name in rankers]
    results = Workspace(Benchmark((), {}), columns, rankers, {}, data_key="t").search(QUERY, 2)
    assert [r.doubt for r in results] == [("a.txt", "b.txt"), None]
