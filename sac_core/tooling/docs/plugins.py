"""Pages of the registered plug-ins (:data:`~sac_core.experiments.METHODS` and
:data:`~sac_core.experiments.STAGES`): each has ``docs/methods/<name>.md`` — or, for plug-ins that
share a module (the document-aware signals), one page ``docs/methods/<module>.md`` for all of them —
hand-written around a generated options table per plug-in read from its ``Options`` dataclass
(field, type, default and its help: the field's ``option(help=…)``, else the comment after it)."""

from __future__ import annotations

import ast
import inspect
import io
import re
import tokenize
from dataclasses import MISSING, dataclass, fields
from typing import Any

from ...experiments import METHODS, STAGES
from ...experiments.settings import help_of
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
    page: str  # methods/<name>.md, or methods/<module>.md for the plug-ins of one module


def plugins() -> list[Plugin]:
    """Every registered method, then every stage, in registry order."""
    items = [(kind, item) for kind, registry in (("method", METHODS), ("stage", STAGES)) for item in registry]
    modules = [type(item).__module__ for _, item in items]
    out = []
    for (kind, item), module_name in zip(items, modules):
        module = inspect.getmodule(type(item))
        doc = inspect.cleandoc(module.__doc__ or "") if module else ""
        summary = markdown_of(doc.split("\n\n")[0].replace("\n", " "))
        shared = modules.count(module_name) > 1
        page = f"methods/{module_name.rsplit('.', 1)[-1] if shared else item.name}.md"
        out.append(Plugin(item.name, kind, item.title or item.name, summary, item.Options, page))
    return out


def pages() -> dict[str, list[Plugin]]:
    """Each plug-in page with the plug-ins it documents, in registry order."""
    out: dict[str, list[Plugin]] = {}
    for plugin in plugins():
        out.setdefault(plugin.page, []).append(plugin)
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
        [f"`{plugin.name}.{f.name}`", f"`{f.type}`", _default(f), help_of(f) or comments.get(f.name, "")]
        for f in fields(plugin.options)
    ]
    usage = (
        f'Set in a sweep file as `"{plugin.name}.<option>" = value`, on the command line as '
        f"`--option {plugin.name}.<option>=value`."
    )
    return [*table(["option", "type", "default", "meaning"], rows), "", usage]


def plugins_table() -> list[str]:
    """Every plug-in with a link to its page: the Methods index."""
    rows = [[f"[{p.title}]({p.page.removeprefix('methods/')})", f"`{p.name}`", p.kind, p.summary] for p in plugins()]
    return table(["plug-in", "name", "kind", "what it does"], rows)


def skeleton(documented: list[Plugin]) -> str:
    """A new plug-in page: the first plug-in's title and docstring, each plug-in's generated options; the rest to be written."""
    first = documented[0]
    options = [
        line for plugin in documented for line in (f"### `{plugin.name}`", "", empty(f"options:{plugin.name}"), "")
    ]
    if len(documented) == 1:
        options = [empty(f"options:{first.name}"), ""]
    return "\n".join(
        [
            f"# {first.title}",
            "",
            first.summary,
            "",
            "## Options",
            "",
            *options,
            "## Results",
            "",
            "No committed results yet.",
            "",
        ]
    )
