"""Unknown or empty selections are usage errors with the closest names (issue 13, point 4).

A CI line with a typo must not run nothing and stay green; an engine declaring a feature the
suite does not know is warned about loudly (an error under --strict): see harness/selection.py
for why it is not an error by default.
"""

from __future__ import annotations

import pytest

from tests.harness.test_cli import ENGINE, castrules


@pytest.fixture
def small_suite(suite_builder):
    from tests.conftest import good_case

    suite_builder.case("cases/casting/bears.yaml", good_case())
    suite_builder.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return suite_builder


@pytest.mark.parametrize("args, expected", [
    (["--features-include", "prowel"], "--features-include: unknown feature(s): 'prowel' (did you mean prowl"),
    (["--features-include", "casting,prowel"], "unknown feature(s): 'prowel' (did you mean prowl"),
    (["--features-exclude", "castng"], "--features-exclude: unknown feature(s): 'castng' (did you mean casting"),
    (["-k", "nosuch"], "the selection -k 'nosuch' selects no case"),
    (["-k", "prowel"], "closest words: 'prowel': prowl"),
    (["--id", "prowl/fixture/needs-prowel"], "--id 'prowl/fixture/needs-prowel' matches no case (closest: prowl/fixture/needs-prowl"),
    (["--id", "casting/*", "--id", "nosuch/*"], "--id 'nosuch/*' matches no case"),
    (["--features-include", "prowl", "--features-exclude", "prowl"], "selects no case"),
])
def test_a_selection_of_nothing_is_a_usage_error(small_suite, args, expected):
    for command in ("run", "list"):
        done = castrules(small_suite, command, *args)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert expected in done.stderr, done.stderr
        assert "0 cases" not in done.stdout


def test_a_good_selection_still_runs(small_suite):
    done = castrules(small_suite, "run", "--features-include", "prowl", "--id", "prowl/*", "-k", "needs")
    assert done.returncode == 0 and "1 cases: 1 pass" in done.stdout.replace("1 case:", "1 cases:"), done.stdout


def test_an_engine_declaring_an_unknown_feature_is_warned_about_loudly(small_suite):
    engine = "fake_inprocess_engine:Misspelt"
    warned = castrules(small_suite, "run", "--engine", engine)
    assert "warning: the engine declares unknown feature(s): 'prowll' (did you mean prowl?)" in warned.stderr
    assert "unsupported" in warned.stdout            # the run goes on, and says what it could not run
    strict = castrules(small_suite, "run", "--engine", engine, "--strict")
    assert strict.returncode == 2 and "'prowll' (did you mean prowl?)" in strict.stderr
    quiet = castrules(small_suite, "run", "--engine", ENGINE)
    assert "declares unknown" not in quiet.stderr
