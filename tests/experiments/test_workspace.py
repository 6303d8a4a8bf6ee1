"""sac_core.experiments.workspace: a search result carries what a page draws (the chunk each hit was
trimmed from, which column is the baseline), so no page asks a ranker back."""

from __future__ import annotations

from collections.abc import Sequence

from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Benchmark
from sac_core.engine.retrieval import Hit, Ranker
from sac_core.experiments import Column, RunConfig, Workspace, baseline_column


class _Fixed(Ranker):
    """Returns the same hits for any question; says which of them a trimming stage cut (and from what)."""

    def __init__(self, hits: Sequence[Hit], cut: dict[int, Chunk]) -> None:
        self.hits, self.cut, self.asked = list(hits), cut, 0

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        return [self.hits[:k] for _ in queries]

    def trimmed_from(self, hit: Hit) -> Chunk | None:
        self.asked += 1
        return self.cut.get(hit.chunk.start)


def _workspace(demo_bench: Benchmark) -> tuple[Workspace, _Fixed]:
    path = next(iter(demo_bench.documents))
    whole = Chunk(path, 0, 40, "x" * 40)
    hits = [Hit(Chunk(path, 10, 20, "x" * 10), 0.9), Hit(Chunk(path, 50, 60, "y" * 10), 0.5)]
    trimming = _Fixed(hits, {10: whole})
    columns = [Column("Passages", RunConfig(method="sac")), Column("Baseline", RunConfig(chunk_size=300))]
    rankers = {"Passages": trimming, "Baseline": _Fixed(hits, {})}
    return Workspace(demo_bench, columns, rankers, {}), trimming


def test_each_hit_carries_the_chunk_it_was_trimmed_from(demo_bench: Benchmark) -> None:
    ws, trimming = _workspace(demo_bench)
    passages, baseline = ws.search("which law governs?", 2)
    assert passages.trimmed_from[0] is not None and (passages.trimmed_from[0].start, passages.trimmed_from[0].end) == (
        0,
        40,
    )
    assert passages.trimmed_from[1] is None and baseline.trimmed_from == [None, None]
    asked = trimming.asked
    assert asked == 2  # asked once per hit, during the search: a page reading the result asks nothing
    assert len(passages.trimmed_from) == len(passages.hits)


def test_the_baseline_column_is_known_from_the_columns_configs(demo_bench: Benchmark) -> None:
    ws, _ = _workspace(demo_bench)
    assert ws.baseline == "Baseline"  # the plain default method without stages, whatever its chunk size
    assert [r.baseline for r in ws.search("notice period", 1)] == [False, True]
    assert baseline_column([Column("SAC", RunConfig(method="sac"))]) is None
