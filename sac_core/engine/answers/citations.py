"""Citations in an answer's text: ``[#2]``, ``[#2, #4]``, ``[#2][#3]`` (also ``[2]``, ``#2`` alone is
not a citation). Labels are returned as ``#<n>`` in order of first mention."""

from __future__ import annotations

import re
from collections.abc import Collection

_BRACKET = re.compile(r"\[\s*(#?\d+(?:\s*[,;]\s*#?\d+)*)\s*\]")
_NUMBER = re.compile(r"\d+")


def cited_labels(text: str) -> list[str]:
    """Every label cited in ``text`` (``#<n>``), once each, in order of first mention."""
    found: dict[str, None] = {}
    for group in _BRACKET.finditer(text):
        for number in _NUMBER.findall(group.group(1)):
            found.setdefault(f"#{int(number)}", None)
    return list(found)


def unknown_labels(text: str, known: Collection[str]) -> list[str]:
    """Cited labels that are not in ``known``."""
    return [label for label in cited_labels(text) if label not in known]


def split_citations(text: str) -> list[str | tuple[str, ...]]:
    """``text`` as plain pieces (str) and citation groups (a tuple of ``#<n>`` labels), in order:
    ``"Two years [#1, #3]."`` → ``["Two years ", ("#1", "#3"), "."]``."""
    out: list[str | tuple[str, ...]] = []
    at = 0
    for group in _BRACKET.finditer(text):
        if group.start() > at:
            out.append(text[at : group.start()])
        out.append(tuple(f"#{int(n)}" for n in _NUMBER.findall(group.group(1))))
        at = group.end()
    if at < len(text):
        out.append(text[at:])
    return out
