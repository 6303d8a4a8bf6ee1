"""Trimming (contextual compression): each retrieved chunk cut to its query-relevant sentences.

LangChain's ``ContextualCompressionRetriever`` with an ``EmbeddingsFilter`` keeps, of each
retrieved document, only what is similar enough to the query; here the unit is the sentence
(:mod:`.sentences`) and the measure is relative to the chunk's best sentence: a sentence is kept
when its cosine to the question is at least the best one's minus ``drop``, and the returned span
runs from the first kept sentence to the last (a chunk's relevant text is one stretch; a gap
inside it is kept). The span never grows beyond the chunk. The metrics count the returned span,
so a trimmed hit shows fewer characters; what was cut is still known from the chunk
(:meth:`TrimmingRanker.trimmed_from`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..chunking import Chunk
from .ranker import Hit, Ranker
from .routed import Refining
from .sentences import MAX_SENTENCE_CHARS, SentenceIndex


@dataclass(frozen=True)
class TrimSettings:
    """The trimming's settings, and the options of its stage (``trim.<field>``)."""

    on: bool = False  # the stage is switched on (read by the run's configuration)
    drop: float = 0.1  # keep sentences whose cosine is at least the chunk's best minus this
    depth: int = 64  # hits trimmed (the first ``depth`` of the routed document's)
    max_sentence_chars: int = MAX_SENTENCE_CHARS  # longer sentences are cut (characters)

    def __post_init__(self) -> None:
        if self.drop < 0 or self.depth < 1 or self.max_sentence_chars < 1:
            raise ValueError("drop must be >= 0, depth and max_sentence_chars >= 1")


def keep_span(spans: np.ndarray, cosines: np.ndarray, start: int, end: int, drop: float) -> tuple[int, int]:
    """``[start, end)`` cut to the stretch from the first to the last sentence whose cosine is
    within ``drop`` of the best (``spans``: those sentences, in order; clipped to the chunk)."""
    if len(spans) == 0:
        return start, end
    keep = np.flatnonzero(cosines >= cosines.max() - drop)
    return max(start, int(spans[keep.min(), 0])), min(end, int(spans[keep.max(), 1]))


class TrimmingRanker(Refining):
    """``inner``'s hits, those of the routed document cut to their relevant sentences."""

    sentences: SentenceIndex

    def __init__(self, inner: Ranker, settings: TrimSettings, sentences: SentenceIndex, *, split: bool) -> None:
        super().__init__(inner, split=split, sentences=sentences)
        self.settings = settings
        self.trimmed: dict[tuple[str, int, int], Chunk] = {}  # returned span → the chunk it was cut from

    def trimmed_from(self, hit: Hit) -> Chunk | None:
        found = self.trimmed.get((hit.chunk.file_path, hit.chunk.start, hit.chunk.end))
        return found if found is not None else self.inner.trimmed_from(hit)

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        first = self.inner.search(queries, k, progress=progress)
        evidence = self.routing.evidence(queries)
        _, qvs = self.routing.questions(queries)
        out = []
        for hits, known, qv in zip(first, evidence, qvs):
            if not known or not hits:
                out.append(hits)
                continue
            routed = hits[0].chunk.file_path
            trimmed, done = [], 0
            for h in hits:
                if h.chunk.file_path == routed and done < self.settings.depth:
                    h = self.trim(h, qv)
                    done += 1
                trimmed.append(h)
            out.append(trimmed)
        return out

    def trim(self, hit: Hit, qv: np.ndarray) -> Hit:
        c = hit.chunk
        which = self.sentences.within(c.file_path, c.start, c.end)
        if len(which) < 2:
            return hit
        cos = self.sentences.vectors(c.file_path, which) @ qv
        start, end = keep_span(self.sentences.spans(c.file_path)[which], cos, c.start, c.end, self.settings.drop)
        if (start, end) == (c.start, c.end):
            return hit
        text = self.sentences.texts[c.file_path]
        self.trimmed[(c.file_path, start, end)] = c
        return Hit(Chunk(c.file_path, start, end, text[start:end]), hit.score)
