"""Small-to-big: rank sentences, return each grown into the passage around it.

Sentence-window retrieval (LlamaIndex's ``SentenceWindowNodeParser``) and small-to-big / parent
retrieval (LangChain's ``ParentDocumentRetriever``) match a query against small units, whose
vectors are sharp, and hand back a larger window for context. Here the units are the sentences
(:mod:`.sentences`) of the routed document's best ``depth`` chunks (so only those are embedded);
each is scored

    score(s) = sentence_weight · z(cos(q, s)) + chunk_weight · z(cos(q, chunk of s))
               + bm25_weight · z(BM25(q, s))

(z over the candidate sentences; BM25 with IDF over the document's sentences). With
``sentence_weight`` 0 no sentence is embedded: the chunk's cosine and the sentence's BM25 decide. The best sentence
not yet returned starts a passage, which grows one neighbouring sentence at a time (the better
one first) while the neighbour scores at least ``grow`` and the passage stays within ``max_chars``
characters: a clause the query matches throughout comes back whole, a lone matching sentence
alone. With ``per_chunk`` only each candidate chunk's best sentence starts a passage (one passage
per chunk, as many slots as the chunks would take). Passages are returned best peak first, then
the wrapped ranker's other hits that overlap none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..chunking import Chunk
from ..indexes import BM25Index
from .ranker import Hit, Ranker
from .routed import Refining, fill, zscore
from .sentences import MAX_SENTENCE_CHARS, SentenceIndex


@dataclass(frozen=True)
class SmallToBigSettings:
    """Small-to-big's settings, and the options of its stage (``small_to_big.<field>``)."""

    on: bool = False  # the stage is switched on (read by the run's configuration)
    depth: int = 16  # best chunks of the routed document whose sentences are candidates
    sentence_weight: float = 1.0  # weight of z(sentence cosine); 0: no sentence is embedded
    chunk_weight: float = 1.0  # weight of z(cosine of the sentence's chunk)
    bm25_weight: float = 0.25  # weight of z(BM25 of the question over the document's sentences)
    grow: float = 2.0  # a neighbouring sentence joins a passage when its score is at least this (z units)
    max_chars: int = 800  # longest passage (characters)
    per_chunk: bool = False  # only each candidate chunk's best sentence starts a passage
    max_sentence_chars: int = MAX_SENTENCE_CHARS  # longer sentences are cut (characters)

    def __post_init__(self) -> None:
        if self.depth < 1 or self.max_chars < 1 or self.max_sentence_chars < 1:
            raise ValueError("depth, max_chars and max_sentence_chars must be >= 1")
        if min(self.sentence_weight, self.chunk_weight, self.bm25_weight) < 0:
            raise ValueError("weights must be >= 0")


def grow_passages(
    spans: np.ndarray,
    scores: np.ndarray,
    grow: float,
    max_chars: int,
    limit: int,
    seeds: np.ndarray | None = None,
) -> list[tuple[int, int, float]]:
    """Passages over sentences ``spans`` (``(n, 2)``, document order) with ``scores`` (``-inf``: not a
    candidate): ``(first sentence, last sentence, peak score)``, best peak first, at most ``limit``;
    ``seeds`` (boolean per sentence): only these start a passage (default: any candidate)."""
    n = len(spans)
    used = np.zeros(n, dtype=bool)
    out: list[tuple[int, int, float]] = []
    for j in np.argsort(-scores, kind="stable"):
        if len(out) >= limit or not np.isfinite(scores[j]):
            break
        if used[j] or (seeds is not None and not seeds[j]):
            continue
        lo = hi = int(j)
        while True:
            left = (
                lo > 0 and not used[lo - 1] and scores[lo - 1] >= grow and spans[hi, 1] - spans[lo - 1, 0] <= max_chars
            )
            right = (
                hi < n - 1
                and not used[hi + 1]
                and scores[hi + 1] >= grow
                and spans[hi + 1, 1] - spans[lo, 0] <= max_chars
            )
            if not (left or right):
                break
            if left and (not right or scores[lo - 1] >= scores[hi + 1]):
                lo -= 1
            else:
                hi += 1
        used[lo : hi + 1] = True
        out.append((lo, hi, float(scores[j])))
    return out


class SmallToBigRanker(Refining):
    """Passages grown from the routed document's best sentences, then ``inner``'s other hits."""

    sentences: SentenceIndex

    def __init__(self, inner: Ranker, settings: SmallToBigSettings, sentences: SentenceIndex, *, split: bool) -> None:
        super().__init__(inner, split=split, sentences=sentences)
        self.settings = settings
        self._bm25: dict[str, BM25Index] = {}

    def search(self, queries: Sequence[str], k: int, *, progress: bool = False) -> list[list[Hit]]:
        # deep enough that k hits remain after those the passages overlap are left out
        first = self.inner.search(queries, k + 4 * self.settings.depth, progress=progress)
        evidence = self.routing.evidence(queries)
        parts, qvs = self.routing.questions(queries)
        out = []
        for hits, known, part, qv in zip(first, evidence, parts, qvs):
            if not known or not hits:
                out.append(hits[:k])
                continue
            passages = self.passages(hits[0].chunk.file_path, hits, part.question, qv, k)
            out.append(fill(passages, hits, k))
        return out

    def passages(self, file_path: str, hits: Sequence[Hit], question: str, qv: np.ndarray, k: int) -> list[Hit]:
        """Up to ``k`` passages of ``file_path`` grown from the sentences of its best hits."""
        candidates = [h.chunk for h in hits if h.chunk.file_path == file_path][: self.settings.depth]
        spans = self.sentences.spans(file_path)
        chunk_cos = np.full(len(spans), -np.inf)
        for c in candidates:
            cos = float(self.routing.vectors[self._chunk_id(c)] @ qv) if self._chunk_id(c) >= 0 else 0.0
            which = self.sentences.within(file_path, c.start, c.end)
            chunk_cos[which] = np.maximum(chunk_cos[which], cos)
        chosen = np.flatnonzero(np.isfinite(chunk_cos))
        if len(chosen) == 0:
            return []
        s = self.settings
        bm25 = self._sentence_bm25(file_path).scores(question)[chosen]
        scores = np.full(len(spans), -np.inf)
        scores[chosen] = s.chunk_weight * zscore(chunk_cos[chosen]) + s.bm25_weight * zscore(bm25)
        if s.sentence_weight:
            scores[chosen] += s.sentence_weight * zscore(self.sentences.vectors(file_path, chosen) @ qv)
        seeds = None
        if s.per_chunk:  # each candidate chunk's best sentence
            seeds = np.zeros(len(spans), dtype=bool)
            for c in candidates:
                which = self.sentences.within(file_path, c.start, c.end)
                if len(which):
                    seeds[which[int(np.argmax(scores[which]))]] = True
        text = self.sentences.texts[file_path]
        out = []
        for lo, hi, peak in grow_passages(spans, scores, s.grow, s.max_chars, k, seeds):
            start, end = int(spans[lo, 0]), int(spans[hi, 1])
            out.append(Hit(Chunk(file_path, start, end, text[start:end]), peak))
        return out

    def _chunk_id(self, chunk: Chunk) -> int:
        for i in self.routing.doc_chunks.get(chunk.file_path, ()):
            if self.routing.chunks[int(i)].start == chunk.start:
                return int(i)
        return -1

    def _sentence_bm25(self, file_path: str) -> BM25Index:
        if file_path not in self._bm25:
            spans = self.sentences.spans(file_path)
            text = self.sentences.texts[file_path]
            self._bm25[file_path] = BM25Index([text[int(a) : int(b)] for a, b in spans])
        return self._bm25[file_path]
