"""BM25: ``bm25s`` (Lucene variant, k1=1.5, b=0.75) over the indexed texts.

Texts are tokenised as lower-cased ``\\w+`` runs without stemming. bm25s keeps scores in a sparse
matrix, so one query over 180k chunks takes milliseconds; rank-bm25 loops over every chunk in
Python per term.
"""

from __future__ import annotations

import logging
import re

import numpy as np

from .ranked import Ranked

_TOKEN = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class BM25Index:
    def __init__(self, texts: list[str] | tuple[str, ...]) -> None:
        import bm25s

        # bm25s sets its own logger to DEBUG: once any library gives the root logger a handler
        # (rouge-score's absl does), every index build would print "Building index from tokens"
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        self.size = len(texts)
        self.bm25 = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        self.bm25.index([tokenize(t) or [""] for t in texts], show_progress=False)

    def __len__(self) -> int:
        return self.size

    def document_frequency(self, token: str) -> int:
        """In how many indexed texts ``token`` (a lower-cased word) occurs."""
        column = self.bm25.vocab_dict.get(token)
        indptr = self.bm25.scores["indptr"]
        return 0 if column is None else int(indptr[column + 1] - indptr[column])

    def scores(self, query: str) -> np.ndarray:
        """The BM25 score of every indexed text for ``query`` (0 where no query word occurs)."""
        tokens = [t for t in tokenize(query) if t in self.bm25.vocab_dict]
        return np.asarray(self.bm25.get_scores(tokens), dtype=np.float32) if tokens else np.zeros(self.size, np.float32)

    def search(self, query: str, k: int) -> Ranked:
        scores = self.scores(query)
        k = min(k, self.size)
        top = np.argpartition(-scores, k - 1)[:k] if 0 < k < self.size else np.arange(self.size)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # by score desc, then chunk index
        return Ranked(top.astype(np.int64), scores[top])
