"""What every ranker returns: chunk indexes, best first, with their scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Ranked:
    """Chunk indexes, best first, with the score each got from its ranker."""

    ids: np.ndarray
    scores: np.ndarray
