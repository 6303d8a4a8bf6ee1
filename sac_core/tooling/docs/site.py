"""``sac docs``: every generated file and region of the README and the documentation site, made from
``results/``, the plug-in registries and the click commands; written, or compared (``--check``).

Owned outright (rewritten whole, stale files removed): ``docs/results/<sweep>.md``,
``docs/cli/sac-*.md`` and ``docs/figures/*.svg``. Hand-written files (``README.md``, the other
pages under ``docs/``, ``mkdocs.yml``) are read and only their marked regions (:mod:`.regions`)
are rewritten; a registered plug-in without a page gets one (:func:`.plugins.skeleton`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .blocks import Block, Row, pick, render_csv, render_lbr, render_means, render_text
from .catalogue import BLOCKS, NAV
from .commands import command_pages, commands_table, page
from .figures import means_figure
from .plugins import Plugin, options_table, pages, plugins, plugins_table, skeleton
from .regions import fill, regions
from .results import DocsError, Results
from .sweep_notes import SECTIONS
from .sweep_pages import figure_name, sweep_page, sweeps_table
from .whole import render_datasets, render_pairs, render_published, render_shift, render_shift_text

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

OWNED = ("docs/results/", "docs/cli/sac-", "docs/figures/")
HAND = ("README.md", "mkdocs.yml")


def owned(path: str) -> bool:
    """Whether ``sac docs`` writes the file at ``path`` whole (a section's ``index.md`` is hand-written)."""
    return path.startswith(OWNED) and not path.endswith("/index.md")


@dataclass(frozen=True)
class Site:
    """What ``sac docs`` makes: every managed file's content, and each region's body by file."""

    files: dict[str, str]
    regions: dict[str, dict[str, str]]


def generate(project: Path, commands: click.Group, results_dir: Path | None = None) -> Site:
    """Every generated file and region, from ``results_dir`` (default ``<project>/results``)."""
    project = Path(project)
    results = Results(project / "results") if results_dir is None else Results(results_dir, str(results_dir))
    files: dict[str, str] = {}
    blocks = {b.name: b for b in BLOCKS}
    for name in results.sweep_names():
        sections = [(s.title, s.text, render_block(blocks[s.block], results, "../", files) if s.block else "")
                    for s in SECTIONS.get(name, ())]  # fmt: skip
        text, figure = sweep_page(results.sweep(name), project / "sweeps", sections)
        files[f"docs/results/{name}.md"] = text
        if figure is not None:
            files[f"docs/{figure_name(name)}"] = figure
    files.update({f"docs/{path}": text for path, text in command_pages(commands).items()})
    hand = {path: (project / path).read_text(encoding="utf-8") for path in _hand_pages(project)}
    for page_name, documented in pages().items():
        hand.setdefault(f"docs/{page_name}", skeleton(documented))
    found: dict[str, dict[str, str]] = {}
    for path, text in hand.items():
        render = _renderer(path, results, commands, files)
        files[path] = fill(path, text, render)
        found[path] = regions(path, files[path])
    return Site(files, found)


def _hand_pages(project: Path) -> list[str]:
    pages = [p for p in HAND if (project / p).is_file()]
    for path in sorted((project / "docs").rglob("*.md")):
        relative = path.relative_to(project).as_posix()
        if not owned(relative):
            pages.append(relative)
    return pages


def _renderer(path: str, results: Results, commands: click.Group, files: dict[str, str]) -> Callable[[str], str]:
    depth = path.count("/") - (1 if path.startswith("docs/") else 0)
    to_docs = "../" * depth if path.startswith("docs/") else "docs/"
    blocks = {b.name: b for b in BLOCKS}

    def render(name: str) -> str:
        kind, _, arg = name.partition(":")
        if name in blocks:
            return render_block(blocks[name], results, to_docs, files)
        if kind == "options":
            found = [p for p in plugins() if p.name == arg]
            if not found:
                raise DocsError(f"{path}: region {name!r} names no registered plug-in")
            return "\n".join(options_table(found[0]))
        simple = {"plugins": plugins_table, "commands": lambda: commands_table(commands)}
        if name in simple:
            return "\n".join(simple[name]())
        if name == "sweeps":
            return "\n".join(sweeps_table(results))
        if name == "nav":
            return nav(results, commands)
        raise DocsError(f"{path}: region {name!r} is no block (see sac_core/tooling/docs/catalogue.py)")

    return render


KINDS = {"means": render_means, "lbr": render_lbr, "csv": render_csv, "text": render_text,
         "datasets": render_datasets, "pairs": render_pairs, "shift": render_shift, "shift-text": render_shift_text,
         "published": render_published}  # fmt: skip


QUIET = ("shift-text",)  # kinds that show nothing while pending: a sentence under a table that says so
REFERENCE = ("pairs", "shift", "shift-text")  # kinds whose first row is what the others are measured by


def render_block(block: Block, results: Results, to_docs: str, files: dict[str, str]) -> str:
    """A block's Markdown (a figure's SVG put in ``files``); its pending note while its folder is
    missing; while the folder holds only some of its rows, those rows and a note naming the others."""
    if block.pending and not results.has(block.folder):
        return "" if block.kind in QUIET else pending_note(block)
    if not (block.pending and block.rows):
        return _render(block, results, to_docs, files)
    shown, missing = computed(block, results)
    if not missing:
        return _render(block, results, to_docs, files)
    note = missing_note(block, missing)
    without_reference = block.kind in REFERENCE and block.rows[0] not in shown.rows
    if without_reference and shown.rows:
        note += f" This block measures every row against {block.rows[0].label}: it shows none before that one."
    if not shown.rows or without_reference or (block.kind == "pairs" and len(shown.rows) < 2):
        return "" if block.kind in QUIET else note
    body = _render(shown, results, to_docs, files)
    return body if block.kind in QUIET else f"{body}\n\n{note}"


def computed(block: Block, results: Results) -> tuple[Block, tuple[str, ...]]:
    """``block`` with only the rows whose cell its folder holds (a sweep run in part: the others not
    computed yet), its ``against`` rows kept in step; and the labels of the rows left out. Rows read
    from another folder are kept: they must exist."""
    cells = results.sweep(block.folder).table.drop_duplicates("cell")
    keep = [i for i, row in enumerate(block.rows) if row.folder not in ("", block.folder) or _holds(cells, row)]
    missing = tuple(row.label for i, row in enumerate(block.rows) if i not in keep)
    against = tuple(block.against[i] for i in keep) if block.against else ()
    return replace(block, rows=tuple(block.rows[i] for i in keep), against=against), missing


def _holds(cells: pd.DataFrame, row: Row) -> bool:
    found = cells[cells["variant"] == row.variant]
    for column, value in row.where:
        found = found[found[column] == value] if column in found.columns else found.iloc[:0]
    return len(found) > 0


def missing_note(block: Block, missing: Sequence[str]) -> str:
    """What a block of a sweep run in part says under the rows it has: which rows are not computed yet, and how."""
    them = "it" if len(missing) == 1 else "them"
    return (
        f"*Not computed yet:* {'; '.join(missing)}. `results/{block.folder}` holds no cell of {them} yet: "
        f"`{block.pending}` computes {them} (the cells already there are reused), then `sac docs` adds {them} here."
    )


def _render(block: Block, results: Results, to_docs: str, files: dict[str, str]) -> str:
    if block.kind == "figure":
        files[f"docs/figures/{block.name}.svg"] = means_figure(pick(block, results))
        return f"![{block.caption}]({to_docs}figures/{block.name}.svg)"
    kinds = KINDS
    if block.kind not in kinds:
        raise DocsError(f"block {block.name!r}: unknown kind {block.kind!r} (one of figure, {', '.join(kinds)})")
    return "\n".join(kinds[block.kind](block, results))


def pending_note(block: Block) -> str:
    """What a block whose folder does not exist yet shows: that it was not run, and how to run it."""
    return (
        f"*Not run yet:* `results/{block.folder}` does not exist. `{block.pending}`, then `sac docs`, "
        "fills this place from it."
    )


def _group_title(documented: list[Plugin]) -> str:
    """The nav title of a page of several plug-ins: their module docstring's first sentence, cut at its colon."""
    return documented[0].summary.split(",")[0].split(":")[0].removeprefix("The ").capitalize()


def nav(results: Results, commands: click.Group) -> str:
    """The ``nav`` of mkdocs.yml: :data:`.catalogue.NAV`, with the generated sections filled in."""
    generated = {
        "@methods": [
            (documented[0].title if len(documented) == 1 else _group_title(documented), page_name)
            for page_name, documented in pages().items()
        ],
        "@results": [(name, f"results/{name}.md") for name in results.sweep_names()],
        "@cli": [(f"sac {name}", page(name)) for name in commands.list_commands(click.Context(commands))],
    }
    lines = ["nav:"]
    for title, target in NAV:
        if isinstance(target, str):
            lines.append(f"  - {json.dumps(title)}: {target}")
            continue
        lines.append(f"  - {json.dumps(title)}:")
        for entry in target:
            for label, where in generated.get(entry, [("", entry)]):
                lines.append(
                    f"      - {json.dumps(label, ensure_ascii=False)}: {where}" if label else f"      - {where}"
                )
    return "\n".join(lines)


def write(project: Path, site: Site) -> list[str]:
    """Write what changed and remove owned files nothing generates any more; the paths touched."""
    touched = []
    for path, text in site.files.items():
        target = Path(project) / path
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            touched.append(path)
    for path in _owned(project):
        if path not in site.files:
            (Path(project) / path).unlink()
            touched.append(path)
    return touched


def _owned(project: Path) -> list[str]:
    found = [p.relative_to(project).as_posix() for p in (Path(project) / "docs").rglob("*") if p.is_file()]
    return sorted(p for p in found if owned(p))


def stale(project: Path, site: Site) -> list[str]:
    """What differs from the checkout: ``file: block`` for a region, the path for a whole file."""
    out = []
    for path, text in site.files.items():
        target = Path(project) / path
        written = target.read_text(encoding="utf-8") if target.is_file() else None
        if written == text:
            continue
        if written is None or path not in site.regions:
            out.append(f"{path} ({'missing' if written is None else 'differs'})")
            continue
        before = regions(path, written)
        changed = [n for n, body in site.regions[path].items() if before.get(n) != body]
        out += [f"{path}: {n}" for n in changed] or [f"{path} (outside its blocks)"]
    out += [f"{p} (nothing generates it)" for p in _owned(project) if p not in site.files]
    return out
