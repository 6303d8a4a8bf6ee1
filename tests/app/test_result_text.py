"""Text from result files is text on the Curves page (issue 41, points 4 and 6): a variant id in the
"Methods" tooltip is never read as Markdown (an image fetched on hover, links, bold), and an error
names the file relative to the results folder, never by a path of the server. The page needs no
model here: only a results folder and the demo corpus the sidebar writes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
CURVES = str(ROOT / "app_pages" / "curves.py")
HOSTILE = ("a._QAX_.__QAXB__.", "![x](http://127.0.0.1:9/x.png) **b** <http://e.x> www.e.x")


def _curves(tmp_path: Path, monkeypatch) -> AppTest:
    monkeypatch.delenv("SAC_DATA_DIR", raising=False)
    monkeypatch.setenv("SAC_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.setenv("SAC_CACHE_DIR", str(tmp_path / "cache"))
    at = AppTest.from_file(CURVES, default_timeout=300)  # the page alone: Compare would start index builds
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _unmd(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value).replace("\u2060", "")


def test_variant_ids_in_the_methods_tooltip_are_escaped(tmp_path, monkeypatch):
    table = pd.read_csv(ROOT / "results" / "demo-grid" / "results.csv")
    first, second = [v for v in table["variant"].unique() if v != "baseline"][:2]
    # cells of plug-ins not loaded here, named as a plug-in's cells are by default (variant = method =
    # the plug-in's name): the page names them by that text, in the options and in the tooltip
    for old, hostile in zip((first, second), HOSTILE):
        table.loc[table["variant"] == old, ["variant", "method"]] = hostile
    table["summary_chars"] = 150  # both in the page's first setting
    (tmp_path / "results" / "hostile").mkdir(parents=True)
    table.to_csv(tmp_path / "results" / "hostile" / "results.csv", index=False)
    at = _curves(tmp_path, monkeypatch)
    (methods,) = [m for m in at.multiselect if m.label == "Methods"]
    assert set(HOSTILE) <= set(methods.options)
    assert not re.search(r"(?<!\\)[!*_\[\]()<>]", methods.help), methods.help  # every mark escaped
    read = re.sub(r"\\(.)", r"\1", methods.help)  # as a reader sees it: escapes gone, word joiners kept
    assert "http://" not in read and "www." not in read  # no autolink either
    assert all(h in _unmd(methods.help) for h in HOSTILE)  # shown exactly as the ids are


def test_a_results_file_that_is_not_utf8_is_named_relative_to_the_results_folder(tmp_path, monkeypatch):
    folder = tmp_path / "results" / "badutf8"
    folder.mkdir(parents=True)
    head = "dataset,variant,k,drm,precision,recall\n" + "ALL,baseline,1,0.5,0.5,0.5\n" * 5000
    (folder / "results.csv").write_bytes(head.encode() + b"ALL,\xff,1,0.5,0.5,0.5\n")
    at = _curves(tmp_path, monkeypatch)
    (error,) = [e.value for e in at.error]
    assert _unmd(error) == f"badutf8/results.csv: not UTF-8 (invalid start byte at byte {len(head) + 4:,})"
    assert str(tmp_path) not in _unmd(error)


# ------------------------------------------------------------------ every help= built from data


def _escaped(node: ast.expr) -> bool:
    """Whether a ``help=`` value can hold only the app's own text or text escaped by ``md``: string
    constants, module constants (UPPER_CASE), ``None``, ``md(...)`` calls, and f-strings, ``+``
    and conditionals of those."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name | ast.Attribute):
        name = node.id if isinstance(node, ast.Name) else node.attr
        return name.isupper()
    if isinstance(node, ast.Call):
        func = node.func
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "md"
    if isinstance(node, ast.JoinedStr):
        return all(_escaped(v.value) if isinstance(v, ast.FormattedValue) else True for v in node.values)
    if isinstance(node, ast.BinOp):
        return _escaped(node.left) and _escaped(node.right)
    if isinstance(node, ast.IfExp):
        return _escaped(node.body) and _escaped(node.orelse)
    return False


def _help_texts(tree: ast.AST) -> list[ast.keyword]:
    return [kw for n in ast.walk(tree) if isinstance(n, ast.Call) for kw in n.keywords if kw.arg == "help"]


def test_every_help_text_built_from_data_is_escaped():
    pages = [ROOT / "app.py", *sorted((ROOT / "app_pages").rglob("*.py"))]
    bad = [
        f"{path.relative_to(ROOT)}:{kw.lineno}: {ast.unparse(kw.value)}"
        for path in pages
        for kw in _help_texts(ast.parse(path.read_text(encoding="utf-8")))
        if not _escaped(kw.value)
    ]
    assert not bad, f"escape with views.md: {bad}"


@pytest.mark.parametrize(
    ("source", "ok"),
    [
        ('st.x(help="plain")', True),
        ("st.x(help=LABEL_HELP)", True),
        ('st.x(help=f"id: {views.md(v)}")', True),
        ('st.x(help=None if d is None else "pts")', True),
        ('st.x(help="ids: " + ", ".join(ids))', False),  # the Curves tooltip before issue 41
        ('st.x(help=f"id: {v}")', False),
        ("st.x(help=name)", False),
    ],
)
def test_the_help_check_tells_escaped_from_raw(source, ok):
    (kw,) = _help_texts(ast.parse(source))
    assert _escaped(kw.value) is ok
