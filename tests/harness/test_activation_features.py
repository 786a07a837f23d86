"""An `activate` step's costs and the features they need (validate): an activated ability whose cost
asks for mana needs `payment`, one that sacrifices a permanent needs `zone_change`. No casting
feature covers an activation's costs, so without these an engine declaring neither would be given
the case (a Clue's {2} and its sacrifice) and fail it instead of getting it as unsupported."""

from __future__ import annotations

import json

import pytest

from castrules.harness.checks import check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()


def _doc(case_id: str, *removed: str) -> dict:
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))
    doc["features"] = [f for f in doc["features"] if f not in removed]
    return doc


def _unlisted(doc: dict) -> list:
    return [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]


@pytest.mark.parametrize("feature", ["payment", "zone_change"])
def test_a_clue_activation_needs_payment_and_zone_change(feature):
    found = _unlisted(_doc("tokens/clue/tapped-clue-can-still-be-activated", feature))
    assert [p.pointer for p in found] == ["/steps/0/activate"]
    assert repr(feature) in found[0].message and "'clue'" in found[0].message


def test_a_cost_of_only_tapping_needs_neither():
    """Kiki-Jiki's ability costs {T} alone: no mana is paid and nothing changes zone for it."""
    doc = _doc("copy/exceptions/kiki-jiki-cannot-copy-a-legendary-creature")
    assert not {"payment", "zone_change"} & set(doc["features"])
    assert not _unlisted(doc)


def test_an_ability_the_object_only_gains_is_not_looked_at():
    """The catalog card has no activated ability of its own to read the cost from."""
    doc = _doc("x/gained/ability-uses-its-own-x", "payment")
    assert not _unlisted(doc)
