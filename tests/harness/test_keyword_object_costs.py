"""The features keyword_object_costs, emerge_from, granted_flashback and flashback_choice:
validate requires them of a case whose cast pays an entwine or escalate cost paid with objects
(Solar Tide's lands, Collective Brutality's discards), an emerge from a quality (Crabomination), a
flashback cost the card has only because another object gave it (Snapcaster Mage, Past in Flames),
or that granted cost chosen over the card's own flashback, so an engine that has only mana entwine
and escalate, plain emerge or printed flashback gets such a case as unsupported."""

from __future__ import annotations

import json

import pytest

from castrules.harness.checks import OBJECT_KEYWORD_COSTS, check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()


def _without_the_feature(case_id: str) -> dict:
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))
    doc["features"].remove(OBJECT_KEYWORD_COSTS)
    return doc


@pytest.mark.parametrize("case_id", ["entwine/objects/solar-tide-entwined-sacrifices-two-lands",
                                     "escalate/objects/collective-brutality-two-modes-discards-one-card"])
def test_a_cast_paying_an_object_keyword_cost_must_list_the_feature(case_id):
    found = [p for p in check_case("cases/x.yaml", _without_the_feature(case_id), SUITE.catalog, SUITE.vocabulary)
             if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/steps/0/cast"]
    assert OBJECT_KEYWORD_COSTS in found[0].message


def test_a_cast_for_emerge_from_a_quality_must_list_the_feature():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases
                                     if c.id == "emerge/from-artifact/crabomination-taps-sol-ring-then-sacrifices-it").doc))
    doc["features"].remove("emerge_from")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/steps/0/cast"] and "emerge_from" in found[0].message


@pytest.mark.parametrize("case_id", ["flashback/granted/snapcaster-gives-lightning-bolt-flashback-for-its-mana-cost",
                                     "flashback/granted/past-in-flames-gives-each-instant-and-sorcery-flashback"])
def test_a_flashback_cast_of_a_card_without_flashback_must_list_granted_flashback(case_id):
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))
    doc["features"].remove("granted_flashback")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] and all(p.pointer.endswith("/cast") for p in found)
    assert "granted_flashback" in found[0].message


def test_a_flashback_cast_of_a_card_with_flashback_needs_no_granted_flashback():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases
                                     if c.id == "flashback/cast/think-twice-from-graveyard-then-exiled").doc))
    assert "granted_flashback" not in doc["features"]
    assert not [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "unlisted_feature"]


def test_a_single_mode_owes_no_object_cost_and_needs_no_feature():
    doc = _without_the_feature("entwine/objects/solar-tide-one-mode-keeps-its-lands")
    assert not [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "unlisted_feature"]


def test_a_flashback_announced_for_a_card_nothing_could_give_it_needs_no_granted_flashback():
    """A Bolt announced with a flashback cost, no Snapcaster Mage nor Past in Flames in the case:
    an engine with printed flashback only refuses it as well (alternative_cost_unavailable)."""
    doc = json.loads(json.dumps(next(c for c in SUITE.cases
                                     if c.id == "flashback/announce/card-without-flashback-in-hand").doc))
    assert "granted_flashback" not in doc["features"]
    assert not [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "unlisted_feature"]


@pytest.mark.parametrize("case_id", ["flashback/granted/past-in-flames-firebolt-flashed-back-for-its-mana-cost",
                                     "flashback/granted/snapcaster-deep-analysis-granted-flashback-asks-no-life",
                                     "flashback/granted/snapcaster-lava-dart-granted-flashback-sacrifices-nothing"])
def test_choosing_a_granted_flashback_over_the_cards_own_must_list_flashback_choice(case_id):
    """702.34a: a card with its own flashback and a granted one may be cast with either; naming
    the granter picks the granted cost, which an engine knowing one flashback per card cannot do."""
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))
    doc["features"].remove("flashback_choice")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] and all(p.pointer.endswith("/cast") for p in found)
    assert "flashback_choice" in found[0].message and "granted_flashback" not in found[0].message
    for step in doc["steps"]:
        if "flashback" == (step.get("cast") or {}).get("alternative_cost"):
            del step["cast"]["permission"]          # cast for its own flashback: nothing to choose
    assert not [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "unlisted_feature"]
