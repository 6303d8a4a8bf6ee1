"""Which characters of a retrieved chunk are gold, rendered as escaped HTML for the dashboard.

Document text is untrusted: every piece goes through :func:`~.text.esc` before it is wrapped in
markup, so a ``<script>`` inside a contract is shown, never run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.data import Span
from ..engine.metrics import merge_spans
from .text import esc


@dataclass(frozen=True)
class Segment:
    text: str
    gold: bool


def segments(file_path: str, text: str, start: int, gold: Sequence[Span]) -> list[Segment]:
    """Split ``text`` (document characters ``[start, start+len(text))``) into gold / non-gold runs."""
    end = start + len(text)
    cuts: list[Segment] = []
    pos = start
    for g in merge_spans(s for s in gold if s.file_path == file_path):
        lo, hi = max(g.start, start), min(g.end, end)
        if lo >= hi:
            continue
        if lo > pos:
            cuts.append(Segment(text[pos - start : lo - start], gold=False))
        cuts.append(Segment(text[lo - start : hi - start], gold=True))
        pos = hi
    if pos < end:
        cuts.append(Segment(text[pos - start :], gold=False))
    return cuts


def to_html(parts: Sequence[Segment]) -> str:
    """Gold runs in ``<mark class="gold">``, the rest in ``<span class="muted">``; all text escaped."""
    out = []
    for p in parts:
        cls, tag = ("gold", "mark") if p.gold else ("muted", "span")
        out.append(f'<{tag} class="{cls}">{esc(p.text)}</{tag}>')
    return "".join(out)


def covered(gold: Span, retrieved: Sequence[Span]) -> float:
    """Share of the gold span's characters that the retrieved spans cover (0..1)."""
    hit = sum(
        max(0, min(r.end, gold.end) - max(r.start, gold.start))
        for r in merge_spans(r for r in retrieved if r.file_path == gold.file_path)
    )
    return hit / len(gold) if len(gold) else 0.0
