"""Casting 601.2a-i: legal casts, each reason code, and rewinds."""
import pytest

from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}


def lands(kind, n, who="A", tapped=False):
    return [{"id": f"{kind.lower()}{i}", "card": kind, "zone": "battlefield", "controller": who, "tapped": tapped}
            for i in range(n)]


def test_plain_cast_auto_pays_with_basic_lands():
    r = run({"players": AB, "objects": lands("Forest", 2) + [{"id": "bears", "card": "Grizzly Bears", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "bears"}}, {"resolve": {}}])
    assert r["steps"][0]["total_cost"] == "{1}{G}"
    assert obj(r, 1, "forest0")["tapped"] and obj(r, 1, "forest1")["tapped"]
    assert obj(r, 1, "bears")["zone"] == "stack"
    assert obj(r, 2, "bears")["zone"] == "battlefield" and obj(r, 2, "bears")["power"] == 2


@pytest.mark.parametrize("setup_turn,reason", [
    ({"active": "B", "step": "precombat_main"}, "wrong_timing"),
    ({"active": "A", "step": "upkeep"}, "wrong_timing"),
])
def test_sorcery_timing(setup_turn, reason):
    r = run({"players": AB, "turn": setup_turn, "objects": lands("Forest", 2) + [
        {"id": "bears", "card": "Grizzly Bears", "zone": "hand"}]}, [{"cast": {"player": "A", "object": "bears"}}])
    assert r["steps"][0] == {"legal": False, "reason": reason, "substep": "601.2a"}


def test_instant_any_time_with_priority():
    r = run({"players": {"A": {"mana_pool": "{R}"}, "B": {}}, "turn": {"active": "B", "step": "end"},
             "objects": [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}])
    assert r["steps"][0]["legal"]


@pytest.mark.parametrize("objects,step,reason,substep", [
    ([], {"player": "A", "object": "ghost"}, "object_not_found", "601.2a"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "graveyard"}], {"player": "A", "object": "bolt", "from": "hand"},
     "not_in_zone", "601.2a"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "graveyard"}], {"player": "A", "object": "bolt", "targets": ["B"]},
     "no_permission", "601.2a"),
    ([{"id": "f", "card": "Forest", "zone": "hand"}], {"player": "A", "object": "f"}, "no_permission", "601.2a"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "B"}],
     {"player": "A", "object": "bolt", "targets": ["B"]}, "no_permission", "601.2a"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "alternative_cost": ["prowl", "evoke"]},
     "multiple_alternative_costs", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "alternative_cost": "prowl"}, "alternative_cost_unavailable",
     "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "prototype": True}, "prototype_unavailable", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "kicker": True}, "additional_cost_unavailable", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "x": 2}, "invalid_x", "601.2b"),
    ([{"id": "blaze", "card": "Blaze", "zone": "hand"}], {"player": "A", "object": "blaze", "targets": ["B"]},
     "invalid_x", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "modes": [0]}, "invalid_mode", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "hybrid": ["R"]}, "invalid_hybrid_choice", "601.2b"),
    ([{"id": "p", "card": "Gitaxian Probe", "zone": "hand"}],
     {"player": "A", "object": "p", "targets": ["B"], "phyrexian": ["blood"]}, "invalid_phyrexian_choice", "601.2b"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}], {"player": "A", "object": "bolt"},
     "wrong_number_of_targets", "601.2c"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}, {"id": "sol", "card": "Sol Ring", "zone": "battlefield"}],
     {"player": "A", "object": "bolt", "targets": ["sol"]}, "invalid_target", "601.2c"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}], {"player": "A", "object": "bolt", "targets": ["B"]},
     "insufficient_mana", "601.2h"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}, {"id": "m", "card": "Mountain", "zone": "battlefield",
                                                                 "tapped": True}],
     {"player": "A", "object": "bolt", "targets": ["B"], "mana_abilities": [{"object": "m"}]}, "already_tapped", "601.2g"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}, {"id": "m", "card": "Mountain", "zone": "battlefield",
                                                                 "controller": "B"}],
     {"player": "A", "object": "bolt", "targets": ["B"], "mana_abilities": [{"object": "m"}]},
     "mana_ability_unavailable", "601.2g"),
    ([{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}, {"id": "e", "card": "Llanowar Elves",
                                                                 "zone": "battlefield", "summoning_sick": True}],
     {"player": "A", "object": "bolt", "targets": ["B"], "mana_abilities": [{"object": "e"}]}, "summoning_sick", "601.2g"),
    ([{"id": "db", "card": "Death Bomb", "zone": "hand"}, {"id": "b", "card": "Grizzly Bears", "zone": "battlefield",
                                                           "controller": "B"}],
     {"player": "A", "object": "db", "targets": ["b"]}, "additional_cost_unavailable", "601.2b"),
    ([{"id": "f", "card": "Test Costless", "zone": "hand"}], {"player": "A", "object": "f"}, "unpayable_cost", "601.2h"),
])
def test_illegal_casts_report_reason_and_substep_and_change_nothing(objects, step, reason, substep):
    extra = [{"name": "Test Costless", "real": False, "mana_cost": None, "type_line": "Sorcery", "text": "No mana cost."}]
    r = run({"players": AB, "objects": objects}, [{"cast": step}], extra_cards=extra)
    res = r["steps"][0]
    assert (res["legal"], res["reason"], res["substep"]) == (False, reason, substep)
    assert r["snapshots"]["0"] == r["snapshots"]["1"]


def test_failure_after_lock_in_reports_total_and_rewinds_mana_abilities():
    r = run({"players": AB, "objects": lands("Mountain", 1) + [{"id": "blaze", "card": "Blaze", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "blaze", "x": 2, "targets": ["B"],
                       "mana_abilities": [{"object": "mountain0"}]}}])
    assert r["steps"][0] == {"legal": False, "reason": "insufficient_mana", "substep": "601.2h",
                             "total_cost": "{2}{R}", "life_paid": 0}
    assert r["snapshots"]["1"] == r["snapshots"]["0"]


def test_insufficient_life_for_phyrexian():
    r = run({"players": {"A": {"life": 1}, "B": {}}, "objects": [{"id": "p", "card": "Gitaxian Probe", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "p", "targets": ["B"], "phyrexian": ["life"]}}])
    assert r["steps"][0]["reason"] == "insufficient_life" and r["steps"][0]["total_cost"] == "{0}"


def test_omniscience_without_paying_mana_cost_and_x_is_zero():
    r = run({"players": AB, "objects": [{"id": "om", "card": "Omniscience", "zone": "battlefield"},
                                        {"id": "one", "card": "Endless One", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "one", "alternative_cost": "without_paying_mana_cost", "x": 3}},
             {"cast": {"player": "A", "object": "one", "alternative_cost": "without_paying_mana_cost"}},
             {"resolve": {}}])
    assert r["steps"][0]["reason"] == "invalid_x"
    assert r["steps"][1] == {"legal": True, "total_cost": "{0}", "life_paid": 0}
    assert obj(r, 3, "one")["zone"] == "graveyard"       # a 0/0 with no counters dies (704.5f)


def test_death_bomb_sacrifice_paid_after_lock_in():
    r = run({"players": AB, "objects": lands("Swamp", 4) + [
        {"id": "fam", "card": "Thunderscape Familiar", "zone": "battlefield"},
        {"id": "b", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
        {"id": "db", "card": "Death Bomb", "zone": "hand"}]},
        [{"cast": {"player": "A", "object": "db", "sacrifice": ["fam"], "targets": ["b"]}}, {"resolve": {}}])
    assert r["steps"][0]["total_cost"] == "{2}{B}"
    assert obj(r, 1, "fam")["zone"] == "graveyard"
    assert obj(r, 2, "b")["zone"] == "graveyard" and player(r, 2, "B")["life"] == 18
