"""The oracle ranking: gold-holding chunks first (highest share of gold characters), then the rest
of the gold document, then the others; its DRM is zero until the gold document runs out of chunks."""

from __future__ import annotations

from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Query, Span
from sac_core.engine.metrics import score_query
from sac_core.engine.retrieval import OracleRanker, Pool, as_spans

CHUNKS = (
    Chunk("a.txt", 0, 10, "a" * 10),
    Chunk("a.txt", 10, 20, "b" * 10),
    Chunk("a.txt", 20, 24, "c" * 4),
    Chunk("b.txt", 0, 10, "d" * 10),
    Chunk("b.txt", 10, 20, "e" * 10),
)
POOL = Pool(CHUNKS, tuple(c.text for c in CHUNKS))
# gold: a.txt [5, 22): 5 of chunk 0's 10, all 10 of chunk 1, 2 of chunk 2's 4
QUERY = Query("demo/0", "demo", "what is it?", (Span("a.txt", 5, 22),))


def test_gold_chunks_by_their_share_of_gold_then_the_document_then_the_others() -> None:
    hits = OracleRanker(POOL, [QUERY]).search_queries([QUERY], 5)[0]
    # shares: chunk 1 10/10, chunk 0 5/10 and chunk 2 2/4 (a tie at 0.5: more gold characters first)
    assert [(h.chunk.file_path, h.chunk.start) for h in hits] == [
        ("a.txt", 10), ("a.txt", 0), ("a.txt", 20), ("b.txt", 0), ("b.txt", 10),
    ]  # fmt: skip
    assert [h.score for h in hits] == [10.0, 5.0, 2.0, 0.0, 0.0]


def test_its_drm_is_the_floor_these_chunks_allow() -> None:
    hits = OracleRanker(POOL, [QUERY]).search_queries([QUERY], 4)[0]
    assert score_query(as_spans(hits), QUERY, 3)["drm"] == 0.0
    assert score_query(as_spans(hits), QUERY, 4)["drm"] == 0.25  # a.txt has three chunks only
    assert score_query(as_spans(hits), QUERY, 1)["precision"] == 1.0


def test_a_query_by_text_gets_the_gold_of_the_benchmark_query_with_that_text() -> None:
    oracle = OracleRanker(POOL, [QUERY])
    assert [h.chunk.start for h in oracle.search(["what is it?"], 2)[0]] == [10, 0]
    assert [h.chunk.file_path for h in oracle.search(["another question"], 2)[0]] == ["a.txt", "a.txt"]  # pool order
