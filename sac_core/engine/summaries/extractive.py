"""Offline summaries: a deterministic "fingerprint" taken from the document text, no model.

The fingerprint lists, in this order and only while they fit in ``char_length`` characters:

1. the title (or, without one, the guessed document type: NDA, privacy policy, legal document);
2. the parties (``between A and B`` / ``by and among A, B and C``); for a privacy policy
   without them, the name the text uses most (the company);
3. the first date;
4. for privacy policies, the kinds of data and uses mentioned most (``data: genetic, health``);
5. distinctive defined terms (``("Escrow Services")``), skipping the generic ones every contract has;
6. numbered section headings.

Example (cuad): ``Co-Branding and Advertising Agreement: I-Escrow, Inc.; 2themart.com, Inc.;
June 21, 1999; terms: Escrow Services, Information Transfer Mechanism, SOW``.
It depends on the text only (not the file name), so equal texts get equal fingerprints. Only
the first ``SCAN_CHARS`` characters are read.
"""

from __future__ import annotations

from ..entities import rules
from ..entities.rules import SCAN_CHARS, TYPE_LABELS
from .length import cut_at_word_boundary
from .prompts import Prompt
from .provider import SummaryResult

VERSION = "extractive-v1"  # the "model" name in caches; bump when the output changes


def fingerprint(text: str, char_length: int) -> str:
    """The document's fingerprint in at most ``char_length`` characters (see module docstring)."""
    if char_length < 1:
        raise ValueError(f"char_length must be positive, got {char_length}")
    scan = text[:SCAN_CHARS].replace("\ufeff", "")
    kind = rules.document_type(scan)
    title = rules.title(scan) or TYPE_LABELS[kind]
    parties = rules.parties(scan)
    if not parties and kind == "privacy_policy":
        parties = rules.names(scan, exclude=title)  # the company behind the policy
    date = rules.first_date(scan)

    out = cut_at_word_boundary(title, char_length)
    out = _append_list(out, ": ", "; ", parties[:3], char_length)
    out = _append_list(out, "; ", "", [date] if date else [], char_length)
    if kind == "privacy_policy":
        out = _append_list(out, "; data: ", ", ", rules.privacy_topics(scan), char_length)
    out = _append_list(out, "; terms: ", ", ", rules.defined_terms(scan, exclude=[title, *parties])[:6], char_length)
    out = _append_list(out, "; sections: ", ", ", rules.headings(scan)[:6], char_length)
    return out


class ExtractiveProvider:
    """:func:`fingerprint` as a provider; the prompt is not used (no model reads it)."""

    name = "extractive"
    model = VERSION

    def summarize(self, file_path: str, text: str, prompt: Prompt, char_length: int) -> SummaryResult:
        summary = fingerprint(text, char_length)
        return SummaryResult(summary, ((char_length, len(summary)),))


def _append_list(out: str, lead: str, sep: str, items: list[str], budget: int) -> str:
    """``out + lead + items joined by sep``, keeping only the items that fit ``budget`` characters."""
    added = 0
    for item in items:
        piece = (lead if added == 0 else sep) + item
        if len(out) + len(piece) <= budget:
            out += piece
            added += 1
    return out
