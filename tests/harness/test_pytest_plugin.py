"""The pytest plugin: one item per case, markers per feature, -k, junitxml, broken files reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import good_case

HERE = Path(__file__).resolve().parent


@pytest.fixture
def plugin_suite(suite_builder):
    b = suite_builder
    b.case("cases/casting/bears.yaml", good_case())
    b.case("cases/casting/wrong.yaml", good_case("casting/fixture/wrong"))
    b.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    b.write("cases/casting/broken.yaml", "id: [\n")
    return b


def _plugin_args() -> list[str]:
    """Load the plugin by hand when castrules is not installed (no pytest11 entry point)."""
    from importlib.metadata import entry_points

    installed = any(ep.value == "castrules.harness.pytest_plugin" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "castrules.harness.pytest_plugin"]


def pytest_run(suite, *args: str, cwd: Path, pythonpath: list[Path] = ()) -> subprocess.CompletedProcess:
    env = {**os.environ, "CASTRULES_SUITE": str(suite.root),
           "PYTHONPATH": os.pathsep.join([*map(str, pythonpath), str(HERE / "fake_inprocess"), str(HERE.parent.parent),
                                          os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *_plugin_args(), *args],
                          capture_output=True, text=True, env=env, cwd=cwd)


def test_each_case_is_an_item_with_its_status(plugin_suite, tmp_path):
    junit = tmp_path / "junit.xml"
    done = pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", f"--junitxml={junit}", cwd=tmp_path)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "PASSED" in out and "casting/bears.yaml::casting/fixture/bears" in out
    assert "FAILED" in out and "casting/fixture/wrong" in out
    assert "expected {1}{G}, observed {5}" in out
    assert "SKIPPED" in out and "engine lacks feature(s): prowl" in out
    assert "invalid case file" in out and "cases/casting/broken.yaml:2: at /: invalid YAML" in out
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    assert len(list(cases)) == 4


def test_marker_selects_only_that_feature(plugin_suite, tmp_path):
    done = pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", "-m", "castrules_prowl", cwd=tmp_path)
    assert "1 skipped" in done.stdout and "3 deselected" in done.stdout, done.stdout


def test_keyword_selects_by_case_id(plugin_suite, tmp_path):
    done = pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", "-k", "bears", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "1 passed" in done.stdout


def test_expectations_file_turns_failure_into_xfail(plugin_suite, tmp_path):
    expectations = tmp_path / "exp.yaml"
    expectations.write_text("cases:\n  casting/fixture/wrong: {status: fail, reason: total cost off}\n")
    done = pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", f"--expectations={expectations}",
                      "-k", "not broken", cwd=tmp_path)
    assert "1 xfailed" in done.stdout and "1 passed" in done.stdout, done.stdout


def _outcomes(junit: Path) -> list[tuple[str, str]]:
    out = []
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        kind = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        out.append((case.get("name"), kind))
    return sorted(out)


def test_xdist_gives_the_serial_results(plugin_suite, tmp_path):
    pytest.importorskip("xdist", reason="pytest-xdist is not installed")
    serial, parallel = tmp_path / "serial.xml", tmp_path / "parallel.xml"
    pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", f"--junitxml={serial}", cwd=tmp_path)
    pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", f"--junitxml={parallel}", "-n", "2", cwd=tmp_path)
    assert _outcomes(serial) == _outcomes(parallel) and len(_outcomes(serial)) == 4


def test_json_case_files_are_cases_too(suite_builder, tmp_path):
    import json

    suite_builder.write("cases/casting/bears.json", json.dumps(good_case()))
    done = pytest_run(suite_builder, "--engine=fake_inprocess_engine:Engine", cwd=tmp_path)
    assert "1 passed" in done.stdout, done.stdout


def _collected(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_whole_cases_folder_collects_as_pytests_walk_does(plugin_suite, tmp_path):
    """The cases folder collected whole (one collector) gives the node ids, order and ``-k``
    names of pytest's walk, file by file (taken when an argument names a folder inside it)."""
    engine, cases = "--engine=fake_inprocess_engine:Engine", plugin_suite.root / "cases"
    whole = _collected(pytest_run(plugin_suite, engine, "--collect-only", "-q", cwd=tmp_path))
    walked = _collected(pytest_run(plugin_suite, engine, "--collect-only", "-q", str(cases / "casting"),
                                   str(cases / "prowl"), cwd=tmp_path))
    assert whole == walked and len(whole) == 4, (whole, walked)
    by_file = pytest_run(plugin_suite, engine, "--collect-only", "-q", "-k", "bears.yaml or prowl", cwd=tmp_path)
    assert _collected(by_file) == [whole[0], whole[3]], by_file.stdout
    ignored = pytest_run(plugin_suite, engine, "--collect-only", "-q", f"--ignore={cases / 'prowl'}", cwd=tmp_path)
    assert _collected(ignored) == whole[:3], ignored.stdout
    one_file = pytest_run(plugin_suite, engine, "--collect-only", "-q", f"--ignore={cases / 'casting' / 'wrong.yaml'}",
                          "--ignore-glob=*/needs-*", cwd=tmp_path)
    assert _collected(one_file) == whole[:2], one_file.stdout


def test_a_session_with_cases_keeps_what_collection_made_out_of_the_collectors_sight(plugin_suite, tmp_path):
    """After collecting castrules' cases the plugin freezes what exists (gc.freeze); a session
    with no case of castrules' (an engine project's own tests) is left alone."""
    (tmp_path / "test_frozen.py").write_text("import gc\n\ndef test_freeze_count():\n"
                                             "    print('FROZEN', gc.get_freeze_count() > 0)\n")
    with_cases = pytest_run(plugin_suite, "--engine=fake_inprocess_engine:Engine", "-s", "test_frozen.py",
                            str(plugin_suite.root / "cases"), cwd=tmp_path)
    alone = pytest_run(plugin_suite, "-s", "test_frozen.py", cwd=tmp_path)   # no engine named: no case collected
    assert "FROZEN True" in with_cases.stdout, with_cases.stdout + with_cases.stderr
    assert "FROZEN False" in alone.stdout and alone.returncode == 0, alone.stdout + alone.stderr
