"""Pages of the registered plug-ins (:data:`~sac_core.experiments.METHODS` and
:data:`~sac_core.experiments.STAGES`): each has ``docs/methods/<name>.md``, hand-written around a
generated options table read from its ``Options`` dataclass (field, type, default and the comment
that follows the field in the source)."""

from __future__ import annotations

import ast
import inspect
import io
import re
import tokenize
from dataclasses import MISSING, dataclass, fields
from typing import Any

from ...experiments import METHODS, STAGES
from .blocks import table
from .regions import empty


@dataclass(frozen=True)
class Plugin:
    """A registered method or stage as its page shows it."""

    name: str
    kind: str  # "method" or "stage"
    title: str
    summary: str  # the first paragraph of its module's docstring
    options: type | None

    @property
    def page(self) -> str:
        return f"methods/{self.name}.md"


def plugins() -> list[Plugin]:
    """Every registered method, then every stage, in registry order."""
    out = []
    for kind, registry in (("method", METHODS), ("stage", STAGES)):
        for item in registry:
            module = inspect.getmodule(type(item))
            doc = inspect.cleandoc(module.__doc__ or "") if module else ""
            summary = markdown_of(doc.split("\n\n")[0].replace("\n", " "))
            out.append(Plugin(item.name, kind, item.title or item.name, summary, item.Options))
    return out


_ROLE = re.compile(r":\w+:`(~?)([^`]+)`")


def markdown_of(text: str) -> str:
    """reStructuredText of a docstring as Markdown: ````code```` → ```code```, ``:mod:`~a.b``` → ```b```."""
    text = _ROLE.sub(lambda m: f"`{m.group(2).split('.')[-1] if m.group(1) else m.group(2)}`", text)
    return text.replace("``", "`")


def field_comments(cls: type) -> dict[str, str]:
    """``field → the comment on its line`` in the class's source (empty when it has none)."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    source = _dedent(source)
    comments = {
        tok.start[0]: tok.string.lstrip("#").strip()
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    }
    out = {}
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = comments.get(node.end_lineno or node.lineno, "")
    return out


def _dedent(source: str) -> str:
    lines = source.splitlines()
    indent = len(lines[0]) - len(lines[0].lstrip())
    return "\n".join(line[indent:] for line in lines)


def _default(f: Any) -> str:
    if f.default is not MISSING:
        return f"`{f.default!r}`"
    return "(computed)" if f.default_factory is not MISSING else "(required)"


def options_table(plugin: Plugin) -> list[str]:
    """The options of ``plugin`` as a Markdown table (``<name>.<field>``, type, default, meaning)."""
    if plugin.options is None:
        return [
            f"`{plugin.name}` has no options of its own: the run's settings configure it (chunker, chunk size, "
            "model, backend, semantic weight, summaries; see [`sac evaluate`](../cli/sac-evaluate.md))."
        ]
    comments = field_comments(plugin.options)
    rows = [
        [f"`{plugin.name}.{f.name}`", f"`{f.type}`", _default(f), comments.get(f.name, "")]
        for f in fields(plugin.options)
    ]
    usage = (
        f'Set in a sweep file as `"{plugin.name}.<option>" = value`, on the command line as '
        f"`--option {plugin.name}.<option>=value`."
    )
    return [*table(["option", "type", "default", "meaning"], rows), "", usage]


def plugins_table() -> list[str]:
    """Every plug-in with a link to its page: the Methods index."""
    rows = [[f"[{p.title}]({p.name}.md)", f"`{p.name}`", p.kind, p.summary] for p in plugins()]
    return table(["plug-in", "name", "kind", "what it does"], rows)


def skeleton(plugin: Plugin) -> str:
    """A new plug-in's page: its docstring, its generated options; the rest to be written."""
    return "\n".join(
        [
            f"# {plugin.title}",
            "",
            plugin.summary,
            "",
            "## Options",
            "",
            empty(f"options:{plugin.name}"),
            "",
            "## Results",
            "",
            "No committed results yet.",
            "",
        ]
    )
