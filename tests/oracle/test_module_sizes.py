"""The oracle stays readable: modules under about 400 lines, classes under about 150, functions
under about 60 (the harness test's measure). The few longer ones are listed here with the
reason, and the README's architecture section says why; a listed one that shrinks below the
limit must leave the list."""
from __future__ import annotations

from tests.harness.test_harness_module_sizes import CLASS_LINES, FUNCTION_LINES, MODULE_LINES, too_long

# path (or path::class, path::function) -> why it is longer (kept in step with the README's architecture section)
LONGER = {
    "oracle/characteristics.py::compute_characteristics": "613's layers in order, one pass a reader follows top to bottom",
    "oracle/mana/solver.py": "the max-flow payment solver and its exactness argument, one unit",
    "oracle/mana/solver.py::_payment": "turns one flow into a payment, symbol by symbol",
    "oracle/mana/concrete.py::resolve_choices": "601.2b's announcements of one cost, symbol kind by symbol kind",
    "oracle/mana/bruteforce.py::verify_payment": "the slow reference the solver is tested against (tests only)",
}


def test_oracle_modules_and_functions_are_short_or_say_why():
    found = too_long(folders=("oracle",))
    unexplained = {k: v for k, v in found.items() if k not in LONGER}
    assert not unexplained, (f"longer than {MODULE_LINES} lines (module), {CLASS_LINES} (class) or {FUNCTION_LINES} "
                             f"(function), with no reason in LONGER and the README: {unexplained}")
    stale = sorted(set(LONGER) - set(found))
    assert not stale, f"no longer too long, drop them from LONGER and the README: {stale}"
