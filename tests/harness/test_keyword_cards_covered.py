"""Issue 14 point 2: every printed prowl and prototype card is in the catalog, each with a case.

The printed cards, as found in public card data (Forge card scripts and edition files, XMage set
classes): prototype on the 18 artifact creatures of The Brothers' War and on Frogmyr Enforcer
(Modern Horizons 3); prowl on the 9 Morningtide cards and Enigma Thief (Zendikar Rising
Commander). Counts of 21 prototype cards seen elsewhere add two digital-only cards of Alchemy:
The Brothers' War (Forgefire Automaton, Warzone Duplicator), never printed on paper; Hunting
Velociraptor gives Dinosaur spells prowl but has none itself. A newly printed card goes in the
catalog (facts checked, `checked` saying where) and in the lists below, with a case.
"""

from __future__ import annotations

from castrules.harness.suite import shared_suite

SUITE = shared_suite()

PRINTED_PROTOTYPE = {
    "Arcane Proxy", "Autonomous Assembler", "Blitz Automaton", "Boulderbranch Golem", "Combat Thresher",
    "Cradle Clearcutter", "Depth Charge Colossus", "Fallaji Dragon Engine", "Goring Warplow", "Hulking Metamorph",
    "Iron-Craw Crusher", "Phyrexian Fleshgorger", "Rootwire Amalgam", "Rust Goliath", "Skitterbeam Battalion",
    "Spotter Thopter", "Steel Seraph", "Woodcaller Automaton",      # The Brothers' War
    "Frogmyr Enforcer",                                              # Modern Horizons 3
}
PRINTED_PROWL = {
    "Auntie's Snitch", "Earwig Squad", "Knowledge Exploitation", "Latchkey Faerie", "Morsel Theft", "Noggin Whack",
    "Notorious Throng", "Stinkdrinker Bandit", "Thieves' Fortune",  # Morningtide
    "Enigma Thief",                                                  # Zendikar Rising Commander
}


def _printed_with(keyword: str) -> set[str]:
    return {name for name, card in SUITE.catalog.cards.items() if card.get("real") is not False and keyword in card}


def _cards_used() -> set[str]:
    return {obj["card"] for case in SUITE.cases for obj in case.doc["setup"].get("objects", ())}


def test_the_catalog_holds_every_printed_prototype_and_prowl_card_and_no_other():
    assert _printed_with("prototype") == PRINTED_PROTOTYPE
    assert _printed_with("prowl") == PRINTED_PROWL


def test_every_printed_prototype_and_prowl_card_has_a_case():
    missing = sorted((PRINTED_PROTOTYPE | PRINTED_PROWL) - _cards_used())
    assert not missing, f"no case uses {missing}"


def test_each_of_them_says_where_its_facts_were_checked():
    unchecked = sorted(name for name in PRINTED_PROTOTYPE | PRINTED_PROWL if not SUITE.catalog.cards[name].get("checked"))
    assert not unchecked, f"no `checked` field on {unchecked}"
