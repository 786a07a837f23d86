"""Every rule in scope is accounted for (issue 14, point 5): cited by at least one case, or marked
in the rules index as a heading or not testable through casting, each mark with its reason in
our own words; no third status (a rule casting can observe has a case). `castrules coverage` shows none uncovered."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema

from castrules.harness.coverage import STATUSES, contradictions, coverage, uncovered
from castrules.harness.suite import load_suite
from castrules.harness.vocabulary import load

ROOT = Path(__file__).resolve().parents[2]


def _index() -> dict:
    return json.loads((ROOT / "schema" / "rules-index.json").read_text(encoding="utf-8"))


def test_the_rules_index_follows_its_schema():
    schema = json.loads((ROOT / "schema" / "rules-index.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(_index())
    assert set(schema["$defs"]["rule"]["properties"]["status"]["enum"]) == set(STATUSES)


def test_every_rule_in_scope_is_cited_or_accounted_for():
    data = coverage(load_suite())
    assert not uncovered(data), f"rules no case cites and the index does not account for: {uncovered(data)}"


def test_no_rule_is_marked_untestable_and_cited_too():
    data = coverage(load_suite())
    assert not contradictions(data), (f"rules marked not_testable that cases cite (drop the mark): "
                                      f"{contradictions(data)}")


def test_the_marks_are_a_minority_and_give_reasons():
    rules = _index()["rules"]
    marked = {n: e for n, e in rules.items() if "status" in e}
    assert len(marked) < len(rules) / 3
    for number, entry in marked.items():
        assert len(entry["why"].split()) >= 4, number
        assert entry["why"] != entry["title"], number


def test_coverage_prints_none_uncovered(capsys):
    from castrules.harness.coverage import print_coverage
    print_coverage(load_suite(), uncovered_only=True)
    out = capsys.readouterr().out
    assert "cited by no case and not accounted for (0 of" in out
    for label in STATUSES.values():
        assert label in out


def test_a_status_without_its_reason_is_a_problem_for_validate(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    (tmp_path / "cases").mkdir()
    index = _index()
    first = next(iter(index["rules"]))
    index["rules"][first] = {**index["rules"][first], "status": "heading"}
    index["rules"][first].pop("why", None)
    (tmp_path / "schema" / "rules-index.json").write_text(json.dumps(index), encoding="utf-8")
    monkeypatch.setenv("CASTRULES_SUITE", str(tmp_path))
    load.cache_clear()
    try:
        problems = load(tmp_path).problems
    finally:
        load.cache_clear()
    assert any(p.file == "schema/rules-index.json" and first in p.pointer for p in problems), problems


def test_a_rule_casting_can_observe_has_no_escape_status():
    """Issue 14 point 5: every rule is cited, a heading or not testable; the schema refuses the
    old `not_modelled` status, so a testable rule can't be set aside for want of a model."""
    schema = json.loads((ROOT / "schema" / "rules-index.schema.json").read_text(encoding="utf-8"))
    index = _index()
    assert all(e.get("status") in (None, "heading", "not_testable") for e in index["rules"].values())
    number = next(iter(index["rules"]))
    index["rules"][number] = {**index["rules"][number], "status": "not_modelled", "why": "the format lacks it here"}
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(index))
    assert errors and any("not_modelled" in e.message for e in errors)
