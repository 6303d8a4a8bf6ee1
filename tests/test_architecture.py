"""The layout's rules, checked on the real import graph (grimp, the graph library of import-linter).

- Dependencies point one way: cli → tooling → dashboard → experiments → engine (tooling, the
  measurement code, sits beside the cli: nothing below it imports it); inside the engine, retrieval
  sits above the steps it combines, and data is the floor.
- No import cycles, and no function-level imports of the project's own modules (they could hide one).
- Page scripts import the project only through ``sac_core.dashboard``.
- ``__init__.py`` files re-export: a docstring, imports and ``__all__``, nothing else.
"""

from __future__ import annotations

import ast
import graphlib
import importlib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("sac_core.cli", "sac_core.tooling", "sac_core.dashboard", "sac_core.experiments", "sac_core.engine")
ENGINE_LAYERS = (
    ("sac_core.engine.answers",),
    ("sac_core.engine.retrieval",),
    ("sac_core.engine.indexes", "sac_core.engine.embedding", "sac_core.engine.summaries", "sac_core.engine.metrics"),
    ("sac_core.engine.chunking", "sac_core.engine.entities"),
    ("sac_core.engine.data", "sac_core.engine.progress"),
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("sac_core", "app_pages")


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _imports(graph: grimp.ImportGraph, package: str) -> set[tuple[str, str]]:
    """(importer, imported) pairs with the importer inside ``package``."""
    return {(m, i) for m in graph.modules if _in(m, package) for i in graph.find_modules_directly_imported_by(m)}


@pytest.mark.parametrize("lower", range(1, len(LAYERS)))
def test_no_layer_imports_a_layer_above_it(graph: grimp.ImportGraph, lower: int) -> None:
    above = LAYERS[:lower]
    bad = sorted((m, i) for m, i in _imports(graph, LAYERS[lower]) if any(_in(i, a) for a in above))
    assert not bad, f"{LAYERS[lower]} must not import from {', '.join(above)}: {bad}"


def test_engine_steps_point_down(graph: grimp.ImportGraph) -> None:
    bad = []
    for level, packages in enumerate(ENGINE_LAYERS):
        above = [p for group in ENGINE_LAYERS[:level] for p in group]
        siblings = list(packages)
        for package in packages:
            for m, i in _imports(graph, package):
                if any(_in(i, a) for a in above) or any(_in(i, s) and s != package for s in siblings):
                    bad.append((m, i))
    assert not bad, f"engine steps import sideways or upwards: {sorted(bad)}"


def test_no_import_cycles(graph: grimp.ImportGraph) -> None:
    deps = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in graph.modules} for m in graph.modules}
    try:
        list(graphlib.TopologicalSorter(deps).static_order())
    except graphlib.CycleError as e:
        pytest.fail(f"import cycle: {' → '.join(e.args[1])}")


def _function_level_project_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and (
                inner.level > 0 or (inner.module or "").startswith(("sac_core", "app_pages"))
            ):
                found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
            if isinstance(inner, ast.Import) and any(a.name.startswith(("sac_core", "app_pages")) for a in inner.names):
                found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    return found


def test_no_function_level_imports_of_project_modules() -> None:
    files = [*ROOT.glob("sac_core/**/*.py"), *ROOT.glob("app_pages/**/*.py"), ROOT / "app.py"]
    found = [hit for f in files for hit in _function_level_project_imports(f)]
    assert not found, f"import project modules at module level: {found}"


def test_pages_import_the_project_only_through_the_dashboard(graph: grimp.ImportGraph) -> None:
    bad = sorted(
        (m, i) for m, i in _imports(graph, "app_pages") if _in(i, "sac_core") and not _in(i, "sac_core.dashboard")
    )
    assert not bad, f"pages must import from sac_core.dashboard only: {bad}"


def test_sac_core_never_imports_streamlit() -> None:
    bad = []
    for path in ROOT.glob("sac_core/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            if any(n == "streamlit" or n.startswith("streamlit.") for n in names):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, f"UI code in sac_core: {bad}"


def _is_reexport(node: ast.stmt) -> bool:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return True  # the docstring
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)] == ["__all__"]
    return False


def test_init_files_only_reexport() -> None:
    bad = []
    for init in [*ROOT.glob("sac_core/**/__init__.py"), *ROOT.glob("app_pages/**/__init__.py")]:
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if not _is_reexport(node):
                bad.append(f"{init.relative_to(ROOT)}:{node.lineno}")
    assert not bad, f"__init__.py holds logic: {bad}"


# --------------------------------------------------------------------------- size and call style

MAX_MODULE_LINES = 400  # data files (JSON, TXT) aside
MAX_CLI_MODULE_LINES = 300
MAX_FUNCTION_LINES = 60  # from `def` to the last line of the body
# Modules allowed over the limits for a while (none now). Add nothing to it.
ALLOWED_FOR_NOW: set[str] = set()


def _sources() -> list[tuple[str, str, ast.Module]]:
    out = []
    for path in sorted(ROOT.glob("sac_core/**/*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in ALLOWED_FOR_NOW:
            text = path.read_text(encoding="utf-8")
            out.append((name, text, ast.parse(text)))
    return out


def test_no_module_is_over_400_lines_nor_a_cli_module_over_300() -> None:
    long = [
        f"{name}: {len(text.splitlines())} lines"
        for name, text, _ in _sources()
        if len(text.splitlines()) > (MAX_CLI_MODULE_LINES if name.startswith("sac_core/cli/") else MAX_MODULE_LINES)
    ]
    assert not long, f"split these modules: {long}"


def test_no_function_is_over_60_lines() -> None:
    long = [
        f"{name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for name, _, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"split these functions: {long}"


def test_no_call_passes_true_or_false_positionally() -> None:
    """``f(x, False)`` says nothing at the call site: flags are keyword-only (``*,``) and passed by name."""
    found = [
        f"{name}:{node.lineno} {ast.unparse(node)[:80]}"
        for name, _, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and any(isinstance(a, ast.Constant) and isinstance(a.value, bool) for a in node.args)
    ]
    assert not found, f"pass these flags by keyword: {found}"


def test_the_cli_formats_as_ruff_does() -> None:
    skipped = [name for name, text, _ in _sources() if name.startswith("sac_core/cli/") and "fmt: skip" in text]
    assert not skipped, f"no `# fmt: skip` in the CLI: {skipped}"


def test_every_deferred_cli_target_exists_in_the_cli_or_the_tooling() -> None:
    """``options.deferred("module:name")`` imports after parsing, out of the import graph's sight:
    each target must exist and stay at the cli's or the tooling's level."""
    targets = [
        node.args[0].value
        for name, _, tree in _sources()
        if name.startswith("sac_core/cli/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "deferred"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert targets, "no deferred target found: is the check still looking at the right call?"
    for target in targets:
        module, _, attribute = target.partition(":")
        assert module.startswith(("sac_core.cli.", "sac_core.tooling.")), target
        assert hasattr(importlib.import_module(module), attribute), target
