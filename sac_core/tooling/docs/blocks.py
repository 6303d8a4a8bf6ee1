"""What a generated block shows: the declarations every results table and figure of the README and
the documentation comes from (``BLOCKS``, in :mod:`.catalogue`), and the Markdown they render to.

A block is a marked region of a page, ``<!-- generated: NAME -->`` … ``<!-- /generated -->``, that
``sac docs`` rewrites from ``results/`` and ``sac docs --check`` compares. Kinds:

- ``means``: one row per cell, precision, recall and DRM as means over k (%) ± half their 95 %
  bootstrap interval over queries, optionally DRM@8 and LegalBench-RAG's P@1 / R@64 (``extra``);
  rows listed (:class:`Row`) or every cell whose variant matches ``match``.
- ``figure``: the same rows drawn (an SVG under ``docs/figures/``, :mod:`.figures`).
- ``csv``: columns of a CSV file under the folder (``file``), rows filtered by ``where``.
- ``lbr``: LegalBench-RAG's own shape, precision@1 / recall@64 per dataset, for the rows of ``means``
  (``intervals``: each ± half its 95 % interval).
- ``text``: a text file under the folder (``file``), verbatim in a code block.
- ``datasets``, ``pairs``, ``shift``, ``published``: the whole benchmark's page (:mod:`.whole`): means
  over k per dataset, paired tests against the first row, the change from a subset protocol
  (``against``), and the first row beside LegalBench-RAG's published numbers.

A block whose folder may not exist yet names the command that makes it (``pending``): until the
folder exists the block says so and how to make it, instead of failing ``sac docs``; while the
folder holds only some of its rows (a sweep run in part), the block shows those and names the others
as not computed yet (``site.render_block``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.data import read_table
from ...experiments.report import SHOWN, lbr_table
from .results import DocsError, Results, Sweep

if TYPE_CHECKING:  # imported in the functions that use it (seconds to import; `sac --help` stays instant)
    import pandas as pd

HEADERS = {"precision": "precision", "recall": "recall", "drm": "DRM", "drm@8": "DRM@8", "p@1": "P@1", "r@64": "R@64"}
MEANS_NOTE = "means over k ∈ {1, 2, 4, 8, 16, 32, 64} in %, macro over datasets"
INTERVAL_NOTE = ", ± half the 95 % bootstrap interval over queries"


@dataclass(frozen=True)
class Row:
    """One row of a block: the cell of ``variant`` (and the settings ``where``) in the block's folder,
    or in ``folder`` when given, shown as ``label``."""

    label: str
    variant: str
    where: tuple[tuple[str, object], ...] = ()
    folder: str = ""


@dataclass(frozen=True)
class Col:
    """A column of a ``csv`` block: the file's ``name``, shown as ``header``; ``percent``: × 100."""

    name: str
    header: str
    percent: bool = False
    decimals: int = 2


@dataclass(frozen=True)
class Block:
    """A generated block (see the module docstring); ``folder`` is a name under ``results/``."""

    name: str
    folder: str
    kind: str = "means"
    rows: tuple[Row, ...] = ()
    match: str = ""  # means/figure without rows: the cells whose variant matches this regex (all if "")
    strip: str = ""  # … labelled by their variant without this prefix
    extra: tuple[str, ...] = ()  # means: "drm@8", "p@1", "r@64"
    caption: str = ""
    file: str = ""  # csv/text: the file under the folder
    columns: tuple[Col, ...] = ()  # csv
    where: tuple[tuple[str, object], ...] = ()  # csv: rows kept
    intervals: bool = False  # lbr: values ± half their 95 % interval
    pending: str = ""  # the command that makes a folder not run yet: until then the block says so
    against: tuple[Row, ...] = ()  # shift: the rows' methods on the subset protocol, in the same order
    at: tuple[tuple[str, int], ...] = ()  # pairs: the (metric, k) tested


@dataclass(frozen=True)
class Picked:
    """A row resolved: its label, its sweep and its cell."""

    label: str
    sweep: Sweep
    cell: str


def pick(block: Block, results: Results) -> list[Picked]:
    """The rows of a ``means`` or ``figure`` block, resolved to cells."""
    if block.rows:
        out = []
        for row in block.rows:
            sweep = results.sweep(row.folder or block.folder)
            out.append(Picked(row.label, sweep, sweep.find(row.variant, row.where)))
        return out
    sweep = results.sweep(block.folder)
    pattern = re.compile(block.match)
    cells = sweep.table.drop_duplicates("cell").set_index("cell")
    for column, value in block.where:
        cells = cells[cells[column] == value]
    found = [
        Picked(_label(cells.loc[c], sweep.settings, block), sweep, c)
        for c in sweep.cells()
        if c in cells.index and pattern.search(str(cells.loc[c, "variant"]))
    ]
    if not found:
        raise DocsError(f"block {block.name!r}: no cell of {sweep.path} matches {block.match!r} {dict(block.where)}")
    return found


def _label(cell: pd.Series, settings: Sequence[str], block: Block) -> str:
    """A matched cell's label: its variant without ``block.strip``, and the settings that vary in its sweep."""
    label = _strip(str(cell["variant"]), block.strip)
    shown = [f"{s.replace('_', ' ')} {cell[s]:g}" if isinstance(cell[s], float) else f"{s.replace('_', ' ')} {cell[s]}"
             for s in settings if s not in dict(block.where)]  # fmt: skip
    return " · ".join([label, *shown])


def _strip(variant: str, prefix: str) -> str:
    return (variant[len(prefix) :] or variant) if prefix and variant.startswith(prefix) else variant


def escape(text: object) -> str:
    """A table cell: pipes escaped, line breaks joined."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: Sequence[str], rows: Sequence[Sequence[object]], align: str = "") -> list[str]:
    """A Markdown table; ``align``: one letter per column, ``l`` (default) or ``r``."""
    marks = ["---:" if (align[i : i + 1] == "r") else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(escape(h) for h in header) + " |", "| " + " | ".join(marks) + " |"]
    return lines + ["| " + " | ".join(escape(v) for v in row) + " |" for row in rows]


def means_rows(picked: Sequence[Picked], extra: Sequence[str]) -> list[list[str]]:
    """Per picked cell: precision, recall and DRM over k as text, then the ``extra`` columns."""
    out = []
    for p in picked:
        values = p.sweep.text.loc[p.cell]
        row = [str(values[m]).replace(" ", "\u00a0") for m in SHOWN]  # "18.52 ± 1.01" on one line
        for column in extra:
            row.append(_extra(p, column))
        out.append(row)
    return out


def _extra(p: Picked, column: str) -> str:
    if column == "drm@8":
        value = p.sweep.at_8.get(p.cell)
        return "–" if value is None or value != value else f"{value:.2f}"
    label = {"p@1": "P@1", "r@64": "R@64"}[column]
    lbr = p.sweep.lbr
    return str(lbr.loc[p.cell, label]) if not lbr.empty and p.cell in lbr.index and label in lbr.columns else "–"


def note(picked: Sequence[Picked]) -> str:
    """What the numbers are and which files they come from (every folder named)."""
    folders = list(dict.fromkeys(p.sweep.path for p in picked))
    intervals = INTERVAL_NOTE if all(p.sweep.intervals for p in picked) else ""
    sources = ", ".join(f"`{f}`" for f in folders)
    return f"<small>{MEANS_NOTE.capitalize()}{intervals}. From {sources}.</small>"


def trace(picked: Sequence[Picked]) -> str:
    """An HTML comment naming each row's folder, cell and variant (hidden on the page, for tracing)."""
    lines = [f"{p.sweep.path} {p.cell} {p.sweep.describe(p.cell)['variant']}" for p in picked]
    return "<!-- rows: " + "; ".join(lines).replace("--", "- -") + " -->"


def render_means(block: Block, results: Results) -> list[str]:
    picked = pick(block, results)
    header = [block.caption or "method", *(HEADERS[m] for m in (*SHOWN, *block.extra))]
    return [*table(header, [[p.label, *r] for p, r in zip(picked, means_rows(picked, block.extra))], "l" + "r" * 9),
            "", note(picked), trace(picked)]  # fmt: skip


def render_csv(block: Block, results: Results) -> list[str]:
    path = results.file(_relative(block))
    frame: pd.DataFrame = read_table(path)
    for column, value in block.where:
        frame = frame[frame[column] == value]
    missing = [c.name for c in block.columns if c.name not in frame.columns]
    if missing:
        raise DocsError(f"{results.label}/{_relative(block)}: no column {', '.join(missing)}")
    rows = [[_cell(r[c.name], c) for c in block.columns] for _, r in frame.iterrows()]
    source = f"<small>From `results/{_relative(block)}`.</small>"
    return [*table([c.header for c in block.columns], rows, "l" + "r" * 9), "", source]


def _cell(value: object, column: Col) -> str:
    if isinstance(value, float):
        return "–" if value != value else f"{value * (100 if column.percent else 1):.{column.decimals}f}"
    return str(value)


def render_lbr(block: Block, results: Results) -> list[str]:
    """LegalBench-RAG's own table shape: precision@1 / recall@64 per dataset and over all (%)."""
    picked = pick(block, results)
    rows: list[list[str]] = []
    datasets: list[str] = []
    for p in picked:
        wide = lbr_table(p.sweep.table[p.sweep.table["cell"] == p.cell], text=block.intervals)
        found = list(dict.fromkeys(d for d, _ in wide.columns))
        datasets = datasets or found
        values = wide.iloc[0]
        rows.append([p.label, *(f"{_lbr(values[(d, 'P@1')])} / {_lbr(values[(d, 'R@64')])}" for d in datasets)])
    header = [block.caption or "method", *(d if d != "ALL" else "ALL (macro)" for d in datasets)]
    sources = ", ".join(f"`{f}`" for f in dict.fromkeys(p.sweep.path for p in picked))
    intervals = INTERVAL_NOTE if block.intervals else ""
    return [*table(header, rows, "l" + "r" * 9), "",
            f"<small>Precision@1 / recall@64 in %{intervals}. From {sources}.</small>"]  # fmt: skip


def _lbr(value: object) -> str:
    """A P@1 or R@64 value as shown: ``mean ± half-width`` on one line, or a number with two decimals."""
    if isinstance(value, str):
        return value.replace(" ", "\u00a0")
    return "–" if value is None or value != value else f"{value:.2f}"


def render_text(block: Block, results: Results) -> list[str]:
    text = results.file(_relative(block)).read_text(encoding="utf-8").rstrip("\n")
    return [f"`results/{_relative(block)}`:", "", "```text", text, "```"]


def _relative(block: Block) -> str:
    return "/".join(part for part in (block.folder, block.file) if part)
