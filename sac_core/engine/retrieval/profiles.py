"""Which document a reference means, from what each document says about itself.

A lawyer names a contract by its type and parties ("Transnet's confidentiality agreement", "the
Amgen / Five Prime merger agreement", "the RROI NDA"), rarely by its file name. A document says the
same things about itself in a few places: its title and preamble (the parties and their defined
short names), its signature blocks, and its summary. :class:`ProfileMatcher` keeps, per document,
the words of those places (its **profile**: :func:`self_description`) and scores a reference by the
share of its distinctive words a profile holds, each weighted by its rarity among the profiles
(``ln(1 + n / (1 + df))``): 1 when a profile holds them all, 0 when it holds none. It is robust to

- **legal suffixes** and filler: "Inc.", "Ltd", "GmbH", "the", "between" … are not distinctive
  (:data:`FILLER`), so "Red River Oil" and "Red River Oil Inc." ask the same;
- **abbreviations**: a profile also holds the initials of each capitalised name in it, with and
  without its small words ("University of Arkansas at Little Rock" → ``ualr``, ``uoaalr``;
  "Department of Innovation & Technology" → ``dit``, ``doit``) and two capitalised words run
  together ("AG Projects" → ``agprojects``, "Petro-Lube" → ``petrolube``); a reference's camelCase
  word is also read as its parts ("SupplementOne" → ``supplement``, ``one``);
- **types named differently**: the usual names of a type are one word on both sides
  (:data:`TYPES`: "NDA", "non-disclosure", "confidentiality agreement" → ``nda``);
- **forms and templates**: a document whose opening is mostly blanks to fill in (``____``,
  ``[entity]``) holds the word ``form``, as does a reference saying form, template, model or
  standard;
- **several documents of the same parties**: the type's and the date's words are distinctive
  among them, so they decide.

File names are not read (they stay the separate ``doc_names`` term). The idea is the party and
title matching of entity-aware legal retrieval (KG-CiteRAG's legal NER signal), applied at the
document level; the matching is exact on words, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

HEAD_CHARS = 2_000  # the title, cover page and (usually) the preamble naming the parties
PREAMBLE_CHARS = 1_200  # from the first "between" / "among", wherever it is (after a table of contents)
PREAMBLE_SCAN = 40_000  # how far into the text the preamble is looked for
TAIL_CHARS = 1_500  # the signature blocks
MAX_RUN = 8  # words of a capitalised name read for its abbreviations
MIN_BLANKS = 2  # blanks to fill in (____, [entity], ……) that make an opening a form

# Words of a reference that do not pick out a document: filler, roles and legal suffixes.
FILLER = frozenset(
    "consider the a an of and or between among by for to in on with at s its this that document contract "
    "agreement agreements inc incorporated llc l ltd limited corp corporation co company plc lp llp gmbh ag sa nv "
    "bv pty sarl srl spa kg oy ab as group holding holdings party parties parent target".split()
)
# The usual names of a type, each mapped to one word (regular expressions over lower-cased text).
TYPES: tuple[tuple[str, str], ...] = (
    ("nda", r"\bnon[\s-]*disclosure\b|\bnondisclosure\b|\bconfidentiality\s+(?:and\s+\w+\s+)?agreement"
     r"|\bconfidential(?:ity)?\s+disclosure\b|\bsecrecy\s+agreement|\bnda\b|\bcda\b"),
    ("merger", r"\bplan\s+of\s+merger\b|\bmerger\s+agreement\b|\bacquisition\s+agreement\b"),
    ("form", r"\btemplate\b|\bform\b|\bmodel\b|\bstandard\b|\bblank\b"),
)  # fmt: skip
_TYPES = tuple((word, re.compile(pattern)) for word, pattern in TYPES)
_WORD = re.compile(r"[a-z0-9]+")
_CAPITALISED = re.compile(r"[A-Z][\w'’-]*")
_SMALL = frozenset({"of", "and", "at", "the", "for", "de", "du", "la", "&"})
_NAME_RUN = re.compile(
    r"(?:[A-Z][\w'’-]*|&|of|and|at|the|for|de|du|la)(?:[^\S\n]+(?:[A-Z][\w'’-]*|&|of|and|at|the|for|de|du|la))*"
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_BLANK = re.compile(r"_{4,}|\[[^\]\n]{0,40}\]|…{3,}|\.{6,}")
_PREAMBLE = re.compile(r"\b(?:between|among|amongst)\b", re.IGNORECASE)


def self_description(text: str, summary: str = "") -> str:
    """What a document says about itself: its head, its preamble, its tail and its summary."""
    found = _PREAMBLE.search(text, 0, PREAMBLE_SCAN)
    preamble = text[found.start() : found.start() + PREAMBLE_CHARS] if found and found.start() > HEAD_CHARS else ""
    return "\n".join([text[:HEAD_CHARS], preamble, text[-TAIL_CHARS:], summary])


def typed_words(text: str, *, replace: bool = False) -> list[str]:
    """The lower-cased words of ``text`` and the one word of each usual type name it holds
    (:data:`TYPES`); with ``replace``, a type name's own words are left out ("Non-Disclosure
    Agreement" → ``nda`` alone, so a reference's type counts once)."""
    lower = text.lower()
    found = [word for word, pattern in _TYPES if pattern.search(lower)]
    if replace:
        for _, pattern in _TYPES:
            lower = pattern.sub(" ", lower)
    return _WORD.findall(lower) + found


def initials(run: str) -> set[str]:
    """The abbreviations of a capitalised name: the initials of each stretch of it (from and to a
    capitalised word) without and with its small words, and its capitalised words run together two by
    two (``"Red River Oil"`` → ``rr``, ``rro``, ``ro``, ``redriver``, ``riveroil``)."""
    words = [w.strip("'’-") for w in run.split() if w.strip("'’-") and w != "&"][:MAX_RUN]
    out: set[str] = set()
    for start, first in enumerate(words):
        if first.lower() in _SMALL:
            continue
        for end in range(start + 2, len(words) + 1):
            window = words[start:end]
            if window[-1].lower() in _SMALL:
                continue
            out.add("".join(w[0] for w in window if w.lower() not in _SMALL).lower())
            out.add("".join(w[0] for w in window).lower())
    big = [w for w in words if w.lower() not in _SMALL]
    out.update(re.sub(r"\W", "", a + b).lower() for a, b in zip(big, big[1:]))
    out.update(re.sub(r"\W", "", w).lower() for w in big if "-" in w)  # "Petro-Lube" → petrolube
    return {a for a in out if len(a) >= 2}


def profile_words(text: str, summary: str = "") -> frozenset[str]:
    """A document's profile: the words of its self-description, its names' abbreviations and, when
    its opening is mostly blanks to fill in, ``form``."""
    described = self_description(text, summary)
    words = set(typed_words(described))
    for run in _NAME_RUN.findall(described):
        if _CAPITALISED.match(run):
            words |= initials(run)
    if len(_BLANK.findall(text[:HEAD_CHARS])) >= MIN_BLANKS:
        words.add("form")
    return frozenset(words)


def reference_words(reference: str) -> list[str]:
    """The distinctive words of a reference, in order: camelCase words also as their parts, filler
    (:data:`FILLER`) left out, each usual type name as its one word."""
    split = " ".join(part for word in reference.split() for part in _with_parts(word))
    return list(dict.fromkeys(w for w in typed_words(split, replace=True) if w not in FILLER and len(w) > 1))


def _with_parts(word: str) -> list[str]:
    """``word``, and its camelCase parts when it has several (``SupplementOne`` → it, ``Supplement``, ``One``)."""
    parts = [p for p in _CAMEL.split(word) if p]
    return [word, *parts] if len(parts) > 1 else [word]


class ProfileMatcher:
    """Scores every document for a reference by the rarity-weighted share of the reference's
    distinctive words its profile holds (module docstring). ``texts[i]`` and ``summaries[i]``
    (optional) are document ``i``'s."""

    def __init__(self, texts: Sequence[str], summaries: Sequence[str] | None = None) -> None:
        summaries = summaries if summaries is not None else [""] * len(texts)
        self.size = len(texts)
        self.holding: dict[str, list[int]] = {}  # profile word → the documents whose profile has it
        for i, (text, summary) in enumerate(zip(texts, summaries)):
            for word in profile_words(text, summary):
                self.holding.setdefault(word, []).append(i)

    def weight(self, word: str) -> float:
        """``ln(1 + n / (1 + df))``: a word no profile holds weighs the most, one every profile holds little."""
        return float(np.log1p(self.size / (1 + len(self.holding.get(word, ())))))

    def scores(self, reference: str) -> np.ndarray:
        """Per document, the weighted share of ``reference``'s distinctive words its profile holds."""
        out = np.zeros(self.size, dtype=np.float32)
        words = reference_words(reference)
        total = sum(self.weight(w) for w in words)
        for word in words:
            held = self.holding.get(word)
            if held:
                out[held] += np.float32(self.weight(word) / total)
        return out
