"""A document's sections, found by its headings and numbering (after Rainbow RAG's section graph).

Rainbow RAG's best variant routes a query to a document, then to a section by the section's
summary, then to chunks. Here a section starts at a line that looks like a heading: ``ARTICLE
IV``, ``Section 5.2``, ``12. Confidentiality``, ``(a) Term``-style numbering at the start of a
line, or a short line in capitals. Sections shorter than ``min_chars`` are merged into the
previous one. Spans are character offsets ``[start, end)`` into the document's text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

_HEADING = re.compile(
    r"^[ \t]*(?:"
    r"(?:ARTICLE|Article|SECTION|Section|PART|Part|SCHEDULE|Schedule|EXHIBIT|Exhibit)\s+[\dIVXLC]+[\w.]*"
    r"|\d{1,2}(?:\.\d{1,2})*\.?[ \t]+[A-Z][^\n]{0,80}"
    r"|[A-Z][A-Z0-9 ,&'\-]{3,60}[ \t]*$"
    r")",
    re.MULTILINE,
)
MIN_SECTION_CHARS = 400


@dataclass(frozen=True)
class Section:
    start: int  # characters [start, end) of the document
    end: int
    heading: str  # the heading line ('' for the text before the first heading)


def split_sections(text: str, min_chars: int = MIN_SECTION_CHARS) -> list[Section]:
    """The sections of ``text`` in order; together they cover it exactly."""
    starts = [0] + [m.start() for m in _HEADING.finditer(text) if m.start() > 0]
    kept: list[int] = []
    for s in starts:
        if not kept or s - kept[-1] >= min_chars:
            kept.append(s)
    bounds = [*kept, len(text)]
    out = []
    for a, b in zip(bounds, bounds[1:]):
        line = text[a:b].strip().split("\n", 1)[0].strip()
        out.append(Section(a, b, line[:100] if a > 0 or _HEADING.match(text) else ""))
    return out or [Section(0, len(text), "")]


def lead_summary(text: str, section: Section, chars: int) -> str:
    """An offline section summary: its first ``chars`` characters (heading included), whitespace folded."""
    return " ".join(text[section.start : section.end].split())[:chars]


def section_of(sections: Sequence[Section], start: int) -> int:
    """Index of the section in which character ``start`` lies."""
    return max(bisect_right([s.start for s in sections], start) - 1, 0)
