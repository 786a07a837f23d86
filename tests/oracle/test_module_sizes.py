"""The oracle stays readable: modules under about 400 lines, functions under about 60. The few
longer ones are listed here with the reason, and the README's architecture section says why;
a listed one that shrinks below the limit must leave the list."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES, FUNCTION_LINES = 400, 60

# path (or path::function) -> why it is longer (kept in step with the README's architecture section)
LONGER = {
    "oracle/characteristics.py::compute_characteristics": "613's layers in order, one pass a reader follows top to bottom",
    "oracle/mana/solver.py": "the max-flow payment solver and its exactness argument, one unit",
    "oracle/mana/solver.py::_payment": "turns one flow into a payment, symbol by symbol",
    "oracle/mana/concrete.py::resolve_choices": "601.2b's announcements of one cost, symbol kind by symbol kind",
    "oracle/mana/bruteforce.py::verify_payment": "the slow reference the solver is tested against (tests only)",
}


def too_long() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted((ROOT / "oracle").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        src = path.read_text(encoding="utf-8")
        if src.count("\n") > MODULE_LINES:
            found[rel] = src.count("\n")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > FUNCTION_LINES:
                    found[f"{rel}::{node.name}"] = length
    return found


def test_oracle_modules_and_functions_are_short_or_say_why():
    found = too_long()
    unexplained = {k: v for k, v in found.items() if k not in LONGER}
    assert not unexplained, (f"longer than {MODULE_LINES} lines (module) or {FUNCTION_LINES} (function), with no "
                             f"reason in LONGER and the README: {unexplained}")
    stale = sorted(set(LONGER) - set(found))
    assert not stale, f"no longer too long, drop them from LONGER and the README: {stale}"
