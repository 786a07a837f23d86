"""Bad case files each get a clear problem (file, pointer, line) while every other case loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from castrules.harness.suite import load_suite
from tests.conftest import good_case


def problems_by_file(suite):
    out = {}
    for problem in suite.problems:
        out.setdefault(problem.file, []).append(problem)
    return out


def test_a_good_suite_has_no_problems(suite_builder):
    suite_builder.case("cases/casting/good.yaml", good_case())
    suite = load_suite(suite_builder.root)
    assert suite.problems == ()
    assert [c.id for c in suite.cases] == ["casting/fixture/bears"]


@pytest.fixture
def broken_suite(suite_builder):
    b = suite_builder
    b.case("cases/casting/good.yaml", good_case())
    b.write("cases/casting/broken-yaml.yaml", "id: casting/fixture/broken\ntitle: [unclosed\n")
    b.case("cases/casting/typo.yaml", good_case("casting/fixture/typo", titel="oops"))
    bad_card = good_case("casting/fixture/unknown-card")
    bad_card["setup"]["objects"][0]["card"] = "Grizly Bears"
    b.case("cases/casting/unknown-card.yaml", bad_card)
    b.case("cases/casting/duplicate.yaml", good_case())
    b.case("cases/casting/unknown-rule.yaml", good_case("casting/fixture/unknown-rule", rules=["601.2z"]))
    b.case("cases/casting/unknown-rule-number.yaml", good_case("casting/fixture/unknown-rule-number", rules=["999.1"]))
    b.case("cases/casting/unknown-feature.yaml", good_case("casting/fixture/unknown-feature", features=["casting", "teleport"]))
    unknown_object = good_case("casting/fixture/unknown-object")
    unknown_object["steps"][0]["cast"]["object"] = "bear"
    b.case("cases/casting/unknown-object.yaml", unknown_object)
    b.case("cases/casting/another-good.yaml", good_case("casting/fixture/another-good"))
    return load_suite(b.root)


def test_every_other_case_still_loads(broken_suite):
    assert sorted(c.id for c in broken_suite.cases) == ["casting/fixture/another-good", "casting/fixture/bears"]


def test_broken_yaml_names_file_and_line(broken_suite):
    [problem] = problems_by_file(broken_suite)["cases/casting/broken-yaml.yaml"]
    assert problem.code == "syntax" and problem.line == 3
    assert "invalid YAML" in problem.message


def test_schema_typo_names_the_pointer_and_line(broken_suite):
    [problem] = problems_by_file(broken_suite)["cases/casting/typo.yaml"]
    assert problem.code == "schema" and problem.pointer == ""
    assert "titel" in problem.message and "spelling" in problem.message


def test_unknown_card(broken_suite):
    [problem] = problems_by_file(broken_suite)["cases/casting/unknown-card.yaml"]
    assert problem.code == "unknown_card" and problem.pointer == "/setup/objects/0/card"
    assert "Grizly Bears" in problem.message and problem.line is not None
    assert str(problem).startswith(f"cases/casting/unknown-card.yaml:{problem.line}: at /setup/objects/0/card:")


def test_duplicate_id(broken_suite):
    # files load in sorted order: duplicate.yaml claims the id first, good.yaml is the duplicate
    [problem] = problems_by_file(broken_suite)["cases/casting/good.yaml"]
    assert problem.code == "duplicate_id" and problem.pointer == "/id"
    assert "cases/casting/duplicate.yaml" in problem.message


def test_unknown_rules(broken_suite):
    found = problems_by_file(broken_suite)
    [schema_problem] = found["cases/casting/unknown-rule.yaml"]
    assert schema_problem.pointer == "/rules/0"
    [index_problem] = found["cases/casting/unknown-rule-number.yaml"]
    assert index_problem.code == "unknown_rule" and "999.1" in index_problem.message


def test_unknown_feature(broken_suite):
    [problem] = problems_by_file(broken_suite)["cases/casting/unknown-feature.yaml"]
    assert problem.code == "unknown_feature" and problem.pointer == "/features/1"


def test_unknown_object(broken_suite):
    [problem] = problems_by_file(broken_suite)["cases/casting/unknown-object.yaml"]
    assert problem.code == "unknown_object" and problem.pointer == "/steps/0/cast/object"


def test_retired_id_may_not_come_back(suite_builder):
    suite_builder.write("cases/retired-ids.txt", "casting/fixture/bears  # replaced by another case\n")
    suite_builder.case("cases/casting/good.yaml", good_case())
    suite = load_suite(suite_builder.root)
    assert [p.code for p in suite.problems] == ["retired_id"] and suite.cases == ()


def test_expectation_after_a_step_that_does_not_exist(suite_builder):
    doc = good_case()
    doc["expect"].append({"after": 4, "legal": True})
    suite_builder.case("cases/casting/good.yaml", doc)
    [problem] = load_suite(suite_builder.root).problems
    assert problem.code == "bad_step" and problem.pointer == "/expect/2/after"


def test_reason_outside_vocabulary(suite_builder):
    doc = good_case()
    doc["expect"][0] = {"after": 1, "legal": False, "reason": "too_expensive", "substep": "601.2h"}
    suite_builder.case("cases/casting/good.yaml", doc)
    [problem] = load_suite(suite_builder.root).problems
    assert problem.code == "unknown_reason"


def test_broken_catalog_card_is_reported(suite_builder):
    suite_builder.write("cases/catalog/extra.yaml", "- name: Forest\n  real: true\n  mana_cost: null\n  type_line: Basic Land — Forest\n  text: again\n")
    suite_builder.case("cases/casting/good.yaml", good_case())
    suite = load_suite(suite_builder.root)
    assert [p.code for p in suite.problems] == ["duplicate_card"]
    assert suite.problems[0].file == "cases/catalog/extra.yaml"


def test_cli_validate_reports_every_problem_and_exits_2(broken_suite):
    env = {**os.environ, "CASTRULES_SUITE": str(broken_suite.root)}
    done = subprocess.run([sys.executable, "-m", "castrules", "validate", "--json"], capture_output=True, text=True, env=env)
    assert done.returncode == 2, done.stderr
    report = json.loads(done.stdout)
    files = {p["file"] for p in report["problems"]}
    assert len(files) == 8 and report["cases"] == 2


@pytest.mark.parametrize("text", ["{U/W}", "{Q}", "{02}", "{P}", "1G"])
def test_malformed_mana_text_is_reported_with_its_pointer(suite_builder, text):
    doc = good_case()
    doc["expect"][0]["total_cost"] = text
    suite_builder.case("cases/casting/good.yaml", doc)
    [problem] = load_suite(suite_builder.root).problems
    assert problem.code == "schema" and problem.pointer == "/expect/0/total_cost"
    assert text in problem.message


def test_malformed_card_mana_cost_is_reported(suite_builder):
    suite_builder.write("cases/catalog/extra.yaml", "- name: Test Broken\n  real: false\n  mana_cost: '{1}{W/W}'\n  type_line: Artifact\n  text: A broken cost.\n")
    problems = load_suite(suite_builder.root).problems
    assert [(p.file, p.pointer) for p in problems] == [("cases/catalog/extra.yaml", "/0/mana_cost")]
