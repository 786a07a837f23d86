"""Expectations files are never lost (issue 13, point 1).

An update merges the run into the file: cases not selected, not run, in other shards or not
supported keep their entries; hand-written reasons and issue links stay; writing exits 0. Ids
of no case are reported (a warning, an error under --strict); the issue link has one name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from castrules.harness.expectations import ExpectationsError, load_expectations
from tests.conftest import good_case
from tests.harness.test_cli import ENGINE, castrules

REPO = Path(__file__).resolve().parents[2]
WRONG = [f"casting/fixture/wrong-{n}" for n in range(6)]   # the fake engine fails all six


@pytest.fixture
def six_failing(suite_builder):
    for case_id in WRONG:
        suite_builder.case(f"cases/casting/{case_id.rsplit('/', 1)[1]}.yaml",
                           good_case(case_id, title=f"{case_id} on the fake engine"))
    suite_builder.case("cases/casting/bears.yaml", good_case())
    suite_builder.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return suite_builder


def entries(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]


def hand_written(path: Path, extra: dict | None = None) -> None:
    cases = {case_id: {"status": "fail", "reason": f"hand-written {n}", "issue_url": f"https://example.invalid/{n}"}
             for n, case_id in enumerate(WRONG)}
    cases.update(extra or {})
    path.write_text(yaml.safe_dump({"engine": "fake-inprocess", "cases": cases}), encoding="utf-8")


def test_a_selection_keeps_the_entries_of_the_cases_it_did_not_select(six_failing, tmp_path):
    path = tmp_path / "exp.yaml"
    hand_written(path)
    done = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path), "-k", "wrong-3")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(entries(path)) == WRONG
    assert "0 added, 0 removed, 6 kept" in done.stdout


def test_shards_keep_each_others_entries(six_failing, tmp_path):
    path = tmp_path / "exp.yaml"
    first = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path), "--shard", "1/2")
    second = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path), "--shard", "2/2")
    assert (first.returncode, second.returncode) == (0, 0), first.stderr + second.stderr
    assert sorted(entries(path)) == WRONG
    green = castrules(six_failing, "run", "--engine", ENGINE, "--expectations", str(path))
    assert green.returncode == 0 and "6 known failure" in green.stdout


def test_hand_written_fields_survive_an_update_without_expectations(six_failing, tmp_path):
    path = tmp_path / "exp.yaml"
    hand_written(path)
    done = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    written = entries(path)
    assert written[WRONG[2]] == {"status": "fail", "reason": "hand-written 2", "issue_url": "https://example.invalid/2"}
    assert "6 known failure" in done.stdout     # the file being updated was also the run's expectations


def test_new_failures_are_added_and_passes_removed_only_when_they_ran(six_failing, tmp_path):
    path = tmp_path / "exp.yaml"
    listed = {"casting/fixture/bears": {"status": "fail", "reason": "used to fail"},
              "prowl/fixture/needs-prowl": {"status": "fail", "reason": "unsupported: never runs here"}}
    path.write_text(yaml.safe_dump({"cases": listed}), encoding="utf-8")
    done = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    written = entries(path)
    assert "casting/fixture/bears" not in written                    # it ran and passed
    assert written["prowl/fixture/needs-prowl"]["reason"] == "unsupported: never runs here"
    assert sorted(set(written) - {"prowl/fixture/needs-prowl"}) == WRONG
    assert "expected {1}{G}, observed {5}" in written[WRONG[0]]["reason"]    # a generated reason for new ones
    assert "6 added, 1 removed, 1 kept" in done.stdout


def test_writing_a_new_file_exits_0_and_the_next_run_is_green(six_failing, tmp_path):
    path = tmp_path / "sub" / "exp.yaml"
    done = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path))
    assert done.returncode == 0 and path.is_file(), done.stderr
    assert castrules(six_failing, "run", "--engine", ENGINE, "--expectations", str(path)).returncode == 0


def test_stale_ids_are_a_warning_and_an_error_under_strict(six_failing, tmp_path):
    path = tmp_path / "exp.yaml"
    hand_written(path, {"casting/fixture/wrong-33": {"reason": "misspelt id"}})
    warned = castrules(six_failing, "run", "--engine", ENGINE, "--expectations", str(path))
    assert warned.returncode == 0, warned.stderr
    assert "warning" in warned.stderr and "'casting/fixture/wrong-33'" in warned.stderr
    assert "did you mean casting/fixture/wrong-3" in warned.stderr
    strict = castrules(six_failing, "run", "--engine", ENGINE, "--expectations", str(path), "--strict")
    assert strict.returncode == 2 and "casting/fixture/wrong-33" in strict.stderr
    assert "0 cases" not in strict.stdout and "known failure" not in strict.stdout   # stopped before running
    # an update keeps the stale entry (it is the user's to remove) and still warns
    update = castrules(six_failing, "run", "--engine", ENGINE, "--update-expectations", str(path))
    assert update.returncode == 0 and "casting/fixture/wrong-33" in entries(path)
    assert "casting/fixture/wrong-33" in update.stderr


def test_a_missing_expectations_file_is_a_usage_error(six_failing, tmp_path):
    done = castrules(six_failing, "run", "--engine", ENGINE, "--expectations", str(tmp_path / "nosuch.yaml"))
    assert done.returncode == 2
    assert "nosuch.yaml: no such expectations file" in done.stderr and "--update-expectations" in done.stderr


def test_the_issue_link_has_one_name_everywhere(tmp_path):
    expectations = json.loads((REPO / "schema" / "expectations.schema.json").read_text())
    entry = expectations["properties"]["cases"]["additionalProperties"]["properties"]
    protocol = json.loads((REPO / "schema" / "protocol.schema.json").read_text())
    skipped = json.dumps(protocol)
    report = (REPO / "schema" / "report.schema.json").read_text()
    assert "issue_url" in entry and "issue" not in entry
    assert '"issue_url"' in skipped and '"issue"' not in skipped
    assert '"issue_url"' in report and '"issue"' not in report
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "`issue_url`" in readme
    old = tmp_path / "old.yaml"
    old.write_text("cases:\n  casting/fixture/bears: {reason: off by one, issue: 'https://example.invalid/1'}\n")
    with pytest.raises(ExpectationsError, match=r"old.yaml: at /cases/casting~1fixture~1bears/issue: .*'issue_url'"):
        load_expectations(old)


def test_the_merge_changes_only_what_ran():
    from castrules.harness.expectations import Expectations, KnownFailure, updated
    from castrules.harness.results import Result, Status

    listed = {f"t/{name}": KnownFailure("fail", f"hand-written {name}", f"https://example.invalid/{name}")
              for name in ("not-run", "unsupported", "skipped", "passes", "errors", "absent")}
    document = {"engine": "e", "cases": {k: {"status": v.status, "reason": v.reason, "issue_url": v.issue_url,
                                             "note": "a field of the user's"} for k, v in listed.items()}}
    before = Expectations(listed, None, document)
    results = [Result("t/not-run", Status.NOT_RUN), Result("t/unsupported", Status.UNSUPPORTED),
               Result("t/skipped", Status.SKIPPED), Result("t/passes", Status.UNEXPECTED_PASS, raw_status=Status.PASS),
               Result("t/errors", Status.ERROR, message="boom"), Result("t/new", Status.FAIL, message="new one")]
    after = updated(before, results, "e")["cases"]
    assert set(after) == {"t/not-run", "t/unsupported", "t/skipped", "t/errors", "t/absent", "t/new"}
    assert after["t/errors"] == {"status": "error", "reason": "hand-written errors",
                                 "issue_url": "https://example.invalid/errors", "note": "a field of the user's"}
    assert after["t/not-run"] == document["cases"]["t/not-run"]
    assert after["t/new"] == {"status": "fail", "reason": "new one"}
