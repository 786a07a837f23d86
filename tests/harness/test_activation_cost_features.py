"""The features borrowed_abilities, activation_cost_increase and activation_any_colour: validate
requires each of a case that sets up a card with the static ability it belongs to (Manascape
Refractor, Suppression Field), so an engine without it gets the case as unsupported."""

from __future__ import annotations

import json

import pytest

from castrules.harness.checks import check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()
CASE = "activation/any-colour/refractor-red-mana-pays-the-increased-castle-ability"


def _problems(doc: dict) -> list:
    return [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]


def _doc() -> dict:
    return json.loads(json.dumps(next(c for c in SUITE.cases if c.id == CASE).doc))


def test_the_case_lists_them_all():
    assert _problems(_doc()) == []


@pytest.mark.parametrize("feature, pointer", [("borrowed_abilities", "/setup/objects/0/card"),
                                              ("activation_any_colour", "/setup/objects/0/card"),
                                              ("activation_cost_increase", "/setup/objects/2/card")])
def test_each_feature_is_required_where_its_card_is_set_up(feature, pointer):
    doc = _doc()
    doc["features"].remove(feature)
    found = _problems(doc)
    assert [p.pointer for p in found] == [pointer] and feature in found[0].message


def test_zirdas_reduction_needs_its_feature():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases
                                     if c.id == "activation/reduction/zirda-leaves-mutavault-its-one-mana").doc))
    doc["features"].remove("activation_cost_reduction")
    found = _problems(doc)
    assert [p.pointer for p in found] == ["/setup/objects/0/card"] and "activation_cost_reduction" in found[0].message
