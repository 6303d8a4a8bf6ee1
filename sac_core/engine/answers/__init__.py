"""Answers from ranked chunks, with citations a lawyer can check against the documents.

A column's top-k chunks become labelled :class:`Excerpt` s (``#1`` … ``#k``, the labels the
Compare page shows); an :class:`Answerer` writes an answer that cites them (``[#2]``); every
citation is then checked: does the cited chunk come from a gold document of the query? Two
answerers share one interface: :class:`LLMAnswerer` (any OpenAI-compatible chat API, cached,
streamed) and :class:`ExtractiveAnswerer` (offline: the chunks' sentences that best match the
question). :mod:`.scoring` compares an answer with the gold text (token F1, ROUGE-L).
"""

from .citations import cited_labels, unknown_labels
from .excerpts import Excerpt, excerpts_of
from .extractive import ExtractiveAnswerer
from .llm import ANSWER_PROMPT, NOT_IN_EXCERPTS, AnswerError, LLMAnswerer, answer_cost
from .scoring import AnswerScores, score_answer
from .sources import DocumentNames, Sources, file_words, has_content, sources
from .types import Answer, Answerer, Citation

__all__ = [
    "ANSWER_PROMPT",
    "NOT_IN_EXCERPTS",
    "Answer",
    "AnswerError",
    "AnswerScores",
    "Answerer",
    "Citation",
    "DocumentNames",
    "Excerpt",
    "ExtractiveAnswerer",
    "LLMAnswerer",
    "Sources",
    "answer_cost",
    "cited_labels",
    "excerpts_of",
    "file_words",
    "has_content",
    "score_answer",
    "sources",
    "unknown_labels",
]
