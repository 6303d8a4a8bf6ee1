"""sac_core.dashboard.views: the dashboard's HTML fragments, with hand-computed expectations; all text escaped."""

from __future__ import annotations

import html

import pytest

from sac_core.dashboard import views
from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Span
from sac_core.engine.retrieval import Hit

FP = "nda/a.txt"


def test_chunk_html_marks_gold_characters_and_mutes_the_rest():
    # document characters 10..20 = "0123456789"; gold [13, 16) → "345"
    html = views.chunk_html(FP, "0123456789", 10, [Span(FP, 13, 16), Span("other.txt", 0, 99)])
    assert html == '<span class="muted">012</span><mark class="gold">345</mark><span class="muted">6789</span>'


def test_chunk_html_escapes_markup_and_what_markdown_would_read():
    html = views.chunk_html(FP, "<script>alert(1)</script> costs $5\r\nnext", 0, [Span(FP, 0, 8)])
    assert "<script>" not in html
    assert '<mark class="gold">&#60;script&#62;</mark>' in html
    assert "alert&#40;1&#41;&#60;&#47;script&#62;" in html
    assert "$" not in html and "&#36;5" in html
    assert "\r" not in html and "<br>next" in html


def _hit(text: str = "a<b>", path: str = FP, start: int = 0, score: float = 0.5) -> Hit:
    return Hit(Chunk(path, start, start + len(text), text), score)


@pytest.mark.parametrize(
    ("gold_doc", "cls", "badge"),
    [
        (True, "sac-hit ok", "✓ gold document"),
        (False, "sac-hit bad", "✗ wrong document"),
        (None, "sac-hit free sac-free", "document"),
    ],
)
def test_hit_card_marks_the_document(gold_doc, cls, badge):
    html = views.hit_card(3, _hit(score=0.12345), gold_doc, [])
    assert html.startswith(f'<div class="{cls}">')
    assert badge in html
    assert "<b>#3</b>" in html and "score 0.123" in html
    assert "a&#60;b&#62;" in html


def test_hit_card_escapes_the_path():
    html = views.hit_card(1, _hit(path='x/"><img src=x onerror=alert(1)>.txt'), False, [])
    assert "<img" not in html and "&#62;<img" not in html
    assert "&#60;img src&#61;x onerror&#61;alert&#40;1&#41;&#62;" in html
    assert 'title="x&#47;&#34;&#62;&#60;img' in html  # the attribute cannot be closed either


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "100.0%"),
        (0.0, "0.0%"),
        (1 / 3, "33.3%"),
        (0.5, "50.0%"),
        (0.15904, "15.9%"),
        (None, "—"),
        (float("nan"), "—"),
    ],
)
def test_fmt_pct(value, text):
    assert views.fmt_pct(value) == text


@pytest.mark.parametrize(
    ("value", "ref", "text"),
    [
        (0.2, 0.5, "-30.0 pts"),
        (0.5, 0.2, "+30.0 pts"),
        (0.3, 0.3, "±0 pts"),
        (0.3, 0.3004, "±0 pts"),
        (float("nan"), 0.2, None),
        (0.2, None, None),
    ],
)
def test_delta_pts(value, ref, text):
    assert views.delta_pts(value, ref) == text


@pytest.mark.parametrize(
    ("share", "label"),
    [(1.0, "found"), (0.9999999999, "found"), (0.4, "partly 40%"), (0.004, "partly 0%"), (0.0, "missed")],
)
def test_coverage_label(share, label):
    assert views.coverage_label(share) == label


def test_coverage_badges_classes_follow_the_label():
    html = views.coverage_badges({"Baseline": 0.0, "SAC <g>": 1.0, "SAC e": 0.5})
    assert '<span class="sac-badge missed">Baseline: missed</span>' in html
    assert '<span class="sac-badge found">SAC &#60;g&#62;: found</span>' in html
    assert '<span class="sac-badge partly">SAC e: partly 50&#37;</span>' in html


def test_context_window_clamps_to_the_document():
    assert views.context_window(100, Span(FP, 40, 50), 10) == (30, 60)
    assert views.context_window(100, Span(FP, 5, 95), 10) == (0, 100)


def test_gold_context_html_shows_the_span_with_context_and_ellipses():
    text = "aaaaaGOLDbbbbb"
    html = views.gold_context_html(text, Span(FP, 5, 9), [Span(FP, 5, 9)], context=2)
    assert html == (
        '<div class="sac-context">… <span class="muted">aa</span><mark class="gold">GOLD</mark>'
        '<span class="muted">bb</span> …</div>'
    )
    whole = views.gold_context_html(text, Span(FP, 5, 9), [Span(FP, 5, 9)], context=50)
    assert "…" not in whole


def test_summary_rows_put_gold_documents_first_then_retrieval_order():
    hits = {"Baseline": [_hit(path="b.txt"), _hit(path="g.txt")], "SAC": [_hit(path="g.txt"), _hit(path="c.txt")]}
    rows = views.summary_rows(frozenset({"g.txt"}), hits, {"SAC": {"g.txt": "G sum", "b.txt": "B sum"}})
    assert [r.file_path for r in rows] == ["g.txt", "b.txt", "c.txt"]
    assert [r.gold for r in rows] == [True, False, False]
    assert rows[0].retrieved_by == ("Baseline", "SAC")
    assert rows[1].retrieved_by == ("Baseline",)
    assert rows[1].summaries == (("SAC", "B sum"),)
    assert rows[2].summaries == (("SAC", None),)
    assert len(views.summary_rows(frozenset(), hits, {}, limit=2)) == 2


def test_a_free_text_question_marks_no_document_gold_or_not():
    hits = {"SAC": [_hit(path="g.txt"), _hit(path="c.txt")]}
    rows = views.summary_rows(None, hits, {"SAC": {"g.txt": "G sum"}})
    assert [r.gold for r in rows] == [None, None]
    html = views.summary_table(rows)
    assert "not gold" not in html and "✓" not in html and "✗" not in html
    assert html.count('<span class="sac-badge free">document</span>') == 2


def test_summary_table_escapes_summaries_and_paths():
    rows = [
        views.SummaryRow("<x>.txt", True, ("SAC",), (("SAC", "<script>bad()</script>"),)),
        views.SummaryRow("y.txt", False, (), (("SAC", None),)),
    ]
    html = views.summary_table(rows)
    assert "<script>" not in html and "&#60;script&#62;bad&#40;&#41;" in html
    assert "<code>&#60;x&#62;&#46;txt</code>" in html
    assert "<th>SAC</th>" in html and "<td>—</td>" in html
    assert views.summary_table([]) == ""


def test_boundaries_html_draws_chunks_overlap_gaps_and_gold():
    text = "abcdefghij"
    chunks = [Chunk(FP, 0, 4, "abcd"), Chunk(FP, 3, 7, "defg"), Chunk(FP, 8, 10, "ij")]
    html = views.boundaries_html(text, chunks, [Span(FP, 5, 9)], 0, 10)
    assert html == (
        '<div class="sac-doc">'
        '<sup class="cno">1</sup><span class="c0">abc</span>'
        '<sup class="cno">2</sup><span class="overlap">d</span>'
        '<span class="c1">e</span>'
        '<span class="sac-anchor" id="sac-gold-5"></span><span class="c1 gold">fg</span>'
        '<span class="gap gold">h</span>'
        '<sup class="cno">3</sup><span class="c0 gold">i</span>'
        '<span class="c0">j</span>'
        "</div>"
    )


def test_boundaries_html_window_and_escaping():
    text = "<b>1</b>\n$2 xyz"
    chunks = [Chunk(FP, 0, 8, text[:8]), Chunk(FP, 9, 15, text[9:15])]
    html = views.boundaries_html(text, chunks, [], 9, 15)
    assert html == '<div class="sac-doc"><sup class="cno">2</sup><span class="c1">&#36;2 xyz</span></div>'
    full = views.boundaries_html(text, chunks, [], 0, len(text))
    assert "<b>" not in full and "&#60;b&#62;1&#60;&#47;b&#62;" in full and "<br>" in full


def test_a_gold_span_has_an_anchor_to_jump_to_and_the_link_escapes_its_text():
    text = "abcdefghij"
    chunks = [Chunk(FP, 0, 10, text)]
    html = views.boundaries_html(text, chunks, [Span(FP, 2, 6), Span(FP, 4, 8)], 0, 10)
    assert html.count('class="sac-anchor"') == 2  # one per gold span, though they overlap
    assert f'id="{views.gold_anchor(2)}"' in html and f'id="{views.gold_anchor(4)}"' in html
    link = views.jump_link(views.gold_anchor(4), "↓ gold span <b>2</b>")
    assert link.startswith('<a class="sac-jump" href="#sac&#45;gold&#45;4">')  # "#sac-gold-4" to a browser
    assert link.endswith(">↓ gold span &#60;b&#62;2&#60;&#47;b&#62;</a>")


def test_chunk_range_around_starts_a_little_before_the_span():
    chunks = [Chunk(FP, i * 10, i * 10 + 10, "x" * 10) for i in range(10)]
    assert views.chunk_range_around(chunks, Span(FP, 55, 60)) == 3  # chunk 5 holds it, two earlier
    assert views.chunk_range_around(chunks, Span(FP, 5, 6)) == 0
    assert views.chunk_range_around(chunks, Span(FP, 500, 501)) == 9


def test_trimmed_hit_card_shows_the_kept_text_and_greys_what_was_cut():
    # chunk [0, 20) "aaaaa<bbbbbbbbb>cccc" trimmed to [5, 16); gold [3, 8) spans the cut and the kept text
    source = Chunk(FP, 0, 20, "aaaaa<bbbbbbbbb>cccc")
    hit = Hit(Chunk(FP, 5, 16, "<bbbbbbbbb>"), 0.5)
    html = views.trimmed_hit_card(2, hit, source, True, [Span(FP, 3, 8)])
    assert html.count('class="sac-hit ok"') == 1 and "<b>#2</b>" in html
    assert "trimmed: 11 of 20 characters" in html
    cut = '<span class="sac-cut" style="color:#9ca3af;opacity:0.7" title="cut by trimming">'
    assert html.count(cut) == 2
    before = f'{cut}<span class="muted">aaa</span><mark class="gold">aa</mark></span>'  # gold marked in the cut
    kept = '<mark class="gold">&#60;bb</mark><span class="muted">bbbbbbb&#62;</span>'  # and in the kept text
    after = f'{cut}<span class="muted">cccc</span></span>'
    assert f"{before}{kept}{after}</div>" in html
    assert "<bbb" not in html  # escaped


def test_hit_cards_use_the_trimmed_card_only_for_trimmed_hits():
    hits = [Hit(Chunk(FP, 5, 16, "<bbbbbbbbb>"), 0.5), _hit("plain", start=30)]
    cut = [Chunk(FP, 0, 20, "aaaaa<bbbbbbbbb>cccc"), None]  # as the search result carries it
    cards = views.hit_cards(hits, [True, False], [], trimmed_from=cut)
    assert "trimmed:" in cards[0] and "trimmed:" not in cards[1]
    assert "document" in views.hit_cards(hits, None, [], trimmed_from=cut)[1]
    assert not any("trimmed:" in c for c in views.hit_cards(hits, [True, False], []))  # nothing trimmed


def test_prompt_html_is_escaped_wrapped_text():
    out = views.prompt_html("Summarise <b>{document}</b> in *one* line.")
    assert out.startswith('<div class="sac-prompt">') and out.endswith("</div>")
    assert "<b>" not in out and "*one*" not in out  # no markup, no Markdown
    assert html.unescape(out) == '<div class="sac-prompt">Summarise <b>{document}</b> in *one* line.</div>'
