"""The harness and the castrules packages (the model, the mutants) stay readable: modules under
about 400 lines, functions under about 60, as the oracle's (tests/oracle/test_module_sizes.py).
A longer one is listed here with the reason, and the README's architecture section says why; a
listed one that shrinks below the limit must leave the list."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("harness", "castrules")
MODULE_LINES, FUNCTION_LINES = 400, 60

# path (or path::function) -> why it is longer (kept in step with the README's architecture section)
LONGER: dict[str, str] = {}


def too_long(root: Path = ROOT, folders: tuple[str, ...] = FOLDERS) -> dict[str, int]:
    """Every module over MODULE_LINES and every function over FUNCTION_LINES, with its length."""
    found: dict[str, int] = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            src = path.read_text(encoding="utf-8")
            if src.count("\n") > MODULE_LINES:
                found[rel] = src.count("\n")
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = node.end_lineno - node.lineno + 1
                    if length > FUNCTION_LINES:
                        found[f"{rel}::{node.name}"] = length
    return found


def test_harness_and_castrules_modules_and_functions_are_short_or_say_why():
    found = too_long()
    unexplained = {k: v for k, v in found.items() if k not in LONGER}
    assert not unexplained, (f"longer than {MODULE_LINES} lines (module) or {FUNCTION_LINES} (function), with no "
                             f"reason in LONGER and the README: {unexplained}")
    stale = sorted(set(LONGER) - set(found))
    assert not stale, f"no longer too long, drop them from LONGER and the README: {stale}"


def test_the_measure_sees_a_long_module_and_a_long_method(tmp_path):
    folder = tmp_path / "pkg"
    folder.mkdir()
    body = "".join(f"        x{i} = {i}\n" for i in range(FUNCTION_LINES))
    (folder / "long.py").write_text("class C:\n    def f(self):\n" + body + "\n" * MODULE_LINES, encoding="utf-8")
    (folder / "short.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    assert too_long(tmp_path, ("pkg",)) == {"pkg/long.py": MODULE_LINES + FUNCTION_LINES + 2,
                                            "pkg/long.py::f": FUNCTION_LINES + 1}
