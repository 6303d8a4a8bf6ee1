"""HTML fragments for the dashboard: ranked chunks, gold spans in context, chunk boundaries.

Every piece of document text, summary, path, name or query goes through :func:`esc` (the one rule
for untrusted text, :mod:`.text`) before it is wrapped in markup, so a ``<script>`` or a Markdown
link inside a contract is shown, never run or followed. The fragments are rendered with
``st.markdown(..., unsafe_allow_html=True)``; text outside them uses :func:`md`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine.chunking import Chunk
from ..engine.data import Span
from ..engine.metrics import merge_spans
from ..engine.retrieval import Hit
from .answers import anchor
from .compare import WrongHit
from .highlight import segments, to_html
from .labels import LABEL_NAMES
from .text import breakable as breakable  # re-exported, like md
from .text import esc, esc_attr
from .text import md as md  # re-exported: the pages take the whole text rule from here
from .wording import pct

CSS = """
<style>
mark.gold { background: #fde68a; color: #111827; padding: 0 1px; border-radius: 2px; }
span.muted { color: #6b7280; }
.sac-free span.muted { color: inherit; }
.sac-hit { border: 1px solid #e5e7eb; border-left: 5px solid #9ca3af; border-radius: 6px;
           padding: 6px 10px; margin: 0 0 10px 0; font-size: 0.86rem; line-height: 1.45; }
.sac-hit.ok { border-left-color: #16a34a; }
.sac-hit.bad { border-left-color: #dc2626; }
.sac-head { font-size: 0.8rem; margin-bottom: 4px; color: #374151; overflow-wrap: anywhere; }
.sac-badge { display: inline-block; max-width: 100%; padding: 0 6px; border-radius: 9px; font-weight: 600;
             font-size: 0.75rem; margin-right: 4px; }
.sac-badge.ok, .sac-badge.found { background: #dcfce7; color: #166534; }
.sac-badge.bad, .sac-badge.missed { background: #fee2e2; color: #991b1b; }
.sac-badge.partly { background: #fef9c3; color: #854d0e; }
.sac-badge.free { background: #e5e7eb; color: #374151; }
.sac-score { color: #6b7280; float: right; }
.sac-context { border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 10px; font-size: 0.86rem;
               line-height: 1.5; margin-bottom: 12px; }
.sac-doc { font-size: 0.86rem; line-height: 1.6; border: 1px solid #e5e7eb; border-radius: 6px;
           padding: 8px 10px; max-height: 70vh; overflow-y: auto; }
.sac-doc span.c0 { background: #dbeafe; }
.sac-doc span.c1 { background: #fce7f3; }
.sac-doc span.overlap { background: #c4b5fd; }
.sac-doc span.gap { background: transparent; color: #9ca3af; }
.sac-doc span.gold { background: #fde68a; box-shadow: inset 0 -2px #f59e0b; }
.sac-doc sup.cno { color: #1d4ed8; font-weight: 700; font-size: 0.65rem; margin: 0 2px; }
div.sac-prompt { white-space: pre-wrap; font-family: "Source Code Pro", monospace; font-size: 0.8rem;
                 background: #f9fafb; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 10px; }
table.sac-table { border-collapse: collapse; width: 100%; font-size: 0.84rem; }
table.sac-table th, table.sac-table td { border: 1px solid #e5e7eb; padding: 4px 6px; vertical-align: top;
                                        text-align: left; }
table.sac-table th { background: #f9fafb; }
table.sac-why tr.sac-differs td { background: #fef2f2; }
table.sac-why td:first-child { color: #6b7280; white-space: nowrap; }
.sac-hit.sac-current { border-color: #2563eb; box-shadow: 0 0 0 2px #93c5fd; }
.sac-answer { border: 1px solid #c7d2fe; border-left: 5px solid #6366f1; border-radius: 6px;
  padding: 6px 8px; margin: 0 0 10px 0; background: #f8fafc; font-size: 0.92rem; }
.sac-answer.flagged { border-left-color: #dc2626; background: #fef2f2; }
.sac-answer-problem { color: #991b1b; margin-top: 4px; }
a.sac-cite { text-decoration: none; font-weight: 600; white-space: nowrap; }
.sac-cite-doc { font-weight: 400; white-space: normal; }
a.sac-cite.ok { color: #166534; } a.sac-cite.bad, a.sac-cite.missing { color: #991b1b; }
.sac-hit:target { box-shadow: 0 0 0 3px #6366f1; }
div[data-testid="stColumn"] [data-testid="stMarkdownContainer"] h4 {
  font-size: 1.1rem; line-height: 1.3; overflow-wrap: normal; word-break: normal; }  /* a method's name in
  a column: whole words, small enough that "Recommended:" fits one of five columns at 1280 px */
[data-testid="stButtonGroup"] button { height: auto; min-height: 2rem; }
[data-testid="stButtonGroup"] button * {
  white-space: normal; overflow: visible; text-overflow: clip; text-align: center; }  /* an option of a
  segmented control wider than its column (a label of one of five Review columns at 1280 px) wraps between words, never cut to "…" */
</style>
"""


def chunk_html(file_path: str, text: str, start: int, gold: Sequence[Span]) -> str:
    """A chunk's text with the characters inside gold spans in ``<mark class="gold">``."""
    return to_html(segments(file_path, text, start, gold))


SCORE_TITLE = "this method's own scale: not comparable with another column's scores (compare ranks)"


def hit_card(
    rank: int, hit: Hit, gold_document: bool | None, gold: Sequence[Span], *, anchor_id: str | None = None
) -> str:
    """One retrieved chunk: rank, ✓/✗ for its document (``None``: free text, no gold), score, text;
    ``anchor_id``: the card's HTML id (what an answer's citation links to)."""
    if gold_document is None:
        kind, badge = "free", '<span class="sac-badge free">document</span>'
    elif gold_document:
        kind, badge = "ok", '<span class="sac-badge ok">✓ gold document</span>'
    else:
        kind, badge = "bad", '<span class="sac-badge bad">✗ wrong document</span>'
    c = hit.chunk
    where = esc_attr(f"{c.file_path}, characters [{c.start:,}, {c.end:,})")
    head = (
        f'<div class="sac-head">{badge}<b>#{rank}</b> <code title="{where}">{esc(breakable(c.file_path))}</code>'
        f'<span class="sac-score" title="{esc_attr(SCORE_TITLE)}">score {hit.score:.3f}</span></div>'
    )
    extra = " sac-free" if gold_document is None else ""
    body = chunk_html(c.file_path, c.text, c.start, gold)
    ident = f' id="{esc_attr(anchor_id)}"' if anchor_id else ""
    return f'<div class="sac-hit {kind}{extra}"{ident}>{head}{body}</div>'


def trimmed_hit_card(
    rank: int,
    hit: Hit,
    source: Chunk,
    gold_document: bool | None,
    gold: Sequence[Span],
    *,
    anchor_id: str | None = None,
) -> str:
    """A hit a passage method cut from a longer chunk (``source``): the kept text as in
    :func:`hit_card` (gold characters marked), the characters cut before and after it greyed, gold
    marked there too, so what trimming dropped stays visible."""
    kept = hit.chunk
    card = hit_card(rank, hit, gold_document, gold, anchor_id=anchor_id)
    before = source.text[: max(0, kept.start - source.start)]
    after = source.text[max(0, kept.end - source.start) :]
    grey = '<span class="sac-cut" style="color:#9ca3af;opacity:0.7" title="cut by trimming">{}</span>'
    pre = grey.format(chunk_html(source.file_path, before, source.start, gold)) if before else ""
    post = grey.format(chunk_html(source.file_path, after, kept.end, gold)) if after else ""
    note = (
        f'<span class="sac-badge free" title="characters kept of the retrieved chunk">'
        f"trimmed: {len(kept.text):,} of {len(source.text):,} characters</span>"
    )
    head_end = card.index("</div>") + len("</div>")  # after the header line of hit_card
    body = chunk_html(kept.file_path, kept.text, kept.start, gold)
    return f"{card[:head_end]}{note}<br>{pre}{body}{post}</div>"


def hit_cards(
    hits: Sequence[Hit],
    gold_document: Sequence[bool] | None,
    gold: Sequence[Span],
    *,
    trimmed_from: Sequence[Chunk | None] | None = None,
    column: str | None = None,
) -> list[str]:
    """One card per hit of a column (``gold_document``: per hit, or None for free text); a hit a
    trimming stage cut from a chunk (``trimmed_from``: per hit, as the search result carries it)
    shows what was cut (:func:`trimmed_hit_card`); ``column``: its name, which gives each card the
    id an answer's citation links to."""
    sources = list(trimmed_from) if trimmed_from is not None else [None] * len(hits)
    cards = []
    for rank, (hit, source) in enumerate(zip(hits, sources), start=1):
        flag = None if gold_document is None else gold_document[rank - 1]
        ident = None if column is None else anchor(column, rank)
        cards.append(
            hit_card(rank, hit, flag, gold, anchor_id=ident)
            if source is None
            else trimmed_hit_card(rank, hit, source, flag, gold, anchor_id=ident)
        )
    return cards


def fmt_pct(value: float | None) -> str:
    """A fraction in percent with one decimal (``100.0%``, ``33.3%``), NaN/None ``—``: :func:`.wording.pct`."""
    return pct(value)


def delta_pts(value: float | None, reference: float | None) -> str | None:
    """``value − reference`` in percentage points (``+4.2 pts``), ``±0 pts`` when equal, None when unknown."""
    if value is None or reference is None or value != value or reference != reference:
        return None
    change = (value - reference) * 100
    return "±0 pts" if abs(change) < 0.05 else f"{change:+.1f} pts"


def coverage_label(share: float) -> str:
    """``found`` (the whole span is in the top-k), ``partly NN%`` or ``missed``."""
    if share >= 1 - 1e-9:
        return "found"
    if share > 0:
        return f"partly {share:.0%}"
    return "missed"


def coverage_badges(shares: Mapping[str, float]) -> str:
    """One badge per index: name and found / partly / missed."""
    out = []
    for name, share in shares.items():
        label = coverage_label(share)
        cls = label.split()[0]
        out.append(f'<span class="sac-badge {cls}">{esc(name)}: {esc(label)}</span>')
    return " ".join(out)


def context_window(length: int, span: Span, context: int) -> tuple[int, int]:
    """``[lo, hi)`` around ``span`` with up to ``context`` characters either side, inside ``[0, length)``."""
    return max(0, span.start - context), min(length, span.end + context)


def gold_context_html(text: str, span: Span, gold: Sequence[Span], context: int = 300) -> str:
    """A gold span in its document, ``context`` characters either side, gold characters marked."""
    lo, hi = context_window(len(text), span, context)
    body = chunk_html(span.file_path, text[lo:hi], lo, gold)
    pre = "… " if lo > 0 else ""
    post = " …" if hi < len(text) else ""
    return f'<div class="sac-context">{pre}{body}{post}</div>'


def query_html(query_id: str | None, text: str) -> str:
    """The query line above the Compare columns: a benchmark query's id, or "free text"."""
    label = "free text" if query_id is None else f"query <code>{esc(query_id)}</code>"
    return f'<div class="sac-context"><b>{label}:</b> {esc(text)}</div>'


def gold_span_html(text: str, span: Span, gold: Sequence[Span], shares: Mapping[str, float]) -> str:
    """A gold span's header (path, characters, found/missed badge per index) and the span in context."""
    head = (
        f'<div class="sac-head"><code>{esc(breakable(span.file_path))}</code> characters '
        f"[{span.start:,}, {span.end:,}) &nbsp; {coverage_badges(shares)}</div>"
    )
    return head + gold_context_html(text, span, gold)


def summary_box_html(summary: str) -> str:
    """One summary in a box (the Documents page)."""
    return f'<div class="sac-context">{esc(summary)}</div>'


@dataclass(frozen=True)
class SummaryRow:
    """A document involved in a query: is it gold (None: unknown, a free-text question), which
    indexes retrieved it, each index's summary."""

    file_path: str
    gold: bool | None
    retrieved_by: tuple[str, ...]
    summaries: tuple[tuple[str, str | None], ...]  # (index name, summary or None = no summary)


def summary_rows(
    gold_files: Sequence[str] | frozenset[str] | None,
    hits: Mapping[str, Sequence[Hit]],
    summaries: Mapping[str, Mapping[str, str]],
    limit: int = 12,
) -> list[SummaryRow]:
    """Gold documents first, then the others in order of first retrieval (``hits``: index → ranked hits).

    ``gold_files`` None: a free-text question, whose gold is unknown (no ✓/✗ on any row).
    ``summaries``: index name → file path → summary; an index absent there (the baseline) is left out.
    """
    order: list[str] = sorted(gold_files or ())
    for ranked in hits.values():
        for h in ranked:
            if h.chunk.file_path not in order:
                order.append(h.chunk.file_path)
    rows = []
    for fp in order[:limit]:
        by = tuple(name for name, ranked in hits.items() if any(h.chunk.file_path == fp for h in ranked))
        gold = None if gold_files is None else fp in gold_files
        rows.append(SummaryRow(fp, gold, by, tuple((n, s.get(fp)) for n, s in summaries.items())))
    return rows


def prompt_html(text: str) -> str:
    """A summary prompt as escaped, wrapped monospace text. Not ``st.code``: its syntax highlighter
    is a large script the browser would load before Compare's first chunks (issue 27). A ``div``,
    not a ``pre``: Streamlit's Markdown drops a ``pre``'s class, and with it the style."""
    return f'<div class="sac-prompt">{esc(text)}</div>'


def summary_table(rows: Sequence[SummaryRow]) -> str:
    """The summaries each SAC index prepended, one row per document, all text escaped."""
    if not rows:
        return ""
    names = [name for name, _ in rows[0].summaries]
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    body = []
    for r in rows:
        mark = (
            '<span class="sac-badge free">document</span>'
            if r.gold is None
            else '<span class="sac-badge ok">✓ gold</span>'
            if r.gold
            else '<span class="sac-badge bad">✗ not gold</span>'
        )
        by = f"<br><small>retrieved by: {esc(', '.join(r.retrieved_by)) or '—'}</small>"
        cells = "".join(f"<td>{esc(s) if s is not None else '—'}</td>" for _, s in r.summaries)
        body.append(f"<tr><td>{mark}<code>{esc(breakable(r.file_path))}</code>{by}</td>{cells}</tr>")
    return f'<table class="sac-table"><tr><th>document</th>{head}</tr>{"".join(body)}</table>'


def chunk_range_around(chunks: Sequence[Chunk], span: Span, before: int = 2) -> int:
    """Index of the chunk to start a view at so that ``span`` is visible (``before`` chunks earlier)."""
    for i, c in enumerate(chunks):
        if c.end > span.start:
            return max(0, i - before)
    return max(0, len(chunks) - 1)


def gold_anchor(start: int) -> str:
    """The HTML id of the gold span starting at character ``start`` in the Documents page's text."""
    return f"sac-gold-{int(start)}"


def boundaries_html(
    text: str, chunks: Sequence[Chunk], gold: Sequence[Span], lo: int, hi: int, first_number: int = 1
) -> str:
    """Characters ``[lo, hi)`` of a document with its chunks drawn.

    Chunks alternate background (``c0``/``c1``); text in two chunks is ``overlap``, in none
    ``gap``; gold characters also get class ``gold``; each chunk start shows its number
    (``chunks[i]`` is number ``first_number + i``); each gold span starting in the window carries
    an empty anchor, id :func:`gold_anchor`, that a link can scroll to.
    """
    inside = [(i, c) for i, c in enumerate(chunks) if c.end > lo and c.start < hi]
    golds = [g for g in merge_spans(gold) if g.end > lo and g.start < hi]
    anchors = {g.start for g in gold if lo <= g.start < hi}
    cuts = {lo, hi, *anchors}
    for _, c in inside:
        cuts.update(x for x in (c.start, c.end) if lo < x < hi)
    for g in golds:
        cuts.update(x for x in (g.start, g.end) if lo < x < hi)
    points = sorted(cuts)
    starts = {c.start: i for i, c in inside}
    out = []
    for a, b in zip(points, points[1:]):
        if a in anchors:
            out.append(f'<span class="sac-anchor" id="{gold_anchor(a)}"></span>')
        if a in starts:
            out.append(f'<sup class="cno">{first_number + starts[a]}</sup>')
        covering = [i for i, c in inside if c.start <= a < c.end]
        cls = "gap" if not covering else ("overlap" if len(covering) > 1 else f"c{covering[0] % 2}")
        if any(g.start <= a < g.end for g in golds):
            cls += " gold"
        out.append(f'<span class="{cls}">{esc(text[a:b])}</span>')
    return '<div class="sac-doc">' + "".join(out) + "</div>"


def _cosine(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def wrong_hit_html(why: WrongHit) -> str:
    """The wrong document beside the gold one: summaries, facts (differences marked) and the query's
    cosine to the chunk without and with the summary prefix."""
    wrong_doc, gold_doc = why.chunk.file_path, why.gold_chunk.file_path if why.gold_chunk else "—"
    rows = [
        f"<tr><th></th><th>retrieved (wrong) <code>{esc(breakable(wrong_doc))}</code></th>"
        f"<th>gold <code>{esc(breakable(gold_doc))}</code></th></tr>",
        f"<tr><td>summary{'' if not why.summary_source else f' ({esc(why.summary_source)})'}</td>"
        f"<td>{esc(why.summaries[0] or '—')}</td><td>{esc(why.summaries[1] or '—')}</td></tr>",
    ]
    for fact, a, b in why.facts:
        mark = ' class="sac-differs"' if a != b else ""
        rows.append(f"<tr{mark}><td>{esc(fact)}</td><td>{esc(a)}</td><td>{esc(b)}</td></tr>")
    rows.append(
        f"<tr><td>query · chunk, no summary</td><td>{_cosine(why.without_summary[0])} (#{why.rank})</td>"
        f"<td>{_cosine(why.without_summary[1])} (its best chunk)</td></tr>"
    )
    rows.append(
        f"<tr><td>query · summary + chunk</td><td>{_cosine(why.with_summary[0])}</td>"
        f"<td>{_cosine(why.with_summary[1])}</td></tr>"
    )
    return f'<table class="sac-table sac-why">{"".join(rows)}</table>'


def jump_link(anchor_id: str, text: str) -> str:
    """A link that scrolls this page to the element with HTML id ``anchor_id`` (both escaped)."""
    return f'<a class="sac-jump" href="#{esc_attr(anchor_id)}">{esc(text)}</a>'


def review_card(ref: str, file_path: str, text: str, start: int, gold: Sequence[Span], show_gold: bool,
                current: bool = False, label: str | None = None, *, anchor_id: str | None = None) -> str:  # fmt: skip
    """A chunk under blind review: where it sits in the column (``A#2``), its document and text;
    gold characters marked only when the reviewer shows them; its label once given; ``anchor_id``:
    the card's HTML id, what the column's answer links its citations to (built from the blind
    letter, never the method)."""
    shown = gold if show_gold else ()
    classes = "sac-hit sac-free" + (" sac-current" if current else "")
    badge = f'<span class="sac-badge partly">{esc(LABEL_NAMES.get(label, label))}</span>' if label else ""
    head = f'<div class="sac-head"><b>{esc(ref)}</b> <code>{esc(breakable(file_path))}</code> {badge}</div>'
    ident = f' id="{esc_attr(anchor_id)}"' if anchor_id else ""
    return f'<div class="{classes}"{ident}>{head}{chunk_html(file_path, text, start, shown)}</div>'
