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
    ("sac_core.engine.store",),
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


def test_pages_import_the_project_only_through_the_dashboard() -> None:
    """At run time; a page may name the engine's types in annotations (imported under TYPE_CHECKING)."""
    running = grimp.build_graph("sac_core", "app_pages", exclude_type_checking_imports=True)
    bad = sorted(
        (m, i) for m, i in _imports(running, "app_pages") if _in(i, "sac_core") and not _in(i, "sac_core.dashboard")
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
    """Every module of the project: sac_core, the page scripts and their shared UI, app.py."""
    out = []
    for path in sorted([*ROOT.glob("sac_core/**/*.py"), *ROOT.glob("app_pages/**/*.py"), ROOT / "app.py"]):
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


# --------------------------------------------------------------------------- capabilities, not probes

# Where a plug-in's class may be looked at: Opened takes a ranker that does not subclass Ranker.
PROBES_ALLOWED_IN = {"sac_core/experiments/plugins.py"}
INTERFACES = {"Method", "Stage", "Ranker", "ChunkIndex", "Indexer"}  # plus every class with a search()
BUILT_IN_METHODS = {"SAC_METHOD", "BASELINE"}  # the registered instances of the built-in methods
BUILT_IN_MODULES = {"sac", "baseline"}  # their modules (``sac.NAME``)


def _project_trees() -> dict[str, ast.Module]:
    files = [*ROOT.glob("sac_core/**/*.py"), *ROOT.glob("app_pages/**/*.py"), ROOT / "app.py"]
    return {f.relative_to(ROOT).as_posix(): ast.parse(f.read_text(encoding="utf-8")) for f in sorted(files)}


def _plugin_classes(trees: dict[str, ast.Module]) -> set[str]:
    """Names of the method, stage and ranker classes: the interfaces, every class defining ``search``,
    and their subclasses (by base name)."""
    classes = {n.name: n for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}

    def bases(c: ast.ClassDef) -> set[str]:
        out = set()
        for b in c.bases:
            b = b.value if isinstance(b, ast.Subscript) else b
            out.add(b.id if isinstance(b, ast.Name) else getattr(b, "attr", ""))
        return out

    found = {
        n for n, c in classes.items() if n in INTERFACES or any(getattr(s, "name", "") == "search" for s in c.body)
    }
    while grown := {n for n, c in classes.items() if n not in found and bases(c) & found}:
        found |= grown
    return found


def _members(trees: dict[str, ast.Module], classes: set[str]) -> set[str]:
    """Every member those classes define: methods, class attributes, ``self.x`` set in a method."""
    out = set()
    for tree in trees.values():
        for c in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name in classes):
            for node in ast.walk(c):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.add(node.name)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    out.add(node.target.id)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    out.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    out.add(node.id)
    return {m for m in out if not m.startswith("__")}


def _constant_names(call: ast.Call, parents: list[ast.AST]) -> set[str]:
    """The attribute names ``getattr``/``hasattr`` asks for: a constant, or a loop variable over constants."""
    arg = call.args[1]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    for p in parents:
        loops = [p] if isinstance(p, ast.For) else getattr(p, "generators", [])
        for loop in loops:
            if isinstance(arg, ast.Name) and getattr(loop.target, "id", None) == arg.id:
                return {e.value for e in getattr(loop.iter, "elts", []) if isinstance(e, ast.Constant)}
    return set()


def _built_in(node: ast.expr) -> bool:
    """``SAC_METHOD``, ``BASELINE.name``, ``sac.NAME``, ``"baseline"`` …: a built-in method named in code."""
    if isinstance(node, ast.Constant):
        return node.value in BUILT_IN_MODULES
    attribute = False
    while isinstance(node, ast.Attribute) and node.attr in ("name", "title", "NAME"):
        node, attribute = node.value, True
    return isinstance(node, ast.Name) and (node.id in BUILT_IN_METHODS or (attribute and node.id in BUILT_IN_MODULES))


def probes() -> dict[str, list[str]]:
    """Where code probes a plug-in instead of asking its interface (``file:line code``): ``isinstance``
    against a method, stage or ranker class; ``getattr``/``hasattr`` of one of their members; a
    comparison with a built-in method (a "SAC, else baseline" switch)."""
    trees = _project_trees()
    classes = _plugin_classes(trees)
    members = _members(trees, classes)
    found: dict[str, list[str]] = {"isinstance": [], "getattr/hasattr": [], "built-in method switch": []}
    for name, tree in trees.items():
        if name in PROBES_ALLOWED_IN:
            continue
        parents: dict[ast.AST, list[ast.AST]] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = [node, *parents.get(node, [])]
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', 0)} {ast.unparse(node)[:80]}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2:
                if node.func.id == "isinstance":
                    kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                    if any(getattr(k, "id", getattr(k, "attr", None)) in classes for k in kinds):
                        found["isinstance"].append(where)
                elif node.func.id in ("getattr", "hasattr") and _constant_names(node, parents.get(node, [])) & members:
                    found["getattr/hasattr"].append(where)
            elif isinstance(node, ast.Compare) and any(_built_in(o) for o in (node.left, *node.comparators)):
                found["built-in method switch"].append(where)
    return found


def test_callers_ask_plugins_what_they_can_do_and_never_probe_them() -> None:
    """Capabilities are declared on Method and the Ranker protocol (CONTRIBUTING: How to add …);
    before issue 32 this found 11 isinstance, 15 getattr/hasattr and 5 built-in method switches."""
    found = probes()
    assert not any(found.values()), f"ask the interface instead: {found}"


def test_the_probe_count_sees_probes() -> None:
    """The count above is not blind: a probe of each kind written the usual way is found."""
    tree = ast.parse(
        "isinstance(ranker, Retriever)\ngetattr(ranker, 'pool', None)\n"
        "[hasattr(r, n) for n in ('embedder', 'x')]\nx = SAC_METHOD.title if m is SAC_METHOD else 'b'\n"
        "y = m == sac.NAME\n"
    )
    trees = _project_trees()
    classes = _plugin_classes(trees)
    members = _members(trees, classes)
    parents: dict[ast.AST, list[ast.AST]] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = [node, *parents.get(node, [])]
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert "Retriever" in classes and {"pool", "embedder"} <= members
    assert [_constant_names(c, parents[c]) & members for c in calls[1:]] == [{"pool"}, {"embedder"}]
    assert (
        sum(_built_in(o) for n in ast.walk(tree) if isinstance(n, ast.Compare) for o in (n.left, *n.comparators)) == 2
    )


CSV_WRITER = "sac_core/engine/data/csvfile.py"  # the one writer: formula cells neutralised (OWASP)


def _csv_writes(tree: ast.AST) -> list[int]:
    """Lines that write CSV other than through the one writer: ``….to_csv(``, the ``csv`` module's
    ``writer``/``DictWriter`` (also imported by name), or ``import csv`` at all."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("to_csv", "writer", "DictWriter"):
            if node.attr == "to_csv" or (isinstance(node.value, ast.Name) and node.value.id == "csv"):
                found.append(node.lineno)
        elif (isinstance(node, ast.Import) and any(a.name == "csv" for a in node.names)) or (
            isinstance(node, ast.ImportFrom) and node.module == "csv"
        ):
            found.append(node.lineno)
    return found


def test_every_csv_the_project_writes_goes_through_the_one_writer() -> None:
    files = [
        *ROOT.glob("sac_core/**/*.py"),
        *ROOT.glob("app_pages/**/*.py"),
        ROOT / "app.py",
        *ROOT.glob("scripts/*.py"),
    ]
    bad = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(files)
        if path.relative_to(ROOT).as_posix() != CSV_WRITER
        for line in _csv_writes(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not bad, f"write CSV with sac_core.engine.data.write_csv / csv_bytes (formula cells neutralised): {bad}"


def test_the_csv_writer_check_sees_every_way_of_writing_csv() -> None:
    tree = ast.parse(
        "df.to_csv(p, index=False)\nimport csv\nw = csv.writer(f)\nfrom csv import DictWriter\n"
        "csv.DictWriter(f, fields)\nx.writer(f)\n"
    )
    assert sorted(_csv_writes(tree)) == [1, 2, 3, 4, 5]  # not line 6: another object's writer


if __name__ == "__main__":  # the counts, for a report: python tests/test_architecture.py
    for kind, where in probes().items():
        print(f"{kind}: {len(where)}", *where, sep="\n    ")
