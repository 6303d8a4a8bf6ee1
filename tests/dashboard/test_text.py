"""The one rule for untrusted text, checked with a real CommonMark parser (markdown-it-py, with raw
HTML on, as Streamlit's ``unsafe_allow_html``) on hand-made attacks and on Hypothesis's arbitrary text.

Properties: whatever the text, the rendered output has exactly the tags the app put there, and
shows the text itself, character for character.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from sac_core.dashboard import views
from sac_core.dashboard.text import WORD_JOINER, ZERO_WIDTH_SPACE, breakable, esc, esc_attr, md, svg_text
from sac_core.engine.chunking import Chunk
from sac_core.engine.data import Span
from sac_core.engine.retrieval import Hit

MARKDOWN = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
# GitHub-flavoured Markdown's autolink literals (mdast-util-gfm-autolink-literal, which Streamlit's
# remark-gfm runs on the decoded text of every text node): a URL, a www. host or an e-mail address.
GFM_AUTOLINKS = (
    re.compile(r"(https?://|www(?=\.))([-.\w]+)([^ \t\r\n]*)", re.IGNORECASE),
    re.compile(r"([-.\w+]+)@([-\w]+(?:\.[-\w]+)+)"),
    re.compile(r"(mailto|xmpp):[-.\w+]+@[-\w]", re.IGNORECASE),
)
LINKS = [
    "http://evil.example/x",
    "HTTPS://Evil.Example",
    "see www.evil.com now",
    "WwW.evil.com",
    "wwww.evil.com",
    "mail boss@evil.com",
    "mailto:boss@evil.com",
    "/srv/data/http://x/www.y",
    "a@b.c@d.e",
]
ATTACKS = [
    "governing law\n\n![t](http://127.0.0.1:9/track.png)\n\n[y](https://example.com/phish)\n\n# Injected heading",
    "[x](javascript:alert(1))",
    '<script>alert("pwned")</script><img src=x onerror=alert(1)>',
    "**bold** _em_ `code` ~~del~~ <b>b</b> $x^2$ :red[red] :material/home: www.example.com https://x.y",
    "    indented code\r\n\r\n> quote\n- item\n1. one\n| a | b |\n|---|---|\n---\n===",
    "&amp; &#60; \\*escaped\\* <!-- comment --> <?php ?> <![CDATA[x]]>",
]
# Any text, including the characters Markdown and HTML care about and every kind of line break.
TEXT = st.text(
    alphabet=st.one_of(st.sampled_from(list("\n\r\t #*_`[]()!<>&;:/\\$|~-+=.'\"{}@%^")), st.characters()),
    max_size=200,
)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def shown(self) -> str:
        """The text a reader sees (without the line break the renderer adds after each block, and
        without the invisible word joiners that keep GFM from autolinking)."""
        return self.raw.replace(WORD_JOINER, "")

    @property
    def raw(self) -> str:
        """The decoded text nodes as the browser (and GFM's autolink finder) gets them."""
        return "".join(self.text).removesuffix("\n")


def parsed(fragment: str) -> _Tags:
    tags = _Tags()
    tags.feed(MARKDOWN.render(fragment))
    return tags


def _shown(text: str) -> str:
    """What a reader should see of ``text`` in an HTML block: its lines joined by line breaks (and
    NUL as U+FFFD, as CommonMark and browsers show it), a place to break after a non-breaking space
    that a character follows (an invisible ZERO WIDTH SPACE, issue 41)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd").replace(WORD_JOINER, "")
    return re.sub("([\u00a0\u2007\u202f])(?=\\S)", "\\1\u200b", lines)


def test_a_run_of_words_joined_by_non_breaking_spaces_may_wrap_between_them() -> None:
    """Issue 41: on real data, text joined by non-breaking spaces broke inside words ("in t|he")."""
    assert esc("in\u00a0the\u00a0Agreement") == "in\u00a0\u200bthe\u00a0\u200bAgreement"
    assert esc("1\u202f000 \u00a0 x") == "1\u202f\u200b000 \u00a0 x"  # before a space: nothing to add


@pytest.mark.parametrize("attack", ATTACKS)
def test_hand_made_attacks_stay_text_inside_html(attack: str) -> None:
    out = parsed(f'<div class="x">{esc(attack)}</div>')
    assert set(out.tags) <= {"div", "br"}, out.tags
    assert out.shown == _shown(attack).replace("\n", "")
    assert out.tags.count("br") == _shown(attack).count("\n")


@pytest.mark.parametrize("attack", ATTACKS)
def test_hand_made_attacks_stay_text_as_markdown(attack: str) -> None:
    out = parsed(md(attack))
    assert out.tags == ["p"], out.tags
    assert out.shown == _visible(attack)


def _autolinks(text: str) -> list[str]:
    return [m.group(0) for pattern in GFM_AUTOLINKS for m in pattern.finditer(text)]


@pytest.mark.parametrize("text", LINKS)
def test_urls_hosts_and_addresses_never_become_links(text: str) -> None:
    """GFM links these in the decoded text, whatever escapes the Markdown source used; the rule
    breaks the pattern with an invisible word joiner, so the text reads the same and links nowhere."""
    assert _autolinks(text), text  # the check would see a link here
    for rendered in (md(text), f'<div class="x">{esc(text)}</div>'):
        out = parsed(rendered)
        assert "a" not in out.tags
        assert not _autolinks(out.raw), (text, out.raw)
        assert out.shown == text


def _visible(text: str) -> str:
    """``text`` as md() shows it: control characters as escapes, the rest unchanged (but word joiners,
    which :attr:`_Tags.shown` leaves out as invisible: hypothesis found a text of one)."""
    text = text.replace(WORD_JOINER, "")
    names = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return "".join(names.get(c, f"\\x{ord(c):02x}") if ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 else c for c in text)


@settings(max_examples=1500, deadline=None)
@given(TEXT)
def test_esc_never_lets_html_or_markdown_through(text: str) -> None:
    out = parsed(f'<div class="x">{esc(text)}</div>')
    assert set(out.tags) <= {"div", "br"}
    assert out.tags.count("div") == 1 and not out.attrs[1:]
    assert out.shown == _shown(text).replace("\n", "")


@settings(max_examples=1500, deadline=None)
@given(TEXT)
def test_md_shows_the_text_exactly_and_nothing_else(text: str) -> None:
    rendered = md(text)
    assert "\n" not in rendered and "\r" not in rendered
    assert "://" not in rendered and "www." not in rendered.lower()  # GFM autolinks need these unescaped
    out = parsed(rendered)
    if text == "":
        assert out.tags == []
        return
    assert out.tags == ["p"], (text, out.tags)
    assert out.shown == _visible(text), text
    assert not _autolinks(out.raw), text


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(["http", "s", "://", "www", "WWW", ".", "@", "a", "-", "mailto:", " ", "/"]), max_size=12)
)
def test_no_autolink_survives_either_rule(parts: list[str]) -> None:
    text = "".join(parts)
    for rendered in (md(text), f'<div class="x">{esc(text)}</div>'):
        assert not _autolinks(parsed(rendered).raw), text


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_attributes_cannot_be_closed(text: str) -> None:
    out = parsed(f'<div class="x"><code title="{esc_attr(text)}">y</code></div>')
    assert out.tags == ["div", "code"]
    assert dict(out.attrs)["title"] == re.sub(r"[\r\n]", " ", text).replace("\x00", "\ufffd")


@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_svg_text_is_plain_for_plotly(text: str) -> None:
    escaped = svg_text(text)
    assert "<" not in escaped and ">" not in escaped and '"' not in escaped
    assert html.unescape(escaped) == re.sub(r"[\r\n]", " ", text)


def _fragments(path: str, chunk: str, summary: str) -> dict[str, str]:
    hit = Hit(Chunk(path, 0, len(chunk), chunk), 0.5)
    return {
        "hit": views.hit_card(1, hit, False, [Span(path, 0, 1)]),
        "query": views.query_html(path, chunk),
        "summary": views.summary_box_html(summary),
        "summaries": views.summary_table([views.SummaryRow(path, True, (chunk,), ((chunk, summary),))]),
    }


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT, TEXT)
def test_view_fragments_keep_their_own_tags_whatever_the_text(path: str, chunk: str, summary: str) -> None:
    """The same fragments with every character replaced by "a" (same lengths) have the same tags."""
    plain = _fragments(*("a" * len(t) for t in (path, chunk, summary)))
    for name, fragment in _fragments(path, chunk, summary).items():
        got = [t for t in parsed(fragment).tags if t != "br"]
        want = [t for t in parsed(plain[name]).tags if t != "br"]
        assert got == want, (name, got, want)


def test_breakable_lets_identifiers_wrap_at_their_parts_and_shows_the_same():
    variant = "baseline+split+doc:summary300×8+bm25×0.125"
    wrapped = breakable(variant)
    assert wrapped.replace(ZERO_WIDTH_SPACE, "") == variant
    assert wrapped.split(ZERO_WIDTH_SPACE) == ["baseline+", "split+", "doc:", "summary300×8+", "bm25×0.125"]
    assert breakable("/srv/data/legalbench-rag/") == "/\u200bsrv/\u200bdata/\u200blegalbench-rag/"
    assert breakable("a + b") == "a + b"  # a space already breaks there
    name = "contractnli/IPTK-CO-MutualNon-DisclosureAgreement.txt"  # broke as DisclosureAgreement.t|xt (issue 41)
    assert breakable(name).split(ZERO_WIDTH_SPACE) == [
        "contractnli/", "IPTK-CO-Mutual", "Non-Disclosure", "Agreement", ".txt"]  # fmt: skip
    assert breakable("0.5") == "0.5"  # a number keeps its dot
