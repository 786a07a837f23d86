"""The pytest route inside an engine project (issue 13, point 5; the pytest side of point 4).

It stops once, as a usage error, when the engine cannot load or the expectations file is
missing or bad; it claims only names of its own, so a project whose conftest.py or plugin
defines ``--engine`` runs its own tests and reaches castrules through ``--castrules-engine``;
its markers are namespaced; selecting nothing follows pytest's convention (exit 5); node ids
and JUnit class names do not depend on where the suite is installed.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import SuiteBuilder, good_case
from tests.harness.test_pytest_plugin import pytest_run

FAKE = "fake_inprocess_engine:Engine"
USAGE_ERROR, NO_TESTS = 4, 5
OWN_ENGINE_OPTION = '''
def pytest_addoption(parser):
    parser.addoption("--engine", default="none", help="this project's own engine choice")
'''
OWN_TEST = '''
def test_own_engine_option(request):
    assert request.config.getoption("engine") == "theirs"
'''


@pytest.fixture
def suite(suite_builder):
    suite_builder.case("cases/casting/bears.yaml", good_case())
    suite_builder.case("cases/casting/wrong.yaml", good_case("casting/fixture/wrong"))
    suite_builder.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return suite_builder


def project(tmp_path: Path, conftest: str = "", **files: str) -> Path:
    root = tmp_path / "engine-project"
    (root / "tests").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n", encoding="utf-8")
    (root / "tests" / "conftest.py").write_text(conftest, encoding="utf-8")
    (root / "tests" / "test_own.py").write_text(OWN_TEST, encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.mark.parametrize("args", [["--engine=nosuchmod:Engine"], ["--castrules-engine=nosuchmod:Engine"]])
def test_an_engine_that_cannot_load_stops_the_session_once(suite, tmp_path, args):
    done = pytest_run(suite, *args, cwd=tmp_path)
    assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
    assert done.stderr.count("cannot import engine module 'nosuchmod'") == 1
    assert "passed" not in done.stdout and "failed" not in done.stdout
    assert len((done.stdout + done.stderr).splitlines()) < 10


def test_an_engine_named_in_the_ini_file_that_cannot_load_stops_it_too(suite, tmp_path):
    root = project(tmp_path, **{"pytest.ini": "[pytest]\ntestpaths = tests\ncastrules_engine = nosuchmod:Engine\n"})
    done = pytest_run(suite, cwd=root)
    assert done.returncode == USAGE_ERROR and "cannot import engine module 'nosuchmod'" in done.stderr


@pytest.mark.parametrize("content, expected", [
    (None, "no such expectations file"),
    ("cases: [\n", "invalid YAML"),
    ("cases:\n  casting/fixture/wrong: {status: fail}\n", "'reason' is a required property"),
])
def test_a_missing_or_bad_expectations_file_is_a_usage_error(suite, tmp_path, content, expected):
    path = tmp_path / "exp.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    options = ("--expectations", "--castrules-expectations") if content is None else ("--castrules-expectations",)
    for option in options:
        done = pytest_run(suite, f"--engine={FAKE}", f"{option}={path}", cwd=tmp_path)
        assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
        assert expected in done.stderr and "exp.yaml" in done.stderr
        assert "passed" not in done.stdout


def test_stale_expectations_ids_are_warned_about(suite, tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text("cases:\n  casting/fixture/wrongg: {status: fail, reason: misspelt}\n", encoding="utf-8")
    done = pytest_run(suite, f"--engine={FAKE}", f"--castrules-expectations={path}", "-k", "bears", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "'casting/fixture/wrongg' (did you mean casting/fixture/wrong" in done.stdout + done.stderr


def test_a_project_with_its_own_engine_option_runs_its_tests_and_reaches_castrules_by_prefix(suite, tmp_path):
    root = project(tmp_path, conftest=OWN_ENGINE_OPTION)
    own = pytest_run(suite, "--engine=theirs", cwd=root)
    assert own.returncode == 0, own.stdout + own.stderr
    assert "1 passed" in own.stdout and "casting/fixture" not in own.stdout   # castrules stays out of it
    both = pytest_run(suite, "--engine=theirs", f"--castrules-engine={FAKE}", cwd=root)
    assert both.returncode == 1, both.stdout + both.stderr                    # the fake fails one case
    assert "PASSED tests/test_own.py::test_own_engine_option" in both.stdout
    assert "PASSED castrules/casting/bears.yaml::casting/fixture/bears" in both.stdout
    assert "FAILED castrules/casting/wrong.yaml::casting/fixture/wrong" in both.stdout


def test_a_plugin_with_its_own_engine_option_keeps_it_too(suite, tmp_path):
    root = project(tmp_path, **{"their_plugin.py": OWN_ENGINE_OPTION})
    done = pytest_run(suite, "-p", "their_plugin", "--engine=theirs", f"--castrules-engine={FAKE}", "-k", "own or bears",
                      cwd=root, pythonpath=[root])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_markers_are_namespaced_and_a_misspelt_one_is_a_usage_error(suite, tmp_path):
    listed = pytest_run(suite, "--markers", cwd=tmp_path).stdout
    assert "@pytest.mark.castrules_prowl:" in listed and "@pytest.mark.castrules:" in listed
    assert "@pytest.mark.prowl:" not in listed and "@pytest.mark.x:" not in listed
    chosen = pytest_run(suite, f"--engine={FAKE}", "-m", "castrules_prowl", cwd=tmp_path)
    assert "1 skipped" in chosen.stdout and "deselected" in chosen.stdout, chosen.stdout
    wrong = pytest_run(suite, f"--engine={FAKE}", "-m", "castrules_prowel", cwd=tmp_path)
    assert wrong.returncode == USAGE_ERROR and "did you mean castrules_prowl" in wrong.stderr


def test_selecting_no_case_is_pytests_no_tests_exit(suite, tmp_path):
    done = pytest_run(suite, f"--engine={FAKE}", "-k", "nosuch", cwd=tmp_path)
    assert done.returncode == NO_TESTS, done.stdout + done.stderr


def _junit_names(suite: SuiteBuilder, tmp_path: Path, label: str) -> set[tuple[str, str]]:
    junit = tmp_path / f"{label}.xml"
    pytest_run(suite, f"--engine={FAKE}", f"--junitxml={junit}", cwd=tmp_path)
    return {(c.get("classname"), c.get("name")) for c in ElementTree.parse(junit).getroot().iter("testcase")}


def test_node_ids_and_junit_class_names_do_not_depend_on_where_the_suite_lives(suite, tmp_path):
    elsewhere = tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "castrules" / "suite"
    shutil.copytree(suite.root, elsewhere)
    here = _junit_names(suite, tmp_path, "here")
    moved = SuiteBuilder.__new__(SuiteBuilder)   # the same files, somewhere an environment would put them
    moved.root = elsewhere
    there = _junit_names(moved, tmp_path, "there")
    assert here == there and len(here) == 3
    assert ("castrules.casting.bears.yaml", "casting/fixture/bears") in here
    assert not any("site-packages" in c or "venv" in c or str(tmp_path.name) in c for c, _ in there)
