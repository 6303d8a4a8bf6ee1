"""Clause exemplars on hand-made vectors (sac_core.engine.retrieval.exemplars and the exemplar term of
within-document ranking): pieces, question matching, leave-one-document-out, scores by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Benchmark, Document, Query, Span
from sac_core.engine.indexes import DenseIndex
from sac_core.engine.retrieval import Pool, Retriever
from sac_core.engine.retrieval.exemplars import (
    Exemplar,
    ExemplarBank,
    ExemplarSettings,
    _pieces,
    copies,
    exemplars_of,
)
from sac_core.engine.retrieval.within_document import WithinDocumentRanker, WithinDocumentSettings

# a.txt: the evaluated document, two chunks; the question's words sit in the first, the answer is
# the second. b.txt / c.txt: other contracts whose labelled answer to the same question looks like it.
TEXT = "Term is two years. Notice by mail. Fees are due monthly."
CHUNKS = (Chunk("a.txt", 0, 34, TEXT[0:34]), Chunk("a.txt", 35, 56, TEXT[35:56]))
QUESTION = "when are the fees paid?"
VECTORS = {
    TEXT[0:34]: [0.6, 0.8, 0.0],
    TEXT[35:56]: [0.0, 0.0, 1.0],
    QUESTION: [1.0, 0.0, 0.0],
    "when are fees paid?": [0.96, 0.28, 0.0],  # cosine 0.96 to QUESTION
    "who are the parties?": [0.0, 1.0, 0.0],  # cosine 0
    "Payment is due each month.": [0.0, 0.0, 1.0],
    "Invoices are payable quarterly.": [0.0, 0.6, 0.8],
    "Acme and Beta.": [0.6, 0.8, 0.0],
}


class FakeEmbedder:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts, progress=False, desc="", on_progress=None, cache=True):
        self.seen += list(texts)
        return np.array([VECTORS[t] for t in texts], dtype=np.float32)


BANK = (
    Exemplar(QUESTION, "b.txt", "Payment is due each month."),
    Exemplar("when are fees paid?", "c.txt", "Invoices are payable quarterly."),
    Exemplar("who are the parties?", "c.txt", "Acme and Beta."),
)


class Routed(Retriever):
    """A plain retriever that says every query named its document (as the gated prior would)."""

    def document_evidence(self, queries):
        return [True] * len(queries)


def routed() -> Routed:
    vectors = np.array([VECTORS[c.text] for c in CHUNKS], dtype=np.float32)
    return Routed(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), dense=DenseIndex(vectors))  # type: ignore[arg-type]


def test_pieces_cut_at_whitespace_within_the_limit() -> None:
    assert _pieces("  short  ", 10) == ["short"]
    assert _pieces("aaaa bbbb cccc", 10) == ["aaaa bbbb", "cccc"]
    assert _pieces("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # no whitespace: hard cuts


def test_exemplars_of_a_benchmark_take_the_question_part_and_every_gold_span() -> None:
    docs = {"b.txt": Document("b.txt", "Header. Payment is due each month. End.")}
    q = Query(
        "cuad/0", "cuad", "Consider the Supply Agreement between A and B; when are fees paid?", (Span("b.txt", 8, 34),)
    )
    out = exemplars_of(Benchmark((q,), docs), max_chars=500)
    assert out == [Exemplar("when are fees paid?", "b.txt", "Payment is due each month.", docs["b.txt"].sha256)]


def test_bank_matches_questions_above_the_threshold_closest_first() -> None:
    bank = ExemplarBank(BANK, FakeEmbedder(), ExemplarSettings(min_similarity=0.9))  # type: ignore[arg-type]
    q = np.array(VECTORS[QUESTION])
    assert [bank.questions[i] for i in bank.matching(q)] == [QUESTION, "when are fees paid?"]
    strict = ExemplarBank(BANK, FakeEmbedder(), ExemplarSettings(min_similarity=0.99))  # type: ignore[arg-type]
    assert [strict.questions[i] for i in strict.matching(q)] == [QUESTION]
    one = ExemplarBank(BANK, FakeEmbedder(), ExemplarSettings(min_similarity=0.0, questions=1))  # type: ignore[arg-type]
    assert [one.questions[i] for i in one.matching(q)] == [QUESTION]


def test_scores_average_the_top_pieces_and_never_use_the_documents_own_labels() -> None:
    bank = ExemplarBank(BANK, FakeEmbedder(), ExemplarSettings(min_similarity=0.9, top=2))  # type: ignore[arg-type]
    q = np.array(VECTORS[QUESTION])
    chunks = np.array([VECTORS[c.text] for c in CHUNKS])
    # pieces of the two matching questions: [0, 0, 1] and [0, 0.6, 0.8]
    # chunk 0 [0.6, 0.8, 0]: cosines 0 and 0.48 → mean 0.24; chunk 1 [0, 0, 1]: 1 and 0.8 → 0.9
    assert bank.scores(q, chunks, "a.txt") == pytest.approx([0.24, 0.9])
    # scoring b.txt: its own piece is left out, only c.txt's counts (top 2 of one piece = that piece)
    assert bank.scores(q, chunks, "b.txt") == pytest.approx([0.48, 0.8])
    # no bank question close enough: no signal
    assert bank.scores(np.array([0.0, 0.0, 1.0]), chunks, "a.txt") is None


def test_a_copy_of_the_document_under_another_name_never_scores_it() -> None:
    """b.txt's labels come from a bank whose b.txt is filed as "b-copy.txt" (same text): matched by
    path they would score b.txt with its own answer; matched by text they are left out."""
    b_text = "Payment is due each month."
    bank_docs = {
        "b-copy.txt": Document("b-copy.txt", b_text),
        "c.txt": Document("c.txt", "Invoices are payable quarterly."),
    }
    questions = (("b-copy.txt", QUESTION, b_text), ("c.txt", "when are fees paid?", "Invoices are payable quarterly."))
    queries = tuple(Query(f"x/{i}", "x", q, (Span(fp, 0, len(t)),)) for i, (fp, q, t) in enumerate(questions))
    bank_bench = Benchmark(queries, bank_docs)
    evaluated = Benchmark((), {"b.txt": Document("b.txt", b_text), "a.txt": Document("a.txt", TEXT)})
    assert copies(bank_bench, evaluated) == [("b.txt", "b-copy.txt")]
    pieces = exemplars_of(bank_bench, 500)
    digests = {fp: d.sha256 for fp, d in evaluated.documents.items()}
    by_text = ExemplarBank(pieces, FakeEmbedder(), ExemplarSettings(min_similarity=0.9, top=2), documents=digests)  # type: ignore[arg-type]
    by_path = ExemplarBank(pieces, FakeEmbedder(), ExemplarSettings(min_similarity=0.9, top=2))  # type: ignore[arg-type]
    q, chunks = np.array(VECTORS[QUESTION]), np.array([VECTORS[c.text] for c in CHUNKS])
    assert by_path.scores(q, chunks, "b.txt") == pytest.approx([0.24, 0.9])  # its own answer counted
    assert by_text.scores(q, chunks, "b.txt") == pytest.approx([0.48, 0.8])  # only c.txt's
    assert by_text.scores(q, chunks, "a.txt") == pytest.approx([0.24, 0.9])  # another document: both


def test_exemplar_weight_ranks_the_chunk_that_looks_like_the_answers_first() -> None:
    bank = ExemplarBank(BANK, FakeEmbedder(), ExemplarSettings(min_similarity=0.9, top=1))  # type: ignore[arg-type]
    # dense: chunk 0 cosine 0.6, chunk 1 0 → z = [1, -1]; exemplar (top 1): [0.48, 1] → z = [-1, 1]
    # weight 2: [1 - 2, -1 + 2] = [-1, 1] → chunk 1 first; weight 0.5: [0.5, -0.5] → chunk 0 first
    for weight, first in ((2.0, 35), (0.5, 0)):
        ranker = WithinDocumentRanker(
            routed(), WithinDocumentSettings(bm25=0.0, exemplar=weight), split=False, exemplars=bank
        )
        ids, scores = ranker.rank_document("a.txt", QUESTION, np.array(VECTORS[QUESTION]))
        assert CHUNKS[int(ids[0])].start == first
        assert sorted(scores) == pytest.approx(sorted([weight - 1, 1 - weight]))
    with pytest.raises(ValueError, match="exemplar bank"):
        WithinDocumentRanker(routed(), WithinDocumentSettings(exemplar=1.0), split=False)
