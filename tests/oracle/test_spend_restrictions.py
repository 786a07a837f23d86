"""106.6 spending restrictions, `sacrifice` on mana activations, invalid_mana_choice."""
from oracle_helpers import obj, player
from oracle_helpers import run as _run

AB = {"A": {}, "B": {}}
# Unit-test cards of our own (the suite's cases use Mishra's Workshop and Blood Pet): one
# restricted colourless mana, and a creature spell costing {1}.
FONT = {"name": "Test Artifact Font", "real": False, "mana_cost": None, "type_line": "Land", "text": "t",
        "abilities": [{"kind": "mana", "cost": {"tap": True}, "add": "{C}", "spend_only": {"types": ["Artifact"]}}]}
SPAWN = {"name": "Test Spawn", "real": False, "mana_cost": "{1}", "type_line": "Creature — Eldrazi Spawn",
         "power": "0", "toughness": "1", "text": "t"}


def run(setup, steps):
    return _run(setup, steps, extra_cards=[FONT, SPAWN])


def bf(oid, card, who="A", **kw):
    return {"id": oid, "card": card, "zone": "battlefield", "controller": who, **kw}


def hand(oid, card, who="A"):
    return {"id": oid, "card": card, "zone": "hand", "owner": who}


def test_restricted_mana_pays_matching_spell_only():
    objs = [bf("font", "Test Artifact Font"), hand("ring", "Sol Ring"), hand("spawn", "Test Spawn")]
    r = run({"players": AB, "objects": objs}, [{"cast": {"player": "A", "object": "spawn"}},
                                               {"cast": {"player": "A", "object": "ring"}}])
    assert r["steps"][0]["reason"] == "insufficient_mana"
    assert r["steps"][1]["legal"] and obj(r, 2, "font")["tapped"]


def test_restricted_mana_shows_in_pool_and_empties():
    objs = [bf("font", "Test Artifact Font")]
    r = run({"players": AB, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "font"}}, {"move_to": {"step": "beginning_of_combat"}}])
    assert player(r, 1, "A")["mana_pool"] == "{C}"
    assert player(r, 2, "A")["mana_pool"] == ""


def test_restricted_mana_spent_before_free_mana():
    # pool: restricted {C} and free {C}; an artifact for {1} spends the restricted one, so the
    # free {C} can still pay a creature afterwards
    objs = [bf("font", "Test Artifact Font"), hand("ring", "Sol Ring"), hand("spawn", "Test Spawn")]
    r = run({"players": {"A": {"mana_pool": "{C}"}, "B": {}}, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "font"}},
             {"cast": {"player": "A", "object": "ring"}}, {"resolve": {}},
             {"cast": {"player": "A", "object": "spawn"}}])
    assert r["steps"][1]["legal"] and r["steps"][3]["legal"]
    assert player(r, 4, "A")["mana_pool"] == ""


def test_restricted_mana_never_pays_ability_costs():
    objs = [bf("font", "Test Artifact Font"), bf("mutavault", "Mutavault")]
    r = run({"players": AB, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "font"}},
             {"activate": {"player": "A", "object": "mutavault", "pay": "listed"}}])
    assert r["steps"][1]["legal"] is False
    assert player(r, 2, "A")["mana_pool"] == "{C}"


def test_rewind_restores_restricted_mana():
    objs = [bf("font", "Test Artifact Font"), bf("forest", "Forest"), hand("bears", "Grizzly Bears")]
    r = run({"players": AB, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "font"}},
             {"cast": {"player": "A", "object": "bears", "mana_abilities": [{"object": "forest"}]}}])
    assert r["steps"][1]["reason"] == "insufficient_mana"
    assert player(r, 2, "A")["mana_pool"] == "{C}" and not obj(r, 2, "forest")["tapped"]


def test_sacrifice_named_and_defaults():
    objs = [bf("altar", "Ashnod's Altar"), bf("bears", "Grizzly Bears"), bf("elves", "Llanowar Elves")]
    named = run({"players": AB, "objects": objs},
                [{"activate_mana": {"player": "A", "object": "altar", "sacrifice": ["elves"]}}])
    assert obj(named, 1, "elves")["zone"] == "graveyard" and obj(named, 1, "bears")["zone"] == "battlefield"
    default = run({"players": AB, "objects": objs}, [{"activate_mana": {"player": "A", "object": "altar"}}])
    assert obj(default, 1, "bears")["zone"] == "graveyard"


def test_sacrifice_must_fit_and_be_yours():
    objs = [bf("altar", "Ashnod's Altar"), bf("theirs", "Grizzly Bears", who="B"), bf("forest", "Forest")]
    for victim in (["theirs"], ["forest"], [], ["theirs", "forest"]):
        r = run({"players": AB, "objects": objs},
                [{"activate_mana": {"player": "A", "object": "altar", "sacrifice": victim}}])
        assert r["steps"][0]["reason"] == "mana_ability_cost_unpayable", victim
    r = run({"players": AB, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "forest", "sacrifice": ["forest"]}}])
    assert r["steps"][0]["reason"] == "mana_ability_cost_unpayable"


def test_invalid_mana_choice_and_twobrid_generic_half():
    objs = [bf("pool", "Reflecting Pool"), bf("forest", "Forest"), bf("prism", "Test Prism")]
    r = run({"players": AB, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "pool", "produce": "R"}},
             {"activate_mana": {"player": "A", "object": "prism", "ability": 1, "produce": "C"}}])
    assert r["steps"][0] == {"legal": False, "reason": "invalid_mana_choice"}
    assert player(r, 2, "A")["mana_pool"] == "{C}{C}"
