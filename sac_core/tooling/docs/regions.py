"""Marked regions of hand-written files, the parts ``sac docs`` owns: in Markdown
``<!-- generated: NAME -->`` … ``<!-- /generated -->``, in YAML ``# generated: NAME`` … ``# /generated``
(each marker on a line of its own). Everything outside them is left as written."""

from __future__ import annotations

import re
from collections.abc import Callable

_MARKDOWN = re.compile(r"(<!-- generated: ([\w:.@-]+) -->\n)(.*?)(<!-- /generated -->)", re.S)
_YAML = re.compile(r"(# generated: ([\w:.@-]+)\n)(.*?)(# /generated)", re.S)


def _pattern(path: str) -> re.Pattern[str]:
    return _YAML if path.endswith((".yml", ".yaml")) else _MARKDOWN


def regions(path: str, text: str) -> dict[str, str]:
    """The regions of ``text`` (of a file named ``path``) by name: their bodies as written."""
    return {m.group(2): m.group(3) for m in _pattern(path).finditer(text)}


def fill(path: str, text: str, render: Callable[[str], str]) -> str:
    """``text`` with each region's body replaced by ``render(name)`` (a final newline added)."""

    def body(match: re.Match[str]) -> str:
        new = render(match.group(2))
        return match.group(1) + new + ("\n" if new and not new.endswith("\n") else "") + match.group(4)

    return _pattern(path).sub(body, text)


def empty(name: str, *, yaml: bool = False) -> str:
    """An empty region named ``name``, for a new page."""
    return f"# generated: {name}\n# /generated" if yaml else f"<!-- generated: {name} -->\n<!-- /generated -->"
