"""The chunks an answer may quote, labelled as the Compare page labels them (``#1`` … ``#k``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..retrieval import Hit


@dataclass(frozen=True)
class Excerpt:
    """Characters ``[start, end)`` of ``file_path`` with their ``text``, under ``label``."""

    label: str
    file_path: str
    start: int
    end: int
    text: str


def excerpts_of(hits: Sequence[Hit]) -> tuple[Excerpt, ...]:
    """One excerpt per hit, in rank order, labelled ``#<rank>``."""
    return tuple(
        Excerpt(f"#{rank}", h.chunk.file_path, h.chunk.start, h.chunk.end, h.chunk.text)
        for rank, h in enumerate(hits, start=1)
    )
