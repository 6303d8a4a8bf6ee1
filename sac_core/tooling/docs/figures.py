"""Figures of generated blocks: means over k with their 95 % intervals, one panel per metric (a dot at
the mean, a bar over the interval), as SVG written directly: byte-stable (the same results give the
same file, so ``sac docs --check`` can compare it), text as text, no script, no external font, and
milliseconds per figure (matplotlib took seconds, too slow for every ``make test``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from ...engine.metrics import HIGH, LOW
from ...experiments.report import SHOWN
from .blocks import HEADERS, Picked

WIDTH = 800  # px: the docs' content column
LABEL = 250  # px for the row labels
ROW = 22  # px per row
TOP, BOTTOM, GAP, RIGHT = 34, 30, 34, 18
COLOURS = {"precision": "#1a73e8", "recall": "#188038", "drm": "#d93025"}
FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"'


def means_figure(picked: Sequence[Picked]) -> str:
    """An SVG: per metric a panel with its own axis from 0, per picked cell a dot at its mean over k
    and a bar over its interval (none without intervals); labels on the left, rows top to bottom."""
    height = TOP + ROW * len(picked) + BOTTOM
    panel = (WIDTH - LABEL - 2 * GAP - RIGHT) / 3
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'{FONT} font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
    ]
    for i, p in enumerate(picked):
        y = TOP + ROW * i + ROW / 2
        if i % 2 == 0:
            out.append(f'<rect x="0" y="{y - ROW / 2:.1f}" width="{WIDTH}" height="{ROW}" fill="#f6f8fa"/>')
        out.append(
            f'<text x="{LABEL - 8}" y="{y + 4:.1f}" text-anchor="end" fill="#202124">{escape(_short(p.label))}</text>'
        )
    for m, metric in enumerate(SHOWN):
        out += _panel(picked, metric, LABEL + m * (panel + GAP), panel, height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _panel(picked: Sequence[Picked], metric: str, x0: float, width: float, height: float) -> list[str]:
    values = [_values(p, metric) for p in picked]
    top = _nice(max((hi if hi is not None else mean) for mean, _, hi in values))
    scale = lambda v: x0 + width * v / top
    colour = COLOURS[metric]
    out = [f'<text x="{x0:.1f}" y="18" font-weight="600" fill="{colour}">{HEADERS[metric]} (%)</text>']
    for tick in _ticks(top):
        x = scale(tick)
        out.append(f'<line x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{height - BOTTOM + 4}" stroke="#dadce0"/>')
        out.append(f'<text x="{x:.1f}" y="{height - BOTTOM + 18}" text-anchor="middle" fill="#5f6368">{tick:g}</text>')
    for i, (mean, low, high) in enumerate(values):
        y = TOP + ROW * i + ROW / 2
        if low is not None and high is not None:
            out.append(
                f'<line x1="{scale(low):.1f}" y1="{y:.1f}" x2="{scale(high):.1f}" y2="{y:.1f}" stroke="{colour}" '
                f'stroke-width="5" stroke-opacity="0.3" stroke-linecap="round"/>'
            )
        out.append(
            f'<circle cx="{scale(mean):.1f}" cy="{y:.1f}" r="4" fill="{colour}">'
            f"<title>{escape(picked[i].label)}: {mean:.2f}</title></circle>"
        )
    return out


def _values(p: Picked, metric: str) -> tuple[float, float | None, float | None]:
    row = p.sweep.means.loc[p.cell]
    mean = float(row[metric])
    low, high = (float(row[metric + s]) if metric + s in row.index else math.nan for s in (LOW, HIGH))
    if math.isnan(low) or math.isnan(high):
        return mean, None, None
    return mean, low, high


def _nice(value: float) -> float:
    """The axis end: the next of 1, 2, 2.5, 5 × 10^n at or above ``value`` (at least 1)."""
    value = max(value, 1.0)
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= value)


def _ticks(top: float) -> list[float]:
    step = top / 5 if top / 5 * 10 % 1 == 0 else top / 4
    return [round(step * i, 6) for i in range(round(top / step) + 1)]


def _short(label: str, limit: int = 31) -> str:
    """``label`` cut to ``limit`` characters, keeping its start (a row number) and its end (the most specific part)."""
    if len(label) <= limit:
        return label
    head = label.split(" ", 1)[0] + " " if label.startswith("#") else ""
    return head + "…" + label[-(limit - len(head) - 1) :]
