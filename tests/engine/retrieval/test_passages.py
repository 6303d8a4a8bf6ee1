"""Passage methods on hand-made vectors: sentences, within-document ranking, small-to-big passages
and trimming (sac_core.engine.retrieval.{sentences, within_document, small_to_big, trimming}),
scores computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.chunking import Chunk
from sac_core.engine.indexes import DenseIndex
from sac_core.engine.retrieval import Pool, Retriever, RunRanker
from sac_core.engine.retrieval.ranker import Hit
from sac_core.engine.retrieval.routed import fill, refinable, zscore
from sac_core.engine.retrieval.sentences import SentenceIndex, sentence_spans
from sac_core.engine.retrieval.small_to_big import SmallToBigRanker, SmallToBigSettings, grow_passages
from sac_core.engine.retrieval.trimming import TrimmingRanker, TrimSettings, keep_span
from sac_core.engine.retrieval.within_document import (
    WithinDocumentRanker,
    WithinDocumentSettings,
    within_document_scores,
)

# One document of three sentences in two chunks; a second document of one chunk.
TEXT = "Term is two years. Notice by mail. Fees are due monthly."
#       0                 18 19            34 35                 56
OTHER = "Term is three years."
CHUNKS = (Chunk("a.txt", 0, 34, TEXT[0:34]), Chunk("a.txt", 35, 56, TEXT[35:56]), Chunk("b.txt", 0, 20, OTHER))
VECTORS = {
    TEXT[0:34]: [0.6, 0.8, 0.0],
    TEXT[35:56]: [0.0, 0.0, 1.0],
    OTHER: [0.8, 0.6, 0.0],
    "Term is two years.": [1.0, 0.0, 0.0],
    "Notice by mail.": [0.0, 1.0, 0.0],
    "Fees are due monthly.": [0.0, 0.0, 1.0],
    "how long is the term?": [1.0, 0.0, 0.0],
}


class FakeEmbedder:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts, progress=False, desc="", on_progress=None, cache=True):
        self.seen += list(texts)
        return np.array([VECTORS[t] for t in texts], dtype=np.float32)


class Routed(Retriever):
    """A plain retriever that says every query named its document (as the gated prior would)."""

    def document_evidence(self, queries):
        return [True] * len(queries)


def inner(evidence: bool = True) -> Retriever:
    vectors = np.array([VECTORS[c.text] for c in CHUNKS], dtype=np.float32)
    cls = Routed if evidence else Retriever
    return cls(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), dense=DenseIndex(vectors))  # type: ignore[arg-type]


def sentences(embedder: FakeEmbedder | None = None) -> SentenceIndex:
    return SentenceIndex({"a.txt": TEXT, "b.txt": OTHER}, embedder or FakeEmbedder())  # type: ignore[arg-type]


def spans(hits: list[Hit]) -> list[tuple[str, int, int]]:
    return [(h.chunk.file_path, h.chunk.start, h.chunk.end) for h in hits]


# --------------------------------------------------------------------------- sentences


def test_sentence_spans_trim_whitespace_and_cut_long_sentences() -> None:
    assert sentence_spans(TEXT) == [(0, 18), (19, 34), (35, 56)]
    long = "Short one. " + "word " * 100
    cut = sentence_spans(long, max_chars=100)
    assert cut[0] == (0, 10) and all(e - s <= 100 for s, e in cut) and cut[-1][1] == len(long.rstrip())
    with pytest.raises(ValueError):
        sentence_spans(TEXT, 0)


def test_sentence_index_embeds_each_sentence_once() -> None:
    embedder = FakeEmbedder()
    index = sentences(embedder)
    assert list(index.within("a.txt", 0, 34)) == [0, 1]
    assert index.vectors("a.txt", [1, 0]).tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    index.vectors("a.txt", [0, 2])
    assert embedder.seen == ["Notice by mail.", "Term is two years.", "Fees are due monthly."]
    assert len(index.all_texts()) == 4


# --------------------------------------------------------------------------- shared


def test_zscore_and_fill() -> None:
    assert zscore(np.array([1.0, 3.0])).tolist() == [-1.0, 1.0]
    assert zscore(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]
    a = Hit(Chunk("a.txt", 0, 10, ""), 1.0)
    b = Hit(Chunk("a.txt", 5, 15, ""), 0.5)  # overlaps a: left out
    c = Hit(Chunk("b.txt", 0, 10, ""), 0.2)
    assert fill([a], [b, c], 3) == [a, c]
    with pytest.raises(ValueError, match="trim needs a chunk index"):
        refinable(RunRanker({}, [], lambda fp: None), "trim")  # declares no pool
    bm25_only = Retriever(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), semantic_weight=0.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="need a dense chunk index"):
        refinable(bm25_only, "trim")


# --------------------------------------------------------------------------- within the document


def test_within_document_scores_add_weighted_z_scores() -> None:
    dense, bm25 = np.array([0.2, 0.4, 0.6]), np.array([3.0, 0.0, 0.0])
    # z(dense) = [-1.2247, 0, 1.2247]; z(bm25) = [1.4142, -0.7071, -0.7071]
    got = within_document_scores(dense, bm25, WithinDocumentSettings(bm25=1.0))
    assert got.round(4).tolist() == [0.1895, -0.7071, 0.5176]
    smooth = within_document_scores(dense, np.zeros(3), WithinDocumentSettings(bm25=0.0, neighbour=1.0))
    # neighbours' mean: [(-1.2247+0)/2, (-1.2247+1.2247)/2, (0+1.2247)/2] (ends count themselves)
    assert smooth.round(4).tolist() == [-1.8371, 0.0, 1.8371]


def test_within_document_scores_give_unscored_chunks_the_lowest_sentence_z() -> None:
    best = np.array([0.2, np.nan, 0.4])  # z of the scored ones: [-1, 1]; the unscored chunk gets -1
    got = within_document_scores(np.zeros(3), np.zeros(3), WithinDocumentSettings(bm25=0.0, sentence=1.0), best)
    assert got.round(9).tolist() == [-1.0, -1.0, 1.0]


def test_within_document_ranks_the_routed_documents_chunks_first() -> None:
    # the question "how long is the term?" = [1,0,0]: cos a0 0.6, a1 0.0, b0 0.8; plain: b0, a0, a1.
    plain = inner().search(["how long is the term?"], 3)[0]
    assert spans(plain)[0] == ("b.txt", 0, 20)
    ranker = WithinDocumentRanker(inner(), WithinDocumentSettings(bm25=0.0), split=False)
    # routed to b (the top hit): b0 first, then the other hits in order
    assert spans(ranker.search(["how long is the term?"], 3)[0]) == spans(plain)


def test_without_evidence_passage_methods_return_the_plain_ranking() -> None:
    plain = inner(evidence=False)
    expected = spans(plain.search(["how long is the term?"], 3)[0])
    for ranker in (
        WithinDocumentRanker(plain, WithinDocumentSettings(), split=False),
        SmallToBigRanker(plain, SmallToBigSettings(), sentences(), split=False),
        TrimmingRanker(plain, TrimSettings(), sentences(), split=False),
    ):
        assert spans(ranker.search(["how long is the term?"], 3)[0]) == expected


# --------------------------------------------------------------------------- small to big


def test_grow_passages_joins_neighbours_above_the_threshold_within_the_cap() -> None:
    sp = np.array([[0, 10], [11, 20], [21, 30], [31, 40]])
    scores = np.array([0.5, 3.0, 2.5, -np.inf])
    # best sentence 1 grows right (2.5 >= 2) but not left (0.5); 3 is not a candidate
    assert grow_passages(sp, scores, 2.0, 100, 5) == [(1, 2, 3.0), (0, 0, 0.5)]
    # a 15-character cap keeps sentence 1 alone
    assert grow_passages(sp, scores, 2.0, 15, 5)[0] == (1, 1, 3.0)
    assert len(grow_passages(sp, scores, 2.0, 100, 1)) == 1
    # only sentence 0 may start a passage: it grows right into 1 and 2 (both >= 0.4)
    assert grow_passages(sp, scores, 0.4, 100, 5, np.array([True, False, False, False])) == [(0, 2, 0.5)]


def test_small_to_big_returns_passages_of_the_routed_document_then_the_rest() -> None:
    # routed to a: question "the term" variant, the top hit must be a's; use a query whose top chunk is a0
    class RoutedToA(Routed):
        def search(self, queries, k, *, progress=False, vectors=None):
            return [[Hit(CHUNKS[0], 0.6), Hit(CHUNKS[2], 0.5), Hit(CHUNKS[1], 0.0)][:k] for _ in queries]

    vectors = np.array([VECTORS[c.text] for c in CHUNKS], dtype=np.float32)
    base = RoutedToA(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), dense=DenseIndex(vectors))  # type: ignore[arg-type]
    ranker = SmallToBigRanker(
        base,
        SmallToBigSettings(depth=1, sentence_weight=1.0, chunk_weight=0.0, bm25_weight=0.0, grow=9.0),
        sentences(),
        split=False,
    )
    # candidates: the sentences of a0 ("Term is two years." cos 1, "Notice by mail." cos 0): two passages
    got = spans(ranker.search(["how long is the term?"], 3)[0])
    assert got == [("a.txt", 0, 18), ("a.txt", 19, 34), ("b.txt", 0, 20)]
    grown = SmallToBigRanker(
        base,
        SmallToBigSettings(depth=1, sentence_weight=1.0, chunk_weight=0.0, bm25_weight=0.0, grow=-9.0),
        sentences(),
        split=False,
    )
    assert spans(grown.search(["how long is the term?"], 2)[0]) == [("a.txt", 0, 34), ("b.txt", 0, 20)]


# --------------------------------------------------------------------------- trimming


def test_keep_span_runs_from_the_first_to_the_last_kept_sentence() -> None:
    sp = np.array([[0, 10], [11, 20], [21, 30]])
    assert keep_span(sp, np.array([0.9, 0.2, 0.85]), 0, 30, 0.1) == (0, 30)  # the gap stays
    assert keep_span(sp, np.array([0.2, 0.9, 0.3]), 0, 30, 0.1) == (11, 20)
    assert keep_span(sp, np.array([0.2, 0.9, 0.3]), 5, 25, 1.0) == (5, 25)  # never beyond the chunk
    assert keep_span(np.zeros((0, 2), dtype=int), np.array([]), 3, 9, 0.1) == (3, 9)


def test_trimming_cuts_the_routed_documents_hits_and_remembers_the_chunk() -> None:
    ranker = TrimmingRanker(inner(), TrimSettings(drop=0.1), sentences(), split=False)
    hits = ranker.search(["how long is the term?"], 3)[0]
    # routed to b (its top hit): b0 is one sentence, kept; a's chunks are not the routed document's
    assert spans(hits) == [("b.txt", 0, 20), ("a.txt", 0, 34), ("a.txt", 35, 56)]

    class RoutedToA(Routed):
        def search(self, queries, k, *, progress=False, vectors=None):
            return [[Hit(CHUNKS[0], 0.6), Hit(CHUNKS[2], 0.5)][:k] for _ in queries]

    vectors = np.array([VECTORS[c.text] for c in CHUNKS], dtype=np.float32)
    base = RoutedToA(Pool(CHUNKS, tuple(c.text for c in CHUNKS)), FakeEmbedder(), dense=DenseIndex(vectors))  # type: ignore[arg-type]
    trim = TrimmingRanker(base, TrimSettings(drop=0.1), sentences(), split=False)
    cut = trim.search(["how long is the term?"], 2)[0]
    assert spans(cut) == [("a.txt", 0, 18), ("b.txt", 0, 20)]  # a0 keeps "Term is two years." only
    assert cut[0].chunk.text == "Term is two years."
    assert trim.trimmed_from(cut[0]) == CHUNKS[0] and trim.trimmed_from(cut[1]) is None
