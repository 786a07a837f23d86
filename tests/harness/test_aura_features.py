"""The features auras and aura_copy: validate requires them of a case casting an Aura (a card with
`enchant`) and, for Metamorphic Alteration's static copy effect (707.2c), aura_copy as well, so an
engine without Auras or without static copy effects gets such a case as unsupported."""

from __future__ import annotations

import json

import pytest

from castrules.harness.checks import check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()
CASE = "copy/aura/alteration-keeps-dragon-after-it-leaves"


@pytest.mark.parametrize("feature", ["auras", "aura_copy"])
def test_a_cast_of_an_aura_must_list_the_feature(feature):
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == CASE).doc))
    doc["features"].remove(feature)
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/steps/0/cast"] and feature in found[0].message


def test_the_aura_cases_list_both():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == CASE).doc))
    assert not [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "unlisted_feature"]
