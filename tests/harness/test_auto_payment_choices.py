"""The feature auto_payment_choices: validate requires it of a cast paid automatically that leaves
out the hybrid or Phyrexian announcements (601.2b) its card's mana cost asks for, so an engine that
announces without looking ahead for a payable choice gets such a case as unsupported, not failed."""

from __future__ import annotations

import json

import pytest

from castrules.harness.checks import check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()
LEGIONNAIRE = "life/phyrexian/auto-legionnaire-workshop-pays-life"     # {2}{W/P}
REAPER_KING = "payment/auto/reaper-king-generic-halves-from-workshops"  # {2/W}{2/U}{2/B}{2/R}{2/G}


def _doc(case_id: str, without: str = "auto_payment_choices") -> dict:
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))
    doc["features"] = [f for f in doc["features"] if f != without]
    return doc


def _unlisted(doc: dict) -> list:
    return [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
            if p.code == "unlisted_feature" and "auto_payment_choices" in p.message]


@pytest.mark.parametrize("case_id", [LEGIONNAIRE, REAPER_KING])
def test_an_automatic_cast_leaving_the_choices_out_must_list_the_feature(case_id):
    found = _unlisted(_doc(case_id))
    assert [p.pointer for p in found] == ["/steps/0/cast"]


@pytest.mark.parametrize("case_id", [LEGIONNAIRE, REAPER_KING])
def test_the_cases_list_it(case_id):
    assert not _unlisted(_doc(case_id, without=""))


@pytest.mark.parametrize("case_id, choices", [
    (LEGIONNAIRE, {"phyrexian": ["life"]}),
    (REAPER_KING, {"hybrid": ["2", "2", "2", "2", "2"]}),
    (LEGIONNAIRE, {"pay": "listed", "mana_abilities": [{"object": "workshop"}]}),  # the engine pays nothing itself
    (LEGIONNAIRE, {"alternative_cost": "without_paying_mana_cost"}),  # not the mana cost that is paid
])
def test_spelt_out_choices_or_no_automatic_payment_need_no_feature(case_id, choices):
    doc = _doc(case_id)
    doc["steps"][0]["cast"].update(choices)
    assert not _unlisted(doc)


def test_a_hybrid_phyrexian_symbol_asks_for_a_half_only_when_paid_with_mana():
    from castrules.harness.feature_checks import _omitted_choice
    assert not _omitted_choice("{2}{G}{G/U/P}{U}", {"phyrexian": ["life"]})
    assert _omitted_choice("{2}{G}{G/U/P}{U}", {"phyrexian": ["mana"]})
    assert not _omitted_choice("{2}{G}{G/U/P}{U}", {"phyrexian": ["mana"], "hybrid": ["G"]})
    assert _omitted_choice("{2}{G}{G/U/P}{U}", {})
    assert not _omitted_choice("{1}{R}", {})
