"""Prowl (702.76) and the turn's combat damage record (113.7a, 608.2i)."""
import pytest

from oracle_helpers import obj, run

BASE = [{"id": "rogue", "card": "Bane Alley Blackguard", "zone": "battlefield"},
        {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield"},
        {"id": "s1", "card": "Swamp", "zone": "battlefield"},
        {"id": "s2", "card": "Swamp", "zone": "battlefield"},
        {"id": "theft", "card": "Morsel Theft", "zone": "hand"}]
PROWL = {"cast": {"player": "A", "object": "theft", "alternative_cost": "prowl", "targets": ["B"]}}


def go(steps, objects=BASE, players=None):
    return run({"players": players or {"A": {}, "B": {}}, "objects": objects}, steps)


@pytest.mark.parametrize("between", [
    [], [{"destroy": {"object": "rogue"}}], [{"change_control": {"object": "rogue", "to": "B"}}],
    [{"change_types": {"object": "rogue", "creature_types": ["Bear"], "mode": "set"}}],
    [{"leave_game": {"player": "B"}}],
])
def test_prowl_survives_later_changes(between):
    players = {"A": {}, "B": {}, "C": {}} if between and "leave_game" in between[0] else None
    r = go([{"attack": {"player": "A", "attackers": ["rogue"], "defender": "B"}}, {"combat_damage": {}}] + between
           + [{"move_to": {"step": "postcombat_main"}},
              {"cast": {**PROWL["cast"], "targets": ["C" if players else "B"]}}], players=players)
    last = r["steps"][-1]
    assert last["legal"] and last["total_cost"] == "{1}{B}"
    theft = obj(r, len(r["steps"]), "theft")
    assert theft["prowl_paid"] and theft["mana_value"] == 4
    assert any(t["rule"] == "702.76a" and "Rogue" in t["note"] for t in r["trace"])


def test_non_rogue_damage_or_noncombat_damage_doesnt_enable_prowl():
    r = go([{"attack": {"player": "A", "attackers": ["bear"], "defender": "B"}}, {"combat_damage": {}},
            {"deal_damage": {"source": "rogue", "to": "B", "amount": 1}},
            {"move_to": {"step": "postcombat_main"}}, PROWL])
    assert r["steps"][-1] == {"legal": False, "reason": "alternative_cost_unavailable", "substep": "601.2b"}


def test_prowl_record_cleared_next_turn():
    r = go([{"attack": {"player": "A", "attackers": ["rogue"], "defender": "B"}}, {"combat_damage": {}},
            {"next_turn": {}}, {"next_turn": {}}, PROWL])
    assert r["steps"][-1]["reason"] == "alternative_cost_unavailable"


def test_conspiracy_makes_the_spell_need_the_chosen_type_but_kindred_is_untouched():
    objs = BASE + [{"id": "c", "card": "Conspiracy", "zone": "battlefield"},
                   {"id": "squad", "card": "Earwig Squad", "zone": "hand"},
                   {"id": "s3", "card": "Swamp", "zone": "battlefield"}]
    r = run({"players": {"A": {}, "B": {}}, "objects": objs, "choices": {"c": {"creature_type": "Bear"}}},
            [{"attack": {"player": "A", "attackers": ["bear"], "defender": "B"}}, {"combat_damage": {}},
             {"move_to": {"step": "postcombat_main"}},
             {"cast": {"player": "A", "object": "squad", "alternative_cost": "prowl"}}, {"resolve": {}}])
    # the bear was a Bear (Conspiracy: creatures you control are Bears) and the Squad spell is a Bear
    assert r["steps"][3]["legal"] and r["steps"][3]["total_cost"] == "{2}{B}"
    assert obj(r, 4, "squad")["subtypes"] == ["Bear"]
    assert obj(r, 4, "theft")["subtypes"] == ["Rogue"]   # a Kindred card is not a creature card


def test_granted_prowl_with_reduction_and_changeling_source():
    objs = [{"id": "raptor", "card": "Hunting Velociraptor", "zone": "battlefield"},
            {"id": "ch", "card": "Woodland Changeling", "zone": "battlefield"},
            {"id": "med", "card": "Ruby Medallion", "zone": "battlefield"},
            {"id": "m1", "card": "Mountain", "zone": "battlefield"}, {"id": "m2", "card": "Mountain", "zone": "battlefield"},
            {"id": "dino", "card": "Hunting Velociraptor", "zone": "hand"}]
    r = go([{"attack": {"player": "A", "attackers": ["ch"], "defender": "B"}}, {"combat_damage": {}},
            {"move_to": {"step": "postcombat_main"}},
            {"cast": {"player": "A", "object": "dino", "alternative_cost": "prowl"}}], objects=objs)
    assert r["steps"][-1]["legal"] and r["steps"][-1]["total_cost"] == "{1}{R}"    # {2}{R} - {1} (118.9d)
    assert obj(r, 4, "dino")["mana_value"] == 3


def test_earwig_squad_etb_only_if_prowl_paid():
    lib = [{"id": f"c{i}", "card": "Grizzly Bears", "zone": "library", "owner": "B"} for i in range(4)]
    objs = BASE + lib + [{"id": "squad", "card": "Earwig Squad", "zone": "hand"},
                         {"id": "s3", "card": "Swamp", "zone": "battlefield"}]
    r = go([{"attack": {"player": "A", "attackers": ["rogue"], "defender": "B"}}, {"combat_damage": {}},
            {"move_to": {"step": "postcombat_main"}},
            {"cast": {"player": "A", "object": "squad", "alternative_cost": "prowl"}},
            {"resolve": {"choices": {"targets": ["B"]}}}, {"resolve": {}}], objects=objs)
    assert r["snapshots"]["5"]["stack"] == ["squad_trigger"]
    assert [obj(r, 6, f"c{i}")["zone"] for i in range(4)] == ["exile"] * 3 + ["library"]
