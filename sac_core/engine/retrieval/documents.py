"""Document-level scores: which document a query is about, before (or beside) which chunk.

SAC puts document context into every chunk's vector; a **document prior** adds it as a separate
score instead: a chunk's score is its cosine to the question plus ``doc_weight`` × its document's
score, where the document's score is the query's cosine to an embedded representation of the
document (a longer summary, the title and parties, or the file name) plus ``doc_bm25`` × the
query's BM25 over the document's full text, max-normalised per query to [0, 1]. **Routing**
ranks the chunks of the top ``route_docs`` documents first. Both follow the two-level retrieval
the SAC paper names as its outlook, and Rainbow RAG's document routing; the BM25 term is the
keyword side of KG-CiteRAG's hybrid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

import numpy as np

from ..entities import extract_entities
from ..indexes import BM25Index


def filename_text(file_path: str) -> str:
    """A file name as words: ``contractnli/CopAcc_NDA-v2.txt`` → ``CopAcc NDA v2``."""
    return re.sub(r"[_\-.]+", " ", PurePosixPath(file_path).stem).strip()


def title_text(text: str) -> str:
    """What the document says it is and who it binds, read from its text (not its file name)."""
    found = extract_entities(text)
    return "; ".join([found.title, *found.parties[:4]])


def representations(documents: Mapping[str, str], kind: str, summaries: Mapping[str, str] | None = None) -> list[str]:
    """One text per document (in sorted path order) for ``kind``: ``summary`` (from
    ``summaries``), ``title`` or ``filename``."""
    paths = sorted(documents)
    if kind == "summary":
        if summaries is None:
            raise ValueError("doc_repr 'summary' needs document summaries")
        missing = [p for p in paths if p not in summaries]
        if missing:
            raise KeyError(f"no summary for document {missing[0]}")
        return [summaries[p] for p in paths]
    if kind == "title":
        return [title_text(documents[p]) for p in paths]
    if kind == "filename":
        return [filename_text(p) for p in paths]
    raise ValueError(f"unknown document representation {kind!r}")


class DocumentScorer:
    """Scores every document for a query: cosine to its representation + ``bm25_weight`` × normalised BM25."""

    def __init__(
        self, paths: Sequence[str], vectors: np.ndarray, texts: Sequence[str] | None = None, bm25_weight: float = 0.0
    ) -> None:
        """``vectors[i]``: unit vector of document ``paths[i]``'s representation; ``texts``: the
        documents' full texts for the BM25 term (needed when ``bm25_weight > 0``)."""
        self.paths = tuple(paths)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.bm25_weight = bm25_weight
        self.bm25 = BM25Index(list(texts)) if bm25_weight > 0 and texts is not None else None
        if bm25_weight > 0 and self.bm25 is None:
            raise ValueError("a BM25 document term needs the documents' texts")

    def scores(self, query: str, vector: np.ndarray) -> np.ndarray:
        """One score per document, in ``paths`` order."""
        out: np.ndarray = self.vectors @ np.asarray(vector, dtype=np.float32)
        if self.bm25 is not None:
            keyword = self.bm25.scores(query)
            top = float(keyword.max()) if keyword.size else 0.0
            if top > 0:
                out = out + np.float32(self.bm25_weight / top) * keyword
        return out
