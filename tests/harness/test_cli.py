"""The castrules command line: exit statuses, reports, expectations files, shards and -j."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from castrules.harness.report_jsonl import read_report
from tests.conftest import castrules, good_case

HERE = Path(__file__).resolve().parent
ENGINE = "fake_inprocess_engine:Engine"   # right about ids ending in "bears", wrong otherwise


@pytest.fixture
def cli_suite(suite_builder):
    b = suite_builder
    b.case("cases/casting/bears.yaml", good_case())
    b.case("cases/casting/wrong.yaml", good_case("casting/fixture/wrong"))
    b.case("cases/casting/other-bears.yaml", good_case("casting/fixture/other-bears"))
    b.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return b




def test_run_exit_1_on_failure_with_diff_and_summary(cli_suite):
    done = castrules(cli_suite, "run", "--engine", ENGINE)
    assert done.returncode == 1
    assert "FAIL: casting/fixture/wrong  (cases/casting/wrong.yaml; rules 601.2a)" in done.stdout
    assert "after step 1: total_cost: expected {1}{G}, observed {5}" in done.stdout
    # the oracle explains, beside the diff, what the rules do in the failing case
    assert "the oracle's explanation of the case:" in done.stdout and "[601.2f]" in done.stdout
    assert "By feature:" in done.stdout and "By rule:" in done.stdout
    assert "4 cases: 2 pass, 1 fail, 1 unsupported" in done.stdout


def test_usage_error_exits_2(cli_suite):
    assert castrules(cli_suite, "run", "--engine", "no_such_module:Engine").returncode == 2
    assert castrules(cli_suite, "run", "--shard", "3/2").returncode == 2


def test_expectations_keep_ci_green_and_catch_regressions_and_unexpected_passes(cli_suite, tmp_path):
    expectations = tmp_path / "exp.yaml"
    update = castrules(cli_suite, "run", "--engine", ENGINE, "--update-expectations", str(expectations))
    assert update.returncode == 0 and expectations.exists()   # writing the file is the job: done
    assert "casting/fixture/wrong" in expectations.read_text()
    green = castrules(cli_suite, "run", "--engine", ENGINE, "--expectations", str(expectations))
    assert green.returncode == 0, green.stdout
    assert "1 known failure" in green.stdout
    # a regression: a case that passed now fails
    cli_suite.case("cases/casting/bears.yaml", good_case("casting/fixture/bears-now-wrong"))
    red = castrules(cli_suite, "run", "--engine", ENGINE, "--expectations", str(expectations))
    assert red.returncode == 1 and "FAIL: casting/fixture/bears-now-wrong" in red.stdout
    # an unexpected pass: a listed case passes
    expectations.write_text("cases:\n  casting/fixture/other-bears: {status: fail, reason: was broken}\n")
    cli_suite.case("cases/casting/bears.yaml", good_case())
    unexpected = castrules(cli_suite, "run", "--engine", ENGINE, "--expectations", str(expectations), "-k", "bears")
    assert unexpected.returncode == 1 and "UNEXPECTED_PASS: casting/fixture/other-bears" in unexpected.stdout


def test_reports_for_machines_and_people(cli_suite, tmp_path):
    out = tmp_path / "out"
    done = castrules(cli_suite, "run", "--engine", ENGINE, "--report", str(out / "r.jsonl"), "--markdown", str(out / "s.md"),
                     "--html", str(out / "r.html"), "--badges", str(out / "badges"), "--junit", str(out / "j.xml"))
    assert done.returncode == 1
    report = read_report(out / "r.jsonl")
    assert not report.truncated and report.problems == []
    assert report.header["engine"]["name"] == "fake-inprocess" and report.header["cases"] == 4
    assert [c["status"] for c in report.cases].count("fail") == 1
    failing = next(c for c in report.cases if c["status"] == "fail")
    assert failing["mismatches"][0] == {"where": "after step 1", "path": "total_cost", "expected": "{1}{G}", "observed": "{5}"}
    assert report.footer["unexpected"] == 1
    markdown = (out / "s.md").read_text()
    assert "casting/fixture/wrong" in markdown and "By rule" in markdown
    html = (out / "r.html").read_text()
    assert "<h2 id=by-rule>By rule</h2>" in html and "601.2a" in html and 'id="casting/fixture/wrong"' in html
    badge = json.loads((out / "badges" / "casting.json").read_text())
    assert badge["schemaVersion"] == 1 and badge["message"] == "2/3 passing"
    suite = ElementTree.parse(out / "j.xml").getroot().find("testsuite")
    assert suite.get("tests") == "4" and suite.get("failures") == "1"


def test_truncated_report_is_detected(cli_suite, tmp_path):
    path = tmp_path / "r.jsonl"
    castrules(cli_suite, "run", "--engine", ENGINE, "--report", str(path))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")
    report = read_report(path)
    assert report.truncated and any("truncated" in p for p in report.problems)
    done = castrules(cli_suite, "report", str(path), "--markdown", str(tmp_path / "s.md"))
    assert done.returncode == 2 and "truncated" in done.stderr
    assert "cut off" in (tmp_path / "s.md").read_text()


def test_shards_split_the_suite_once(cli_suite):
    seen = []
    for k in (1, 2, 3):
        done = castrules(cli_suite, "run", "--engine", ENGINE, "--shard", f"{k}/3", "-v", "--no-tables")
        seen += [line.split()[1] for line in done.stdout.splitlines()
                 if len(line.split()) == 2 and line.startswith(("PASS ", "FAIL ", "UNSUPPORTED "))]
    assert sorted(seen) == sorted(["casting/fixture/bears", "casting/fixture/wrong", "casting/fixture/other-bears",
                                   "prowl/fixture/needs-prowl"])


def test_parallel_run_gives_the_serial_results(cli_suite, tmp_path):
    serial = castrules(cli_suite, "run", "--engine", ENGINE, "--report", str(tmp_path / "s.jsonl"))
    parallel = castrules(cli_suite, "run", "--engine", ENGINE, "-j", "2", "--report", str(tmp_path / "p.jsonl"))
    assert serial.returncode == parallel.returncode == 1
    strip = lambda r: [(c["id"], c["status"], c.get("mismatches")) for c in read_report(r).cases]
    assert strip(tmp_path / "s.jsonl") == strip(tmp_path / "p.jsonl")


def test_export_bundle_validates(cli_suite, tmp_path):
    bundle = tmp_path / "bundle.json"
    assert castrules(cli_suite, "export", "--out", str(bundle)).returncode == 0
    assert castrules(cli_suite, "validate", "--bundle", str(bundle)).returncode == 0
    data = json.loads(bundle.read_text())
    data["cases"][0]["setup"]["objects"][0]["card"] = "Nonexistent Card"
    bundle.write_text(json.dumps(data))
    done = castrules(cli_suite, "validate", "--bundle", str(bundle))
    assert done.returncode == 2 and "/cases/0/setup/objects/0/card" in done.stdout


def test_list_json(cli_suite):
    done = castrules(cli_suite, "list", "--json", "--features-include", "prowl")
    assert [c["id"] for c in json.loads(done.stdout)] == ["prowl/fixture/needs-prowl"]


def test_the_in_process_helper_gives_what_the_command_gives(cli_suite, tmp_path):
    """tests/conftest.py runs castrules in this process (for speed): it must say and exit what
    ``python -m castrules`` does, for a run and for a usage error."""
    for args in (["run", "--engine", ENGINE, "-q", "--no-tables"], ["run", "--features-include", "prowel"]):
        inside, real = castrules(cli_suite, *args), castrules(cli_suite, *args, process=True)
        assert (inside.returncode, inside.stdout, inside.stderr) == (real.returncode, real.stdout, real.stderr)
        assert inside.returncode in (1, 2) and (inside.stdout or inside.stderr)
