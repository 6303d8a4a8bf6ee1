"""The one rule for untrusted text: it is rendered as text, never as HTML or Markdown.

Untrusted means anything the app did not write itself: document text, summaries, queries, URL
parameters, file and dataset names, paths and error messages. Streamlit reads Markdown almost
everywhere (``st.markdown``, captions, labels, ``st.error`` …), and inside
``st.markdown(..., unsafe_allow_html=True)`` a blank line ends the HTML block, after which
Markdown applies again. So:

- **inside an HTML fragment** use :func:`esc`: ``& < > " '`` and every other ASCII character
  Markdown gives a meaning to become numeric character references, and line breaks become
  ``<br>``, so the fragment has no blank line and no Markdown syntax, wherever it ends up;
- **wherever Streamlit reads Markdown** (labels, captions, titles, ``st.error``/``warning``/
  ``info``, ``st.markdown`` without HTML, progress and spinner texts) use :func:`md`: every ASCII
  punctuation character is backslash-escaped and control characters are shown as escapes
  (``\\n``), so a name like ``[x](javascript:…)`` reads exactly so;
- **in a Plotly figure** (legend names, titles, hover and marker texts), which reads a small HTML
  subset, use :func:`svg_text`; never put untrusted text into a ``hovertemplate``;
- plain-text elements (``st.dataframe``, ``st.code``, ``st.text``, option lists) need nothing.

Both also break what GitHub-flavoured Markdown turns into a link by itself (``http://…``,
``www.…``, ``name@host.tld``; Streamlit opens such links in a new tab): it finds them in the text
*after* escapes and character references are decoded, so neither helps. A WORD JOINER (U+2060,
invisible, no line break) goes between ``:`` and ``//``, between ``www`` and ``.`` and after
``@``; the text looks the same and no autolink pattern matches it.

Error messages keep the file name exactly as it is: ``md(str(error))``.

Inside HTML, :func:`esc` also puts a ZERO WIDTH SPACE after every non-breaking space (U+00A0, U+2007,
U+202F): contracts join whole phrases with them ("in the Agreement" as one unbreakable run), and a
run wider than a narrow column was broken inside a word ("in t|he"). The characters stay as they
are; a line may now end after one.
"""

from __future__ import annotations

import html
import re
import string

# HTML's own five, Markdown's punctuation, "$" (Streamlit reads LaTeX between dollars) and ":" (emoji
# and ":red[...]" directives, "javascript:" autolinks): each becomes a numeric character reference.
_HTML_SAFE: dict[int, str | None] = {ord(c): f"&#{ord(c)};" for c in string.punctuation}
_HTML_SAFE.update({ord("\r"): None, ord("\n"): "<br>", 0: "\ufffd"})  # NUL: what browsers show for it

_CONTROL = {i: f"\\x{i:02x}" for i in (*range(0x20), *range(0x7F, 0xA0))}  # C0, DEL and C1
_CONTROL.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


WORD_JOINER = "\u2060"  # zero width, no line break: splits an autolink pattern without a visible trace
_AUTOLINK_SPLITS = re.compile(r"(?<=:)(?=//)|(?i:(?<=www)(?=\.))|(?<=@)")


def unlink(text: str) -> str:
    """``text`` with a WORD JOINER wherever GFM would start an autolink (``://``, ``www.``, ``@``)."""
    return _AUTOLINK_SPLITS.sub(WORD_JOINER, text)


ZERO_WIDTH_SPACE = "\u200b"  # invisible; a place a line may break
# after + : / , _ · (a character following); inside a word, where a small letter meets a capital
# (DisclosureAgreement) and before a file's extension (Agreement|.txt)
_PARTS = re.compile(r"(?<=[+:/,_·])(?=\S)|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\.[A-Za-z])")


def breakable(text: object) -> str:
    """``text`` with a ZERO WIDTH SPACE after each ``+ : / , _ ·`` that a character follows, between a
    small letter and a capital and before a dot between letters, so that a long identifier
    (``baseline+split+doc:summary300×8``, a path such as ``IPTK-CO-MutualNon-DisclosureAgreement.txt``,
    a model name) wraps at its parts in a narrow column rather than in the middle of a word, or not
    at all. Escape it afterwards."""
    return _PARTS.sub(ZERO_WIDTH_SPACE, str(text))


_NO_BREAK = re.compile("([\u00a0\u2007\u202f])(?=\\S)")  # a non-breaking space before a character


def esc(text: object) -> str:
    """``text`` for the inside of an HTML element: escaped for HTML and Markdown, lines as ``<br>``,
    a line break allowed after a non-breaking space (see the module docstring)."""
    raw = str(text).replace("\r\n", "\n").replace("\r", "\n")
    return _NO_BREAK.sub("\\1" + ZERO_WIDTH_SPACE, unlink(raw)).translate(_HTML_SAFE)


def esc_attr(text: object) -> str:
    """``text`` for an HTML attribute value (in double quotes): escaped, line breaks as spaces."""
    return str(text).replace("\r", " ").replace("\n", " ").translate(_HTML_SAFE)  # no text node: no autolink


def svg_text(text: object) -> str:
    """``text`` for a Plotly label: HTML-escaped (Plotly reads ``<a href>``, ``<b>``, ``<br>`` …),
    line breaks as spaces."""
    return html.escape(str(text).replace("\r", " ").replace("\n", " "), quote=True)


def md(text: object) -> str:
    """``text`` for a place where Streamlit reads Markdown: shown exactly, read as nothing.

    Backslash before every ASCII punctuation character (CommonMark allows exactly these), control
    characters as visible escapes (``\\n``), leading spaces as references (four would start a code
    block), no autolink (:func:`unlink`); the result is one line.
    """
    raw = unlink(str(text))
    body = raw.strip()
    lead = raw[: len(raw) - len(raw.lstrip())]
    trail = raw[len(lead) + len(body) :]
    out = [_reference(ch) for ch in lead]  # Markdown trims (and four spaces indent) edge whitespace
    for ch in body:
        code = ord(ch)
        if code in _CONTROL:
            out.append("\\" + _CONTROL[code])  # an escaped backslash, then e.g. "n"
        elif ch in string.punctuation:
            out.append("\\" + ch)
        else:
            out.append(ch)
    out.extend(_reference(ch) for ch in trail)
    return "".join(out)


def _reference(ch: str) -> str:
    """A whitespace character at the edge of a line as Markdown keeps it: a visible escape for a
    control character, a numeric reference for the rest."""
    return "\\" + _CONTROL[ord(ch)] if ord(ch) in _CONTROL else f"&#{ord(ch)};"
