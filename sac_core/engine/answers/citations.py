"""Citations in an answer's text: ``[#2]``, ``[#2, #4]``, ``[#2][#3]`` (also ``[2]``; ``#2`` alone is
not a citation). Labels are returned as ``#<n>`` in order of first mention.

Text inside a quotation is never a citation: a quoted contract that says "SCHEDULE [1]" or "[#9]"
shows those characters, it does not cite excerpt #1 or #9. A quotation is given as a span
``[start, end)`` of the answer's characters (the extractive answerer knows its quotes exactly);
for a text that comes without them (an LLM's answer) :func:`quotations` finds them: ``“…”`` (nested
pairs allowed) and ``"…"``, each only when it is closed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Sequence

_BRACKET = re.compile(r"\[\s*(#?\d+(?:\s*[,;]\s*#?\d+)*)\s*\]")
_NUMBER = re.compile(r"\d+")

Spans = Sequence[tuple[int, int]]  # [start, end) character spans of a text


def quotations(text: str) -> tuple[tuple[int, int], ...]:
    """The quoted parts of ``text`` as ``[start, end)`` spans, the quotation marks included: the
    outermost matched ``“…”`` pairs (nesting counted; an opening mark never closed quotes nothing),
    then ``"…"`` pairs among the characters outside them (such a pair may hold a curly one; a last
    unpaired ``"`` quotes nothing). Linear in the length of ``text``."""
    pairs: list[tuple[int, int]] = []
    open_at: list[int] = []
    for i, ch in enumerate(text):
        if ch == "“":
            open_at.append(i)
        elif ch == "”" and open_at:
            start = open_at.pop()
            while pairs and pairs[-1][0] > start:  # pairs nested in this one
                pairs.pop()
            pairs.append((start, i + 1))
    out: list[tuple[int, int]] = []
    straight, at = -1, 0
    for a, b in [*pairs, (len(text), len(text))]:
        for i in range(at, a):
            if text[i] == '"':
                if straight < 0:
                    straight = i
                else:
                    out.append((straight, i + 1))
                    straight = -1
        at = b
    out.extend(pairs)
    return tuple(sorted(out))


def _groups(text: str, quotes: Spans | None) -> list[re.Match[str]]:
    """The bracket groups of ``text`` that lie outside every quotation (``quotes`` None: found by
    :func:`quotations`)."""
    merged: list[list[int]] = []
    for a, b in sorted(quotations(text) if quotes is None else quotes):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [a for a, _ in merged]

    def quoted(at: int) -> bool:
        i = bisect.bisect_right(starts, at) - 1
        return i >= 0 and at < merged[i][1]

    return [m for m in _BRACKET.finditer(text) if not quoted(m.start())]


def _labels(group: re.Match[str]) -> tuple[str, ...]:
    return tuple(f"#{int(n)}" for n in _NUMBER.findall(group.group(1)))


def cited_labels(text: str, quotes: Spans | None = None) -> list[str]:
    """Every label cited in ``text`` outside its quotations (``#<n>``), once each, in order of first mention."""
    found: dict[str, None] = {}
    for group in _groups(text, quotes):
        for label in _labels(group):
            found.setdefault(label, None)
    return list(found)


def unknown_labels(text: str, known: Collection[str], quotes: Spans | None = None) -> list[str]:
    """Cited labels that are not in ``known``."""
    return [label for label in cited_labels(text, quotes) if label not in known]


def split_citations(text: str, quotes: Spans | None = None) -> list[str | tuple[str, ...]]:
    """``text`` as plain pieces (str) and citation groups (a tuple of ``#<n>`` labels), in order:
    ``"Two years [#1, #3]."`` → ``["Two years ", ("#1", "#3"), "."]``; quotations stay plain text."""
    out: list[str | tuple[str, ...]] = []
    at = 0
    for group in _groups(text, quotes):
        if group.start() > at:
            out.append(text[at : group.start()])
        out.append(_labels(group))
        at = group.end()
    if at < len(text):
        out.append(text[at:])
    return out
