"""Where an answer comes from, checked without gold: which documents its citations quote, which
document the question names, and whether a quote says anything at all.

A question in LegalBench-RAG's style names its document ("Consider the Non-Disclosure Agreement
between CopAcc and ToP Mentors; …", :func:`~sac_core.engine.retrieval.split_query`). Its
distinctive words (those few documents share: not "agreement", "between", "inc") are matched
against each document's file name and opening characters, where a contract names its parties and
title. An answer that quotes several documents, or others than the one named, deserves a warning
even when no gold exists (free text).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote

from ..retrieval import split_query
from .types import Answer

_WORD = re.compile(r"[^\W_]+")
OPENING_CHARS = 2_000  # characters of a document read for its title and parties
COMMON_SHARE = 0.2  # a word in more than this share of the documents names none of them
# Words that never carry a statement on their own: articles, pronouns, auxiliaries, connectives.
STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be been before being below between both
    but by can could did do does doing down during each either few for from further had has have having he her here
    hers him his how i if in into is it its itself me more most my no nor not of off on once only or other our ours
    out over own same she should so some such than that the their theirs them then there these they this those
    through to too under until up upon us very was we were what when where which while who whom why will with would
    you your yours""".split()
)


def has_content(quote: str) -> bool:
    """Whether a quote says something: at least one word of three letters or more that is written in
    lower case (not a name, an initial capital or a heading in capitals) and is not a stop word.
    "VITAMIN SHOPPE INDUSTRIES INC. EXCITE, INC." has none; "The term is two years." has."""
    return any(len(w) >= 3 and w.islower() and w not in STOP_WORDS for w in _WORD.findall(quote))


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) >= 2 and w not in STOP_WORDS}


def file_words(file_path: str) -> str:
    """A file name as words: ``contractnli/12032018_NDA_The%20Munt_EN.txt`` → ``12032018 NDA The Munt EN``."""
    return re.sub(r"[_\-.\s]+", " ", unquote(PurePosixPath(file_path).stem)).strip()


@dataclass(frozen=True)
class DocumentNames:
    """Per document (by path) the words of its file name and opening characters, and each word's
    document frequency: what :meth:`named` matches a question's document reference against."""

    words: Mapping[str, frozenset[str]]
    frequency: Mapping[str, int]

    @classmethod
    def of(cls, documents: Mapping[str, str]) -> DocumentNames:
        """From ``path → text`` (only the first :data:`OPENING_CHARS` characters are read)."""
        words = {p: frozenset(_words(file_words(p)) | _words(t[:OPENING_CHARS])) for p, t in documents.items()}
        frequency: dict[str, int] = {}
        for found in words.values():
            for w in found:
                frequency[w] = frequency.get(w, 0) + 1
        return cls(words, frequency)

    def named(self, question: str) -> tuple[str, ...]:
        """The documents ``question`` names (sorted paths; several when they match equally), or ()
        when it names none. Each distinctive word of its document reference weighs 1 / the number of
        documents that have it (a word only one document has is a name); the best documents must
        hold at least half of the reference's weight. Documents that tie are told apart by their
        file names: the one whose name holds more of the reference's weight is the one named (a
        "CEII and NDA" reference names ``ceii-and-nda.txt``, not another NDA that mentions CEII)."""
        parts = split_query(question)
        if not parts.split or not self.words:
            return ()
        common = max(1, math.floor(COMMON_SHARE * len(self.words)))
        weight = {w: 1 / n for w in _words(parts.document) if 0 < (n := self.frequency.get(w, 0)) <= common}
        if not weight:
            return ()
        scores = {p: round(sum(weight[w] for w in weight if w in found), 9) for p, found in self.words.items()}
        best = max(scores.values())
        if best <= 0 or best < sum(weight.values()) / 2:
            return ()
        tied = [p for p, score in scores.items() if score == best]
        by_name = {p: round(sum(weight[w] for w in weight if w in _words(file_words(p))), 9) for p in tied}
        return tuple(sorted(p for p in tied if by_name[p] == max(by_name.values())))


@dataclass(frozen=True)
class Sources:
    """The documents an answer quotes (in order of first citation) and those its question names."""

    quoted: tuple[str, ...]
    named: tuple[str, ...]

    @property
    def several(self) -> bool:
        return len(self.quoted) > 1

    @property
    def not_named(self) -> tuple[str, ...]:
        """Quoted documents other than the named ones (empty when the question names none)."""
        return tuple(d for d in self.quoted if self.named and d not in self.named)


def sources(answer: Answer, named: Sequence[str]) -> Sources:
    """:class:`Sources` of ``answer`` for a question naming ``named`` (see :meth:`DocumentNames.named`)."""
    quoted = tuple(dict.fromkeys(c.file_path for c in answer.citations))
    return Sources(quoted, tuple(named))
