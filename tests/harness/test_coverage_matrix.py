"""The coverage matrix (issue 14, point 4): every cell the rules allow has a case; the cells the
rules forbid name their rule, and there is no other kind of cell; a case's
`matrix:` tag is checked against the case's own data and never reaches an engine."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml

from castrules.harness import matrix as cells
from castrules.harness.cli import main
from castrules.harness.suite import load_suite

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def suite():
    return load_suite()


def _doc() -> dict:
    return yaml.safe_load((ROOT / cells.MATRIX_FILE).read_text(encoding="utf-8"))


def test_every_cell_the_rules_allow_has_a_case(suite):
    rows = cells.report(suite.vocabulary.matrix, cells.cell_cases(suite))
    assert not cells.missing(rows), f"cells with no case: {cells.missing(rows)}"
    assert sum(1 for r in rows if r["status"] == cells.REQUIRED) >= 60


def test_the_matrix_has_every_kind_of_modifier_base_and_zone(suite):
    m = suite.vocabulary.matrix
    assert {"increase", "reduce_generic", "reduce_coloured", "reduce_colourless", "floor", "set"} <= set(m.modifiers)
    assert {"mana_cost", "prototype", "prowl", "evoke", "without_paying_mana_cost", "free_instructed"} <= set(m.bases)
    assert {"hand", "graveyard", "exile", "library"} <= set(m.zones)


def test_forbidden_cells_cite_a_rule_in_scope_and_exclusions_give_reasons(suite):
    m, rules = suite.vocabulary.matrix, suite.vocabulary.rules
    assert m.forbidden
    for ex in m.forbidden:
        assert ex.rule in rules and len(ex.why.split()) >= 4
    for value in (*m.modifiers.values(), *m.bases.values()):
        assert value.match is not None and all(r in rules for r in value.rules), value.name


def test_no_tagged_case_sits_in_a_forbidden_cell(suite):
    m = suite.vocabulary.matrix
    for cell, ids in cells.cell_cases(suite).items():
        assert m.status(cell)[0] == cells.REQUIRED, (cell, ids)


def _case(suite, case_id: str) -> dict:
    return copy.deepcopy(next(c.doc for c in suite.cases if c.id == case_id))


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["matrix"].update(base="prototype"), "wants prototype True"),
    (lambda d: d["matrix"].update(zone="graveyard"), "not the graveyard"),
    (lambda d: d["matrix"].update(modifier="floor"), "no permanent on the battlefield"),
    (lambda d: d["matrix"].update(modifier="sett"), "is not in cases/coverage-matrix.yaml"),
    (lambda d: d["matrix"].update(base="fused", zone="exile"), "forbidden (702.102"),
    (lambda d: d["matrix"].update(step=1), "shown by a cast step"),
])
def test_a_tag_must_match_the_case(suite, change, expected):
    doc = _case(suite, "matrix/increase/mana-cost-from-hand")
    assert cells.tag_problems("x.yaml", doc, suite.catalog.cards, suite.vocabulary.matrix) == []
    doc["steps"].insert(0, {"next_turn": {}}) if expected == "shown by a cast step" else None
    change(doc)
    problems = cells.tag_problems("x.yaml", doc, suite.catalog.cards, suite.vocabulary.matrix)
    assert problems and all(p.pointer == "/matrix" for p in problems)
    assert any(expected in p.message for p in problems), [p.message for p in problems]


def test_the_spells_own_modifier_counts_and_a_resolve_base_is_found(suite):
    doc = _case(suite, "prototype/cost/frogmyr-enforcer-affinity-on-normal-cost")
    doc["matrix"] = {"modifier": "reduce_generic", "base": "mana_cost", "zone": "hand"}
    assert cells.tag_problems("x.yaml", doc, suite.catalog.cards, suite.vocabulary.matrix) == []
    doc = _case(suite, "matrix/floor/free-effect-from-opponents-library")
    assert cells.tag_problems("x.yaml", doc, suite.catalog.cards, suite.vocabulary.matrix) == []


def test_the_tag_is_hidden_from_engines(suite):
    case = next(c for c in suite.cases if c.doc.get("matrix"))
    request = case.request(suite.catalog.subset(case.card_names()))
    assert "matrix" not in request["case"]


@pytest.mark.parametrize("amount, kind", [("{1}", "generic"), ("{2}", "generic"), ("{S}", "generic"),
                                          ("{B}{B}", "coloured"), ("{2/W}", "coloured"), ("{C}{C}", "colourless"),
                                          ("{1}{B}", "mixed")])
def test_amount_kinds(amount, kind):
    assert cells.amount_kind(amount) == kind


@pytest.mark.parametrize("breakage", [
    lambda d: d.pop("zones"),
    lambda d: d["bases"]["prowl"].pop("match"),
    lambda d: d["forbidden"][0].pop("rule"),
    lambda d: d.update(not_modelled=[{"modifier": "*", "base": "prowl", "zone": "hand", "why": "a reason here"}]),
    lambda d: d["modifiers"]["set"].update(not_modelled="no printed card"),
    lambda d: d["forbidden"][0].update(rule=""),
])
def test_a_malformed_matrix_file_is_refused(breakage):
    doc = _doc()
    breakage(doc)
    with pytest.raises(ValueError):
        cells.from_document(doc)


def test_coverage_matrix_prints_the_table_and_json(capsys):
    assert main(["coverage", "--matrix"]) == 0
    text = capsys.readouterr().out
    assert "cast from graveyard:" in text
    assert not [line for line in text.splitlines()[1:] if "MISSING" in line]
    assert "Cells the rules allow with no case: 0" in text and "702.102" in text
    assert main(["coverage", "--matrix", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["missing"] == [] and {"modifiers", "bases", "zones", "cells"} <= set(data)
    assert any(c["status"] == "forbidden" for c in data["cells"])
