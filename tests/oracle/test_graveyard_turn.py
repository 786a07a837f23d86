"""601.3, 614.1a: a resolved spell's `graveyard_casting` effect (Yawgmoth's Will) lets its
controller cast spells matching its filter from their own graveyard until end of turn, and with
`exile_instead` exiles the cards that would go to that graveyard this turn; without it, they go
there as usual."""
from oracle_helpers import obj, run

A_TURN = {"active": "A", "step": "precombat_main"}


def _will(spells=None, exile_instead=True):
    body = {"exile_instead": exile_instead}
    if spells is not None:
        body["spells"] = spells
    return {"name": "Test Graveyard Turn", "real": False, "mana_cost": "{B}", "type_line": "Sorcery", "text": "t",
            "spell": [{"graveyard_casting": body}]}


def _after_will(card, cast, spells=None, exile_instead=True):
    objects = [{"id": "will", "card": "Test Graveyard Turn", "zone": "hand", "owner": "A"},
               {"id": "bolt", "card": card, "zone": "graveyard", "owner": "A"}]
    r = run({"players": {"A": {"mana_pool": "{B}{R}{G}{G}"}, "B": {}}, "turn": A_TURN, "objects": objects},
            [{"cast": {"player": "A", "object": "will", "mana_abilities": []}}, {"resolve": {}},
             {"cast": {"player": "A", "object": "bolt", "from": "graveyard", "mana_abilities": [], **cast}},
             {"resolve": {}}], extra_cards=[_will(spells, exile_instead)])
    return r


def test_any_spell_for_its_mana_cost_then_exiled():
    r = _after_will("Lightning Bolt", {"targets": ["B"]})
    assert r["steps"][2]["legal"] and r["steps"][2]["total_cost"] == "{R}"
    assert obj(r, 4, "bolt")["zone"] == "exile"


def test_without_exile_instead_it_goes_to_the_graveyard():
    r = _after_will("Lightning Bolt", {"targets": ["B"]}, exile_instead=False)
    assert obj(r, 4, "bolt")["zone"] == "graveyard"


def test_the_filter_limits_the_spells():
    r = _after_will("Lightning Bolt", {"targets": ["B"]}, spells={"types": ["Creature"]})
    assert r["steps"][2].get("reason") == "no_permission"
    r = _after_will("Grizzly Bears", {}, spells={"types": ["Creature"]})
    assert r["steps"][2]["legal"]


def test_no_free_cast_from_it():
    r = _after_will("Lightning Bolt", {"targets": ["B"], "alternative_cost": "without_paying_mana_cost"})
    assert not r["steps"][2]["legal"]
