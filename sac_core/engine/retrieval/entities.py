"""A chunk ranking by the legal entities a query names (after KG-CiteRAG's entity signal).

Every document's entities (title, parties, governing law, defined terms, section headings,
citations: :mod:`sac_core.engine.entities`) are matched against the query: an entity matches when
all its words (of 3+ letters) occur in the query. A matched entity counts its inverse document
frequency, ``log(1 + N / df)``, once for every chunk of a document that has it, and once more
for a chunk whose own text names it. Chunks without a match are not in the ranking; the
retriever fuses it with the dense (and BM25) rankings by weighted reciprocal-rank fusion.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

from ..chunking import Chunk
from ..entities import extract_entities

_WORD = re.compile(r"[a-z0-9]{3,}")
GENERIC = frozenset({"agreement", "company", "party", "parties", "the", "and", "inc", "llc", "ltd", "corp"})


def entity_words(entity: str) -> frozenset[str]:
    """The words that must occur in a query for ``entity`` to match (generic words left out)."""
    return frozenset(w for w in _WORD.findall(entity.lower()) if w not in GENERIC)


def document_entities(text: str) -> list[str]:
    found = extract_entities(text)
    named = [found.title, *found.parties, found.governing_law, *found.defined_terms, *found.headings, *found.citations]
    return [e for e in dict.fromkeys(named) if e and entity_words(e)]


class EntityIndex:
    """The entities of every document of a pool, and which chunks name them."""

    def __init__(self, documents: Mapping[str, str], chunks: Sequence[Chunk]) -> None:
        self.chunks = tuple(chunks)
        self.by_document = {path: document_entities(text) for path, text in documents.items()}
        df: dict[str, int] = {}
        for entities in self.by_document.values():
            for e in set(entities):
                df[e] = df.get(e, 0) + 1
        n = max(len(self.by_document), 1)
        self.idf = {e: math.log(1 + n / d) for e, d in df.items()}
        self.words = {e: entity_words(e) for e in df}
        positions: dict[str, list[int]] = {}
        for i, c in enumerate(self.chunks):
            positions.setdefault(c.file_path, []).append(i)
        self.doc_chunks = {p: np.array(ids, dtype=np.int64) for p, ids in positions.items()}

    def matched(self, query: str) -> list[str]:
        """Entities whose words all occur in ``query``."""
        words = set(_WORD.findall(query.lower()))
        return [e for e, need in self.words.items() if need <= words]

    def scores(self, query: str) -> np.ndarray:
        """One entity score per chunk (0 = no entity of the query)."""
        out = np.zeros(len(self.chunks), dtype=np.float32)
        hits = set(self.matched(query))
        if not hits:
            return out
        for path, entities in self.by_document.items():
            ids = self.doc_chunks.get(path)
            if ids is None:
                continue
            for e in hits.intersection(entities):
                out[ids] += self.idf[e]
                needle = e.lower()
                for i in ids:
                    if needle in self.chunks[int(i)].text.lower():
                        out[i] += self.idf[e]
        return out
