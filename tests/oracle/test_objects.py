"""Mana abilities, prototype, copies, zones, resolution and ETB triggers."""
from oracle_helpers import obj, player, run


def test_two_reflecting_pools_alone_produce_nothing_but_with_a_forest_green():
    pools = [{"id": "p1", "card": "Reflecting Pool", "zone": "battlefield"},
             {"id": "p2", "card": "Reflecting Pool", "zone": "battlefield"}]
    r = run({"players": {"A": {}, "B": {}}, "objects": pools}, [{"activate_mana": {"player": "A", "object": "p1"}}])
    assert r["steps"][0]["legal"] and player(r, 1, "A")["mana_pool"] == "" and obj(r, 1, "p1")["tapped"]
    r = run({"players": {"A": {}, "B": {}}, "objects": pools + [{"id": "f", "card": "Forest", "zone": "battlefield"}]},
            [{"activate_mana": {"player": "A", "object": "p1", "produce": "G"}},
             {"activate_mana": {"player": "A", "object": "p2", "produce": "U"}}])
    assert player(r, 1, "A")["mana_pool"] == "{G}" and r["steps"][1]["reason"] == "invalid_mana_choice"


def test_contamination_and_mana_reflection():
    objs = [{"id": "c", "card": "Contamination", "zone": "battlefield"},
            {"id": "mr", "card": "Mana Reflection", "zone": "battlefield"},
            {"id": "f", "card": "Forest", "zone": "battlefield"}, {"id": "sol", "card": "Sol Ring", "zone": "battlefield"}]
    r = run({"players": {"A": {}, "B": {}}, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "f"}}, {"activate_mana": {"player": "A", "object": "sol"}}])
    assert player(r, 1, "A")["mana_pool"] == "{B}{B}"
    assert player(r, 2, "A")["mana_pool"] == "{B}{B}{C}{C}{C}{C}"


def test_summoning_sick_sol_ring_taps_but_sick_elves_cannot():
    objs = [{"id": "sol", "card": "Sol Ring", "zone": "battlefield", "summoning_sick": True},
            {"id": "elf", "card": "Llanowar Elves", "zone": "battlefield", "summoning_sick": True}]
    r = run({"players": {"A": {}, "B": {}}, "objects": objs},
            [{"activate_mana": {"player": "A", "object": "sol"}}, {"activate_mana": {"player": "A", "object": "elf"}}])
    assert r["steps"][0]["legal"] and r["steps"][1]["reason"] == "summoning_sick"


def test_patrol_signaler_untap_symbol():
    objs = [{"id": "ps", "card": "Patrol Signaler", "zone": "battlefield", "tapped": True},
            {"id": "p", "card": "Plains", "zone": "battlefield"}, {"id": "w", "card": "Wastes", "zone": "battlefield"}]
    r = run({"players": {"A": {}, "B": {}}, "objects": objs},
            [{"activate": {"player": "A", "object": "ps"}}, {"resolve": {}},
             {"activate": {"player": "A", "object": "ps"}}])
    assert r["steps"][0]["legal"] and not obj(r, 1, "ps")["tapped"]
    assert obj(r, 2, "ps_token")["name"] == "Kithkin Soldier" and obj(r, 2, "ps_token")["colors"] == ["W"]
    assert r["steps"][2]["reason"] == "already_untapped"


def test_prototype_cost_reduction_sees_prototype_colour_and_omniscience_combines():
    objs = [{"id": "med", "card": "Ruby Medallion", "zone": "battlefield"},
            {"id": "om", "card": "Omniscience", "zone": "battlefield"},
            {"id": "blitz", "card": "Blitz Automaton", "zone": "hand"},
            {"id": "blitz2", "card": "Blitz Automaton", "zone": "hand"}]
    r = run({"players": {"A": {"mana_pool": "{R}{R}"}, "B": {}}, "objects": objs},
            [{"cast": {"player": "A", "object": "blitz", "prototype": True}}, {"resolve": {}},
             {"cast": {"player": "A", "object": "blitz2", "prototype": True,
                       "alternative_cost": "without_paying_mana_cost"}}])
    assert r["steps"][0]["total_cost"] == "{1}{R}"
    assert r["steps"][2]["legal"] and obj(r, 3, "blitz2")["prototyped"]
    assert obj(r, 2, "blitz")["zone"] == "battlefield" and obj(r, 2, "blitz")["power"] == 3


def test_copy_of_spell_keeps_x_and_prowl_and_ceases_to_exist():
    r = run({"players": {"A": {"mana_pool": "{R}{R}{R}"}, "B": {}},
             "objects": [{"id": "blaze", "card": "Blaze", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "blaze", "x": 2, "targets": ["B"]}},
             {"copy_spell": {"object": "blaze", "new_id": "c"}}, {"resolve": {}}, {"resolve": {}}])
    assert obj(r, 2, "c")["x"] == 2 and obj(r, 2, "c")["mana_value"] == 3 and r["snapshots"]["2"]["stack"] == ["blaze", "c"]
    assert obj(r, 3, "c")["zone"] == "gone" and player(r, 4, "B")["life"] == 16


def test_endless_one_etb_uses_spell_x_and_token_blink():
    r = run({"players": {"A": {"mana_pool": "{C}{C}{C}"}, "B": {}},
             "objects": [{"id": "one", "card": "Endless One", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "one", "x": 3}}, {"resolve": {}},
             {"copy_permanent": {"object": "one", "new_id": "tok"}}, {"blink": {"object": "one"}}])
    assert obj(r, 2, "one")["counters"] == {"+1/+1": 3} and obj(r, 2, "one")["x"] == 0
    assert obj(r, 3, "tok")["zone"] == "graveyard" or obj(r, 3, "tok")["zone"] == "gone"   # a 0/0 token dies
    assert obj(r, 4, "one")["zone"] == "graveyard"         # blinked: a new object with no counters


def test_enigma_thief_target_that_changed_control_is_illegal():
    objs = [{"id": "thief", "card": "Enigma Thief", "zone": "hand"},
            {"id": "sol", "card": "Sol Ring", "zone": "battlefield", "controller": "B"},
            {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield", "controller": "C"}]
    r = run({"players": {"A": {"mana_pool": "{U}{U}{C}{C}{C}{C}{C}"}, "B": {}, "C": {}}, "objects": objs},
            [{"cast": {"player": "A", "object": "thief"}}, {"resolve": {"choices": {"targets": ["sol", "bear"]}}},
             {"change_control": {"object": "sol", "to": "A"}}, {"resolve": {}}])
    assert r["snapshots"]["2"]["stack"] == ["thief_trigger"]
    assert obj(r, 4, "sol")["zone"] == "battlefield" and obj(r, 4, "bear")["zone"] == "hand"


def test_combat_lethal_damage_and_lifelink():
    objs = [{"id": "gorger", "card": "Phyrexian Fleshgorger", "zone": "battlefield", "prototyped": True},
            {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"}]
    r = run({"players": {"A": {}, "B": {}}, "objects": objs},
            [{"attack": {"player": "A", "attackers": ["gorger"], "defender": "B"}},
             {"block": {"player": "B", "blockers": {"bear": "gorger"}}}, {"combat_damage": {}}])
    assert obj(r, 3, "bear")["zone"] == "graveyard" and obj(r, 3, "gorger")["damage"] == 2
    assert player(r, 3, "A")["life"] == 23
