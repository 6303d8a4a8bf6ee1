"""Split a benchmark-style query into the document it names and the question it asks.

LegalBench-RAG's queries open with a reference to one document, then ask ("Consider the
Non-Disclosure Agreement between CopAcc and ToP Mentors; Does the document …?"). Scoring documents
with the reference and chunks with the question keeps the parties' names from outweighing the
question inside a 500-character chunk. A query without such an opening is used whole for both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPENING = re.compile(r"^\s*(?:consider|in|under|regarding|for|according to|within)\b", re.IGNORECASE)
_DOC_WORDS = re.compile(
    r"\b(?:agreement|contract|nda|policy|policies|terms|document|merger|amendment|plan|license|licence|deal)\b",
    re.IGNORECASE,
)
MIN_QUESTION_CHARS = 10  # a shorter remainder is not a question: keep the query whole


@dataclass(frozen=True)
class QueryParts:
    document: str  # scores documents (the whole query when it names none)
    question: str  # scores chunks (the whole query when it cannot be split)

    @property
    def split(self) -> bool:
        return self.document != self.question


def split_query(query: str) -> QueryParts:
    """The opening document reference and the rest: split at the first ``;``, else at the first
    ``,`` or ``:`` when the opening names a kind of document. Unsplittable: the query for both."""
    if _OPENING.match(query):
        for separator in (";", ",", ":"):
            head, sep, tail = query.partition(separator)
            if not sep or len(tail.strip()) < MIN_QUESTION_CHARS:
                continue
            if separator == ";" or _DOC_WORDS.search(head):
                return QueryParts(head.strip(), tail.strip())
    return QueryParts(query, query)
