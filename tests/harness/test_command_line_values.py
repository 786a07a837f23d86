"""Bad command-line values are usage errors (exit 2) with a clear message, before anything runs;
-k is parsed by a bounded parser, never evaluated (issue: faults, point 7)."""

from __future__ import annotations

import pytest

from castrules.harness.cli import main
from castrules.harness.keyword import MAX_DEPTH, parse
from castrules.harness.values import MAX_JOBS


@pytest.mark.parametrize("args, words", [
    (["--timeout", "-1"], "--timeout: expected a number of seconds above 0"),
    (["--timeout", "0"], "--timeout: expected a number of seconds above 0"),
    (["--timeout", "nan"], "--timeout: expected a number of seconds above 0"),
    (["--timeout", "inf"], "--timeout: expected a number of seconds above 0"),
    (["--timeout", "soon"], "--timeout: expected a number of seconds above 0"),
    (["--startup-timeout", "-5"], "--startup-timeout: expected a number of seconds above 0"),
    (["--max-restarts", "-1"], "--max-restarts: expected a whole number of at least 0"),
    (["-j", "0"], f"-j/--jobs: expected a whole number from 1 to {MAX_JOBS}"),
    (["-j", "-1"], f"-j/--jobs: expected a whole number from 1 to {MAX_JOBS}"),
    (["-j", "100000"], f"-j/--jobs: expected a whole number from 1 to {MAX_JOBS}"),
])
def test_bad_run_values_are_usage_errors(capsys, args, words):
    with pytest.raises(SystemExit) as exited:
        main(["run", *args])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_bad_smoke_timeout_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["smoke", "--engine", "cmd:true", "--timeout", "-2"])
    assert exited.value.code == 2
    assert "--timeout: expected a number of seconds above 0" in capsys.readouterr().err


def test_an_empty_engine_is_refused(capsys):
    assert main(["run", "--engine", "", "-q"]) == 2
    assert "the engine spec is empty" in capsys.readouterr().err


@pytest.mark.parametrize("expression, haystack, expected", [
    ("prowl", "prowl/damage x", True),
    ("not prowl", "prowl/damage x", False),
    ("prowl and not damage", "prowl/damage x", False),
    ("prototype or prowl", "prowl/damage x", True),
    ("(a or b) and c", "b c", True),
    ("a or b and c", "a", True),          # and binds tighter than or, as in Python and pytest
    ("not not PROWL", "prowl", True),     # case-insensitive
])
def test_keyword_semantics(expression, haystack, expected):
    assert parse(expression).matches(haystack) is expected


@pytest.mark.parametrize("expression, words", [
    ("not " * 100_000 + "prowl", "characters; at most"),
    ("a or " * 150 + "b", "words and operators; at most"),
    ("not " * (MAX_DEPTH + 1) + "prowl", f"nested more than {MAX_DEPTH} levels deep"),
    ("(" * 60 + "prowl" + ")" * 60, f"nested more than {MAX_DEPTH} levels deep"),
    ("prowl and", "it ends where a word was expected"),
    ("(prowl", "a parenthesis is not closed"),
    ("prowl)", "unexpected ')'"),
    ("and prowl", "'and' where a word was expected"),
    ("", "it is empty"),
    ("__import__('os').system('true')", "unexpected '('"),   # never evaluated: just bad syntax
])
def test_bad_keyword_expressions_are_clear_errors(expression, words):
    with pytest.raises(ValueError, match="bad -k expression") as caught:
        parse(expression)
    assert words in str(caught.value) and len(str(caught.value)) < 300


def test_many_nots_on_the_command_line_are_a_usage_error(capsys):
    assert main(["list", "-k", "not " * 10_000 + "prowl"]) == 2
    err = capsys.readouterr().err
    assert "bad -k expression" in err and "Traceback" not in err
