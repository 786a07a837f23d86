"""Every rule number the oracle cites is in the rules index (schema/rules-index.json): the
numbers written in its code (trace lines, refusals, the rules its cost arithmetic returns) and
those its traces carry over the whole suite. Trace lines carry them as typed values."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from castrules.harness.engine import load_engine
from castrules.harness.suite import load_suite
from castrules.oracle.trace import RuleNumber, Trace, rule_numbers

ROOT = Path(__file__).resolve().parents[2]
# A rule number inside a note's words (the numbers belong in the line's rules field, 601.2-style).
RULE_IN_PROSE = re.compile(r"(?<![\d.{])[1-9]\d{2}\.\d+[a-z]?\b")
RULE_LIST = re.compile(r"\d{3}(?:\.\d+[a-z]?)?(?:, \d{3}(?:\.\d+[a-z]?)?)*")


def index() -> set[str]:
    return set(json.loads((ROOT / "schema" / "rules-index.json").read_text(encoding="utf-8"))["rules"])


def cited_in_code() -> dict[str, str]:
    """Rule numbers written as string values in the oracle's code -> where (file:line)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "oracle").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_LIST.fullmatch(node.value):
                for rule in node.value.split(", "):
                    found.setdefault(rule, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_rule_numbers_are_values():
    assert str(RuleNumber("601.2f")) == "601.2f"
    assert rule_numbers("118.7e, 118.7b") == (RuleNumber("118.7e"), RuleNumber("118.7b"))
    assert rule_numbers(("601.2f", RuleNumber("601.2f"), "118.7a")) == (RuleNumber("601.2f"), RuleNumber("118.7a"))
    for bad in ("601.2F", "see 601.2f", "", "60.1"):
        with pytest.raises(ValueError):
            RuleNumber(bad)
    trace = Trace(3)
    trace.add(("601.3", "117.1a"), "a note without rule numbers")
    assert trace.lines[0].as_dict() == {"step": 3, "rule": "601.3", "rules": ["601.3", "117.1a"],
                                        "note": "a note without rule numbers"}


def test_every_rule_number_in_the_oracles_code_is_in_the_rules_index():
    cited = cited_in_code()
    assert len(cited) > 100
    missing = {rule: where for rule, where in cited.items() if rule not in index()}
    assert not missing, f"rules cited by the oracle but not in schema/rules-index.json: {missing}"


def test_every_rule_number_in_the_suites_traces_is_in_the_rules_index():
    suite, engine, known = load_suite(), load_engine("oracle"), index()
    missing: dict[str, str] = {}
    in_prose: dict[str, str] = {}
    lines = 0
    for case in suite.cases:
        reply = engine.run(case.request(suite.catalog.subset(case.card_names())))
        for line in reply["trace"]:
            lines += 1
            assert line["rule"] == line["rules"][0]
            for rule in line["rules"]:
                if rule not in known:
                    missing.setdefault(rule, case.id)
            if RULE_IN_PROSE.search(line["note"]):
                in_prose.setdefault(line["note"][:120], case.id)
    assert lines > 5000
    assert not missing, f"rules cited in traces but not in schema/rules-index.json (with a case): {missing}"
    assert not in_prose, f"trace notes with rule numbers in their words (put them in the rules field): {in_prose}"
