"""An engine project's own regression cases: `--cases DIR` for run, list, validate and explain."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import castrules, good_case

HERE = Path(__file__).resolve().parent
ENGINE = "fake_inprocess_engine:Engine"   # right about ids ending in "bears", wrong otherwise
LOCAL_CARD = {"name": "Test Local Bear", "real": False, "mana_cost": "{1}{G}", "type_line": "Creature — Bear",
              "power": "2", "toughness": "2", "text": "A card of the engine project's own."}




def write(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def local_case(case_id: str, card: str = "Grizzly Bears") -> dict:
    doc = good_case(case_id)
    doc["setup"]["objects"][0]["card"] = card
    return doc


@pytest.fixture
def project(suite_builder, tmp_path):
    suite_builder.case("cases/casting/bears.yaml", good_case())
    folder = tmp_path / "engine" / "regressions"
    write(folder / "catalog" / "cards.yaml", [LOCAL_CARD])
    write(folder / "r12.yaml", local_case("myengine/regression-12-bears", "Test Local Bear"))
    write(folder / "deeper" / "r13.yaml", local_case("myengine/regression-13"))
    write(folder / "same-id.yaml", local_case("casting/fixture/bears"))   # the suite's id, in the file
    return suite_builder, tmp_path / "engine"


def test_run_adds_the_projects_cases_in_a_namespace_of_their_own(project):
    suite, cwd = project
    report = cwd / "r.jsonl"
    done = castrules(suite, "run", "--engine", ENGINE, "--cases", "regressions", "-q", "--report", str(report), cwd=cwd)
    assert done.returncode == 1
    ids = {line["id"]: line["status"] for line in map(json.loads, report.read_text().splitlines()) if line["type"] == "case"}
    assert ids == {"casting/fixture/bears": "pass", "local:casting/fixture/bears": "pass",
                   "local:myengine/regression-12-bears": "pass", "local:myengine/regression-13": "fail"}
    assert done.stdout.splitlines()[0] == ("FAIL local:myengine/regression-13 (regressions/deeper/r13.yaml): "
                                           "after step 1: total_cost: expected {1}{G}, observed {5}")
    header = json.loads(report.read_text().splitlines()[0])
    assert header["selection"] == {"cases": ["regressions"]}


def test_the_engine_receives_the_namespaced_id_and_the_local_cards(project, tmp_path):
    suite, cwd = project
    (cwd / "echo_engine.py").write_text(
        "import json\nclass Engine:\n    name, version, features = 'echo', '1', frozenset({'casting'})\n"
        "    def run(self, request):\n"
        "        with open('requests.jsonl', 'a') as f:\n"
        "            f.write(json.dumps({'id': request['case']['id'], 'cards': sorted(request['cards'])}) + '\\n')\n"
        "        return {'status': 'skipped', 'reason': 'only recording'}\n")
    env_path = os.pathsep.join([str(cwd), str(HERE.parent.parent)])
    done = subprocess.run([sys.executable, "-m", "castrules", "run", "--engine", "py:echo_engine:Engine", "--cases", "regressions",
                           "--id", "local:*", "-q"], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "CASTRULES_SUITE": str(suite.root), "PYTHONPATH": env_path})
    assert done.returncode == 0, done.stderr
    seen = [json.loads(line) for line in (cwd / "requests.jsonl").read_text().splitlines()]
    assert {"id": "local:myengine/regression-12-bears", "cards": ["Forest", "Test Local Bear"]} in seen
    assert sorted(s["id"] for s in seen) == ["local:casting/fixture/bears", "local:myengine/regression-12-bears",
                                             "local:myengine/regression-13"]


def test_list_explain_and_a_repeated_option(project):
    suite, cwd = project
    write(cwd / "more" / "r20.yaml", local_case("myengine/regression-20"))
    listed = castrules(suite, "list", "--json", "--cases", "regressions", "--cases", "more", cwd=cwd)
    assert listed.returncode == 0, listed.stderr
    files = {c["id"]: c["file"] for c in json.loads(listed.stdout)}
    assert files["local:myengine/regression-20"] == "more/r20.yaml"
    assert files["local:myengine/regression-13"] == "regressions/deeper/r13.yaml"
    explained = castrules(suite, "explain", "local:myengine/regression-12-bears", "--cases", "regressions", cwd=cwd)
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout.startswith("local:myengine/regression-12-bears: ") and "result: pass" in explained.stdout


def test_validate_checks_local_cases_and_cards_like_the_suites(project):
    suite, cwd = project
    folder = cwd / "regressions"
    write(folder / "bad-card.yaml", local_case("myengine/unknown-card", "No Such Card"))
    broken = local_case("myengine/no-title")
    del broken["title"]
    write(folder / "no-title.yaml", broken)
    write(folder / "catalog" / "replaces.yaml", [{**LOCAL_CARD, "name": "Forest"}])
    write(folder / "r12-again.yaml", local_case("myengine/regression-12-bears"))
    done = castrules(suite, "validate", "--cases", "regressions", cwd=cwd)
    assert done.returncode == 2
    out = done.stdout
    assert "regressions/bad-card.yaml:" in out and "No Such Card" in out
    assert "regressions/no-title.yaml:" in out and "title" in out
    assert "regressions/catalog/replaces.yaml" in out and "'Forest' is already defined in cases/catalog/cards.yaml" in out
    assert "regressions/r12-again.yaml" in out and "duplicate id 'local:myengine/regression-12-bears'" in out
    assert str(cwd) not in out                                   # names as the project knows them, not machine paths


def test_a_missing_folder_is_a_usage_error(project):
    suite, cwd = project
    for command in (["run", "-q"], ["list"], ["validate"], ["explain", "x/y"]):
        done = castrules(suite, *command, "--cases", "regresions", cwd=cwd)
        assert done.returncode == 2 and "--cases regresions: no such folder" in done.stderr, command


def test_a_link_out_of_the_folder_is_not_followed(project, tmp_path):
    suite, cwd = project
    outside = write(tmp_path / "elsewhere" / "x.yaml", local_case("myengine/outside"))
    (cwd / "regressions" / "linked.yaml").symlink_to(outside)
    done = castrules(suite, "validate", "--cases", "regressions", cwd=cwd)
    assert done.returncode == 2 and "regressions/linked.yaml" in done.stdout and "outside the folder" in done.stdout


def test_expectations_name_local_cases_by_their_namespaced_ids(project):
    suite, cwd = project
    (cwd / "exp.yaml").write_text("cases:\n  local:myengine/regression-13: {status: fail, reason: our bug 13}\n")
    done = castrules(suite, "run", "--engine", ENGINE, "--cases", "regressions", "--expectations", "exp.yaml", "-q", cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 known failure" in done.stdout.splitlines()[-1]


def test_the_pytest_route_takes_the_same_folders(project):
    from tests.harness.test_pytest_plugin import pytest_run

    suite, cwd = project
    write(cwd / "regressions" / "bad-card.yaml", local_case("myengine/unknown-card", "No Such Card"))
    done = pytest_run(suite, "--castrules-engine=fake_inprocess_engine:Engine", "--castrules-cases", "regressions", cwd=cwd)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "PASSED castrules/local/regressions/r12.yaml::local:myengine/regression-12-bears" in out
    assert "FAILED castrules/local/regressions/deeper/r13.yaml::local:myengine/regression-13" in out
    assert "PASSED castrules/casting/bears.yaml::casting/fixture/bears" in out       # the suite runs too
    assert "invalid case file" in out and "regressions/bad-card.yaml" in out and "No Such Card" in out
    assert "regressions/catalog" not in out                  # the project's cards are not collected as cases
    missing = pytest_run(suite, "--castrules-engine=fake_inprocess_engine:Engine", "--castrules-cases", "nosuch", cwd=cwd)
    assert missing.returncode == 4 and "--castrules-cases nosuch: no such folder" in missing.stderr
