"""A document's legal entities (after KG-CiteRAG's legal named-entity layer), for contracts and
policies: what it is, who is bound, when, under which law, what it defines, how it is divided,
and which statutes or cases it cites.

- title, type, parties, first date, defined terms, section headings: the rules of :mod:`.rules`;
- governing law: ``governed by … the laws of X`` (one regular expression);
- citations: **eyecite** (Free Law Project), which finds case and statute citations such as
  ``26 U.S.C. § 501`` or ``347 U.S. 483``, and a rule for the way contracts cite statutes,
  ``Section 13(d) of the Securities Exchange Act of 1934``.

Deterministic, offline, and fast (milliseconds for a contract): computed when needed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from . import rules

_LAW = re.compile(
    r"(?:governed by|construed (?:and enforced )?in accordance with|subject to)"
    r"(?:,? and construed in accordance with,?)?\s+the\s+(?:internal\s+|substantive\s+)?laws?\s+of\s+"
    r"(?:the\s+)?(?:State\s+of\s+|Commonwealth\s+of\s+|Province\s+of\s+)?"
    r"([A-Z][A-Za-z]+(?:\s+(?:of\s+)?[A-Z][A-Za-z]+){0,3})",
)
_ACT = re.compile(r"\bSections?\s+(\d+[\w.()]*)\s+of\s+the\s+((?:[A-Z][\w.&'-]*\s+){0,6}Act(?:\s+of\s+\d{4})?)")
CITATION_SCAN = 200_000  # characters searched for citations


@dataclass(frozen=True)
class DocumentEntities:
    """What a document names. Lists are in order of first appearance, without repeats."""

    title: str
    kind: str  # "nda", "privacy_policy" or "other"
    parties: tuple[str, ...]
    date: str
    governing_law: str
    defined_terms: tuple[str, ...]
    headings: tuple[str, ...]
    citations: tuple[str, ...]

    def rows(self) -> list[tuple[str, str]]:
        """(kind of entity, entity) pairs, for tables."""
        out = [("title", self.title), ("type", rules.TYPE_LABELS[self.kind])]
        out += [("party", p) for p in self.parties]
        out += [("date", self.date)] if self.date else []
        out += [("governing law", self.governing_law)] if self.governing_law else []
        out += [("defined term", t) for t in self.defined_terms]
        out += [("section", h) for h in self.headings]
        out += [("citation", c) for c in self.citations]
        return out


def governing_law(text: str) -> str:
    """The jurisdiction whose law governs the document (``Delaware``), or ``""``."""
    match = _LAW.search(text)
    return match.group(1).strip() if match else ""


def citations(text: str) -> tuple[str, ...]:
    """Case and statute citations (eyecite), and statutes cited as ``Section X of the Y Act`` (as
    ``Y Act § X``), in order of appearance."""
    from eyecite import get_citations  # loads its reporter database: only when citations are asked for

    scan = text[:CITATION_SCAN]
    found = [(m.start(), f"{m.group(2)} § {m.group(1)}") for m in _ACT.finditer(scan)]
    for citation in get_citations(scan):
        if type(citation).__name__ in ("FullCaseCitation", "FullLawCitation", "FullJournalCitation"):
            found.append((citation.span()[0], citation.matched_text()))
    return tuple(dict.fromkeys(c for _, c in sorted(found)))


@lru_cache(maxsize=4096)
def extract_entities(text: str) -> DocumentEntities:
    """Every entity of one document (memoised: documents are read many times)."""
    scan = text[: rules.SCAN_CHARS].replace("\ufeff", "")
    kind = rules.document_type(scan)
    title = rules.title(scan) or rules.TYPE_LABELS[kind]
    parties = rules.parties(scan)
    if not parties and kind == "privacy_policy":
        parties = rules.names(scan, exclude=title)
    return DocumentEntities(
        title=title,
        kind=kind,
        parties=tuple(parties),
        date=rules.first_date(scan),
        governing_law=governing_law(text),
        defined_terms=tuple(rules.defined_terms(scan, exclude=[title, *parties])),
        headings=tuple(rules.headings(scan)),
        citations=citations(text),
    )
