"""Dense index: exact cosine on unit vectors."""

import numpy as np
import pytest

from sac_core.engine.indexes import DenseIndex


def test_dense_index_is_cosine_on_unit_vectors():
    vecs = np.eye(3, dtype=np.float32)
    query = np.array([[0.6, 0.8, 0.0]], dtype=np.float32)
    (ranked,) = DenseIndex(vecs).search(query, 5)  # k beyond the pool is cut to its size
    assert ranked.ids.tolist() == [1, 0, 2]
    assert ranked.scores.tolist() == pytest.approx([0.8, 0.6, 0.0])
