"""An answer against the gold text, as KG-CiteRAG scores generated answers: token F1 and ROUGE-L.

Both come from Google's ``rouge-score`` package (lower-cased alphanumeric tokens, Porter stemming):
token F1 is its ROUGE-1 F-measure (the F1 of the unigram overlap, multiset counts, the formula of
SQuAD's token F1), ROUGE-L its longest-common-subsequence F-measure. Citation markers (``[#2]``,
outside quotations: a quoted "[1]" is the document's) and typographic quotation marks are removed
from the answer first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .citations import Spans, split_citations

if TYPE_CHECKING:
    from rouge_score import rouge_scorer


@dataclass(frozen=True)
class AnswerScores:
    token_f1: float  # 0..1
    rouge_l: float  # 0..1


@lru_cache(maxsize=1)
def _scorer() -> rouge_scorer.RougeScorer:
    from rouge_score import rouge_scorer  # loads nltk: only when answers are scored

    return rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)


def plain_answer(text: str, quotes: Spans | None = None) -> str:
    """The answer's words: citation markers (outside ``quotes``; None: those
    :func:`~.citations.quotations` finds) and typographic quotation marks removed."""
    words = " ".join(p if isinstance(p, str) else " " for p in split_citations(text, quotes))
    return " ".join(words.replace("“", " ").replace("”", " ").split())


def score_answer(answer: str, gold_texts: Sequence[str], quotes: Spans | None = None) -> AnswerScores:
    """Token F1 and ROUGE-L F of ``answer`` (its quotations at ``quotes``) against the gold spans' texts (joined)."""
    scores = _scorer().score("\n".join(gold_texts), plain_answer(answer, quotes))
    return AnswerScores(scores["rouge1"].fmeasure, scores["rougeL"].fmeasure)
