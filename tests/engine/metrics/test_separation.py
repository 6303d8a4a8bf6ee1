"""Separation of documents in an embedding space, on hand-made vectors with known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sac_core.engine.metrics import document_silhouette, own_document_share


def _unit(*rows: list[float]) -> np.ndarray:
    v = np.array(rows, dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


# Two documents far apart: A near the x axis, B near the y axis.
APART = _unit([1, 0.01], [1, 0.02], [1, 0.03], [0.01, 1], [0.02, 1], [0.03, 1])
LABELS = ["A", "A", "A", "B", "B", "B"]


def test_documents_far_apart_have_only_their_own_chunks_as_neighbours():
    assert own_document_share(APART, LABELS, k=2) == 1.0
    assert document_silhouette(APART, LABELS) > 0.99


def test_one_shared_neighbour_by_hand():
    # k = 2. Chunks 0 and 1 of A; chunk 2 of B sits between A's two chunks and chunk 3 of B far away.
    vectors = _unit([1, 0.0], [1, 0.2], [1, 0.1], [0.0, 1])
    labels = ["A", "A", "B", "B"]
    # neighbours: 0 → {2, 1}: 1 own of 2; 1 → {2, 0}: 1/2; 2 → {0 or 1, the other}: 0/2; 3 → {1, 2}: 1/2
    assert own_document_share(vectors, labels, k=2) == pytest.approx((0.5 + 0.5 + 0.0 + 0.5) / 4)


def test_identical_chunks_in_two_documents_do_not_separate():
    same = _unit([1, 0], [1, 0], [0, 1], [0, 1])
    assert own_document_share(same, ["A", "B", "A", "B"], k=1) == 0.0  # each chunk's twin is the other document's
    assert document_silhouette(same, ["A", "B", "A", "B"]) == pytest.approx(-0.5, abs=1e-6)


def test_degenerate_inputs():
    assert math.isnan(own_document_share(APART[:1], ["A"]))
    assert math.isnan(document_silhouette(APART[:3], ["A"] * 3))
    assert own_document_share(APART, LABELS, k=50) == pytest.approx(2 / 5)  # k capped at n - 1 = 5


def test_the_nearest_neighbours_report_their_progress_block_by_block_with_the_same_answer():
    """Issue 41: the Map's first visit took minutes with no progress; the search now goes in FAISS's own
    blocks of 4,096 chunks, telling after each, and finds the same neighbours as one search."""
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(9000, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    labels = [f"d{i % 40}" for i in range(9000)]
    told: list[tuple[int, int]] = []
    share = own_document_share(vectors, labels, k=5, on_progress=lambda done, total: told.append((done, total)))
    assert told == [(4096, 9000), (8192, 9000), (9000, 9000)]
    assert share == own_document_share(vectors, labels, k=5)
