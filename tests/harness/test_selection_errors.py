"""Unknown or empty selections are usage errors with the closest names (issue 13, point 4).

A CI line with a typo must not run nothing and stay green; an engine declaring a feature the
suite does not know is warned about loudly (an error under --strict): see harness/selection.py
for why it is not an error by default.
"""

from __future__ import annotations

import pytest

from castrules.harness.names import UnknownNameError
from castrules.harness.selection import select_checked
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
def test_a_selection_of_nothing_is_refused_with_the_closest_names(small_suite, args, expected):
    from castrules.harness.cli import build_parser
    from castrules.harness.suite import load_suite

    parsed = build_parser().parse_args(["run", *args])
    with pytest.raises(UnknownNameError) as info:
        select_checked(load_suite(small_suite.root), parsed.keyword, parsed.features_include,
                       parsed.features_exclude, parsed.ids)
    assert expected in str(info.value)


@pytest.mark.parametrize("command", ["run", "list"])
def test_a_selection_of_nothing_exits_2_before_running(small_suite, command):
    done = castrules(small_suite, command, "--features-include", "prowel")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "castrules: error: --features-include: unknown feature(s): 'prowel' (did you mean prowl?)" in done.stderr
    assert "0 cases" not in done.stdout and "pass" not in done.stdout


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
