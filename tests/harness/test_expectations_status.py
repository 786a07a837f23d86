"""An expectations entry names the status it expects; another bad status is unexpected (issue:
faults, point 11). A file that lists a case as failing must not hide its crash."""

from __future__ import annotations

import pytest

from castrules.harness.expectations import Expectations, KnownFailure, load_expectations
from castrules.harness.results import Result, Status
from tests.conftest import good_case
from tests.harness.test_cli import castrules

CASE = "casting/fixture/x"


@pytest.mark.parametrize("listed, got, expected", [
    ("fail", Status.FAIL, Status.KNOWN_FAILURE),
    ("error", Status.ERROR, Status.KNOWN_FAILURE),
    ("timeout", Status.TIMEOUT, Status.KNOWN_FAILURE),
    ("fail", Status.ERROR, Status.ERROR),
    ("fail", Status.TIMEOUT, Status.TIMEOUT),
    ("error", Status.FAIL, Status.FAIL),
    ("timeout", Status.ERROR, Status.ERROR),
    ("fail", Status.PASS, Status.UNEXPECTED_PASS),
    ("error", Status.SKIPPED, Status.SKIPPED),
])
def test_only_the_listed_status_is_a_known_failure(listed, got, expected):
    expectations = Expectations({CASE: KnownFailure(listed, "known bug")})
    result = expectations.apply(Result(CASE, got, message="boom"))
    assert result.status is expected
    if expected is got and got in (Status.FAIL, Status.ERROR, Status.TIMEOUT):
        assert result.status.is_unexpected
        assert f"expects {listed} (known bug), but the case gave {got.value}" in result.message
        assert "boom" in result.message


def test_an_entry_without_a_status_expects_a_failure(tmp_path):
    path = tmp_path / "expectations.yaml"
    path.write_text(f"cases:\n  {CASE}: {{reason: old file}}\n", encoding="utf-8")
    expectations = load_expectations(path)
    assert expectations.entries[CASE].status == "fail"
    assert expectations.apply(Result(CASE, Status.FAIL)).status is Status.KNOWN_FAILURE
    assert expectations.apply(Result(CASE, Status.ERROR)).status is Status.ERROR


@pytest.fixture
def crash_suite(suite_builder):
    suite_builder.case("cases/casting/bears.yaml", good_case())
    suite_builder.case("cases/casting/wrong.yaml", good_case("casting/fixture/wrong"))
    suite_builder.case("cases/casting/crash.yaml", good_case("casting/fixture/crash"))
    return suite_builder


def _expectations(tmp_path, crash_status: str):
    path = tmp_path / "expectations.yaml"
    path.write_text("cases:\n"
                    "  casting/fixture/wrong: {status: fail, reason: wrong cost}\n"
                    f"  casting/fixture/crash: {{status: {crash_status}, reason: listed}}\n", encoding="utf-8")
    return path


def test_a_crash_where_a_failure_is_listed_turns_the_run_red(crash_suite, tmp_path):
    path = _expectations(tmp_path, "fail")
    done = castrules(crash_suite, "run", "--engine", "fake_inprocess_engine:Crashy", "--expectations", str(path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ERROR: casting/fixture/crash" in done.stdout
    assert "expects fail (listed), but the case gave error" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_crash_listed_as_an_error_stays_green(crash_suite, tmp_path):
    path = _expectations(tmp_path, "error")
    done = castrules(crash_suite, "run", "--engine", "fake_inprocess_engine:Crashy", "--expectations", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
