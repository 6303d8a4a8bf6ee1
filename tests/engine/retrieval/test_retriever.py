"""The Retriever on hand-made vectors: dense, BM25 and hybrid rankings of one pool."""

from __future__ import annotations

import numpy as np
import pytest

from sac_core.engine.chunking import Chunk
from sac_core.engine.retrieval import Pool, Retriever, as_spans

TEXTS = ("governing law new york", "return within ten days", "the law of delaware")
VECTORS = {  # unit vectors chosen by hand: cos(query, text 0) = 0.96, cos(query, text 2) = 0.8, text 1: 0
    TEXTS[0]: [0.6, 0.8, 0.0],
    TEXTS[1]: [0.0, 0.0, 1.0],
    TEXTS[2]: [1.0, 0.0, 0.0],
    "delaware law": [0.8, 0.6, 0.0],
}


class FakeEmbedder:
    """Looks vectors up instead of running a model (the Retriever only calls ``encode``)."""

    def encode(self, texts, progress=False, desc="", on_progress=None, cache=True):
        return np.array([VECTORS[t] for t in texts], dtype=np.float32)


POOL = Pool(tuple(Chunk("d.txt", i * 30, i * 30 + len(t), t) for i, t in enumerate(TEXTS)), TEXTS)


def test_dense_ranks_by_cosine():
    hits = Retriever(POOL, FakeEmbedder(), semantic_weight=1.0).search(["delaware law"], 2)[0]
    assert [h.chunk.text for h in hits] == [TEXTS[0], TEXTS[2]]
    assert [h.score for h in hits] == pytest.approx([0.96, 0.8])


def test_bm25_only_needs_no_vectors():
    retriever = Retriever(POOL, FakeEmbedder(), semantic_weight=0.0)
    assert retriever.dense is None
    hits = retriever.search(["new york law"], 1)[0]
    assert hits[0].chunk.text == TEXTS[0]


def test_hybrid_fuses_both_rankings_and_spans_follow_the_chunks():
    # dense ranks 0, 2, 1; BM25 ranks 2 ("delaware" and "law"), 0 ("law"), 1. With weight w:
    # text 0 gets w/61 + (1-w)/62, text 2 gets w/62 + (1-w)/61, text 1 gets 1/63.
    def ranking(w: float) -> list[int]:
        hits = Retriever(POOL, FakeEmbedder(), semantic_weight=w).search(["delaware law"], 3)[0]
        return [TEXTS.index(h.chunk.text) for h in hits]

    assert ranking(0.75) == [0, 2, 1]
    assert ranking(0.25) == [2, 0, 1]
    assert ranking(0.5) == [0, 2, 1]  # equal fused scores: the better dense rank wins
    hits = Retriever(POOL, FakeEmbedder(), semantic_weight=0.25).search(["delaware law"], 1)[0]
    assert [(s.file_path, s.start, s.end) for s in as_spans(hits)] == [("d.txt", 60, 60 + len(TEXTS[2]))]
