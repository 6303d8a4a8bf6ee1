"""sac_core.dashboard.maps: projections kept in the store, the sampling rule, the marks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sac_core.dashboard import maps
from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Query, Span
from sac_core.engine.indexes import DenseIndex
from sac_core.engine.retrieval import Hit, Pool, Retriever


def _unit(n: int, d: int = 8, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _retriever(vectors: np.ndarray, docs: list[str]) -> Retriever:
    chunks = tuple(Chunk(f"ds/{d}", i * 10, i * 10 + 9, f"chunk {i} words of {d}") for i, d in enumerate(docs))
    return Retriever(Pool(chunks, tuple(c.text for c in chunks)), embedder=None, dense=DenseIndex(vectors))  # type: ignore[arg-type]


def test_pca_places_a_query_exactly_as_the_chunks(tmp_path, monkeypatch):
    vectors = _unit(50)
    projection = maps.cached_projection(tmp_path, vectors, "pca")
    assert projection.xy.shape == (50, 2)
    assert np.allclose(projection.place(vectors[7], vectors), projection.xy[7], atol=1e-5)

    def computed(*args: object, **kwargs: object) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr(maps, "project", computed)
    again = maps.cached_projection(tmp_path, vectors, "pca")  # read from the store, not recomputed
    assert (tmp_path / "projections").is_dir() and np.array_equal(again.xy, projection.xy)
    assert np.allclose(again.place(vectors[7], vectors), projection.xy[7], atol=1e-5)  # its PCA kept too
    with pytest.raises(AssertionError, match="computed again"):  # other vectors: another address
        maps.cached_projection(tmp_path, _unit(50, seed=1), "pca")
    monkeypatch.undo()
    with pytest.raises(ValueError, match="unknown projection"):
        maps.project(vectors, "tsne")


def test_above_the_limit_the_question_s_documents_stay_and_the_rest_is_strided():
    docs = ["a"] * 10 + ["b"] * 40 + ["c"] * 50
    retriever = _retriever(_unit(100), docs)
    projection = maps.project(retriever.dense.vectors(), "pca")
    frame = maps.points(retriever, projection, keep=["ds/a"], max_points=30)
    assert (frame["document"] == "ds/a").sum() == 10  # every chunk of a kept document
    assert len(frame) <= 30 + 1 and frame["i"].is_monotonic_increasing
    assert len(maps.points(retriever, projection, documents=["ds/b"])) == 40
    assert set(maps.points(retriever, projection, datasets=["other"])["document"]) == set()
    assert frame.loc[0, "start"].startswith("chunk 0 words")


def test_the_figure_marks_the_query_gold_chunks_and_wrong_hits():
    docs = ["a"] * 5 + ["b"] * 5
    retriever = _retriever(_unit(10), docs)
    projection = maps.project(retriever.dense.vectors(), "pca")
    query = Query("ds/0", "ds", "q?", (Span("ds/a", 0, 5),))
    hits = [Hit(retriever.pool.chunks[0], 0.9), Hit(retriever.pool.chunks[7], 0.8)]
    fig = maps.map_figure(maps.points(retriever, projection), retriever, projection, "document",
                          np.zeros(2), query, hits)  # fmt: skip
    traces = {t.name: t for t in fig.data}
    assert {"ds/a", "ds/b", "gold chunks", "top-k", "the query"} <= set(traces)
    assert list(traces["top-k"].marker.color) == ["#16a34a", "#dc2626"]  # the second hit: a wrong document
    assert maps.involved_documents(query, {"x": hits}) == ["ds/a", "ds/b"]


def test_separation_of_two_far_apart_documents(tmp_path):
    a = np.array([[1, 0.01 * i] for i in range(12)], dtype=np.float32)  # 12 chunks: 11 neighbours ≥ k = 10
    b = np.array([[0.01 * i, 1] for i in range(12)], dtype=np.float32)
    vectors = np.vstack([a, b]) / np.linalg.norm(np.vstack([a, b]), axis=1, keepdims=True)
    sep = maps.cached_separation(tmp_path, vectors, ["a"] * 12 + ["b"] * 12)
    assert sep.own_share == 1.0 and sep.documents == 2
    assert maps.cached_separation(tmp_path, vectors, ["a"] * 12 + ["b"] * 12) == sep  # read back from the store
    assert maps.cached_separation(tmp_path, vectors, ["a"] * 24).documents == 1  # other documents: computed


def test_colours_group_gold_against_other_documents_or_at_most_ten_datasets():
    query = Query("ds/0", "ds", "q?", (Span("ds/a", 0, 5),))
    frame = pd.DataFrame({"document": ["ds/a", "ds/b", "ds/a"], "dataset": ["ds"] * 3})
    assert maps.colour_groups(frame, "gold", query) == ["gold document", "other documents", "gold document"]
    assert maps.colour_groups(frame, "gold", None) == ["other documents"] * 3  # free text: no gold
    many = pd.DataFrame({"document": [f"d{i}" for i in range(40)], "dataset": [f"set{i % 20}" for i in range(40)]})
    groups = maps.colour_groups(many, "dataset", None)
    assert len(set(groups)) == maps.MAX_LEGEND and "other datasets" in groups
    retriever = _retriever(_unit(10), ["a"] * 5 + ["b"] * 5)
    projection = maps.project(retriever.dense.vectors(), "pca")
    frame = maps.points(retriever, projection)
    frame = frame.assign(group=maps.colour_groups(frame, "gold", query))
    fig = maps.map_figure(frame, retriever, projection, "group", None, query)
    names = [t.name for t in fig.data if t.showlegend is not False]
    assert names[:2] == ["other documents", "gold document"]  # the gold drawn on top of the grey


class _Ticks:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_the_clock_says_the_time_left_once_it_can_tell():
    told: list[tuple[float, str]] = []
    clock = maps.Clock(lambda f, text: told.append((f, text)), now=_Ticks(10.0))
    clock.tell(0.0, "projecting")  # nothing done yet: no estimate
    clock.tell(0.25, "neighbours")  # 20 s for a quarter: 60 s to go
    clock.tell(0.5, "neighbours")  # 30 s for half: 30 s to go
    assert told == [(0.0, "projecting"), (0.25, "neighbours · about 60 s left"), (0.5, "neighbours · about 30 s left")]


def test_a_first_map_reports_each_step_and_a_saved_one_nothing(tmp_path, monkeypatch):
    """Issue 41: the first real-data Map visit took 156 s with no progress shown."""
    retriever = _retriever(_unit(5000, 16), [f"d{i % 20}" for i in range(5000)])
    told: list[tuple[float, str]] = []
    data = maps.map_data(retriever, tmp_path, "pca", lambda f, text: told.append((f, text)))
    fractions = [f for f, _ in told]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert told[0][1] == "projecting 5,000 chunks (PCA)"
    assert any(t.startswith("nearest neighbours of each chunk (5,000 chunks)") for _, t in told)
    assert told[-1][1].startswith("silhouette by document (5,000 chunks)")
    assert data.separation.chunks == 5000
    again: list[tuple[float, str]] = []
    maps.map_data(retriever, tmp_path, "pca", lambda f, text: again.append((f, text)))
    assert again == []  # kept in the store: nothing to wait for


def test_the_question_lands_where_its_own_models_vector_places_it(tmp_path):
    vectors = _unit(50)

    class Model:
        """Encodes any question as chunk 7's vector."""

        def encode(self, texts, progress=True):
            return vectors[[7] * len(texts)]

    retriever = _retriever(vectors, [f"d{i % 5}" for i in range(50)])
    retriever.embedder = Model()  # type: ignore[assignment]
    data = maps.MapData(vectors, maps.cached_projection(tmp_path, vectors, "pca"), maps.Separation(0.5, 0.1, 50, 5))
    assert np.allclose(maps.question_place(retriever, data, "which law governs?"), data.projection.xy[7], atol=1e-5)
