"""The shape of the code: no import cycles among castrules modules (read statically with ast).

A cycle makes the import order matter and hides which module is the library and which its
user; lazy imports inside functions count too (they only postpone the cycle). The module map
comes from pyproject's package list and package-dir table, so a new package is checked as
soon as it is installed.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def package_dirs() -> dict[str, Path]:
    """Each castrules package (from pyproject) and the folder that holds its modules."""
    tool = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapping = tool.get("package-dir", {})
    found = {}
    for package in tool["packages"]:
        if package in mapping:
            found[package] = REPO / mapping[package]
            continue
        parent = max((p for p in mapping if package.startswith(p + ".")), key=len, default=None)
        if parent is None:
            found[package] = REPO.joinpath(*package.split("."))
        else:
            found[package] = REPO / mapping[parent] / Path(*package[len(parent) + 1:].split("."))
    return found


def module_files() -> dict[str, Path]:
    modules = {}
    for package, folder in package_dirs().items():
        for path in sorted(folder.glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            modules[name] = path
    return modules


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The castrules modules ``name`` imports anywhere in its file (top level or in functions),
    including ``importlib.import_module("...")`` with a literal name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            targets.add(node.args[0].value)
    return {t for t in targets if t in known and t != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def test_the_module_map_covers_the_packages():
    files = module_files()
    assert "castrules.harness.cli" in files and "castrules.oracle.engine" in files
    assert "castrules.oracle.mana.solver" in files


def test_the_detector_finds_a_cycle_and_a_lazy_import():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_lazy_and_importlib_imports_count(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import importlib\n\ndef f():\n    from castrules.harness import cli\n"
                      "    return importlib.import_module('castrules.harness.fuzz_cli')\n", encoding="utf-8")
    known = {"castrules.harness.cli", "castrules.harness.fuzz_cli", "castrules.harness"}
    assert imported("castrules.harness.m", module, known) == {"castrules.harness.cli", "castrules.harness.fuzz_cli"}


def test_no_import_cycles_among_castrules_modules():
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("library", ["castrules.harness.engine", "castrules.harness.runner",
                                     "castrules.harness.parallel", "castrules.harness.expectations"])
def test_library_modules_do_not_import_the_command_line(library):
    graph = import_graph()
    assert not {m for m in graph[library] if m.endswith("cli")}, graph[library]


@pytest.mark.parametrize("folder", ["oracle", "harness", "oracle/mana", "castrules/model", "castrules/mutation"])
def test_the_readme_names_every_module(folder):
    """The README's architecture section is the map of the code: every module is named there (in
    backquotes), so a new module comes with its line and the map stays true."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    architecture = text[text.index("## Architecture"):text.index("## Speed")]
    modules = sorted(p.stem for p in (REPO / folder).glob("*.py") if p.stem != "__init__")
    missing = [m for m in modules if f"`{m}`" not in architecture and f"`{folder}/{m}`" not in architecture]
    assert not missing, f"modules of {folder}/ the README's architecture section does not name: {missing}"
