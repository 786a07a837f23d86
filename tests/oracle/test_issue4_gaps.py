"""Issue 4 gaps: choosing between prowl costs, filters by mana value / power / toughness,
state-based actions (704.5a/f/g) and the end of the game, new targets for spell copies."""
import pytest

from castrules.model import Filter, ModelError
from castrules.oracle.prowl import ProwlCost, choose_prowl
from oracle_helpers import obj, player, run

LANDS = [{"id": f"i{n}", "card": "Island", "zone": "battlefield"} for n in range(4)] + \
        [{"id": f"m{n}", "card": "Mountain", "zone": "battlefield"} for n in range(3)]
THIEF = [{"id": "nexus", "card": "Maskwood Nexus", "zone": "battlefield"},
         {"id": "raptor", "card": "Hunting Velociraptor", "zone": "battlefield"},
         {"id": "rogue", "card": "Bane Alley Blackguard", "zone": "battlefield"},
         {"id": "thief", "card": "Enigma Thief", "zone": "hand"}] + LANDS
HIT = [{"attack": {"player": "A", "attackers": ["rogue"], "defender": "B"}}, {"combat_damage": {}},
       {"move_to": {"step": "postcombat_main"}}]


def test_choose_prowl_defaults_and_named_source():
    costs = [ProwlCost("{3}{U}", "printed"), ProwlCost("{2}{R}", "raptor")]
    assert choose_prowl(costs, None).cost == "{3}{U}"
    assert choose_prowl(costs, "raptor").cost == "{2}{R}"
    assert choose_prowl(costs, "nexus") is None
    assert choose_prowl(costs, "grave", zone_permission="grave").cost == "{3}{U}"
    assert choose_prowl([ProwlCost("{2}{R}", "r1"), ProwlCost("{1}{R}", "r2")], None).cost == "{1}{R}"


@pytest.mark.parametrize("permission, legal, total", [
    (None, True, "{3}{U}"), ("raptor", True, "{2}{R}"), ("nexus", False, None), ("i0", False, None)])
def test_two_prowl_costs_on_one_spell(permission, legal, total):
    cast = {"player": "A", "object": "thief", "alternative_cost": "prowl"}
    if permission:
        cast["permission"] = permission
    r = run({"players": {"A": {}, "B": {}}, "objects": THIEF}, HIT + [{"cast": cast}])
    step = r["steps"][-1]
    assert step["legal"] is legal
    if legal:
        assert step["total_cost"] == total
        assert obj(r, 4, "thief")["mana_value"] == 7 and obj(r, 4, "thief")["prowl_paid"]
    else:
        assert step["reason"] == "alternative_cost_unavailable" and step["substep"] == "601.2b"
        assert obj(r, 4, "thief")["zone"] == "hand"


def test_filter_bounds_parse_and_reject_unknown():
    f = Filter.from_document({"mana_value_max": 3, "power_min": 3, "toughness_max": 2}, "t")
    assert (f.mana_value_max, f.power_min, f.toughness_max, f.mana_value_min) == (3, 3, 2, None)
    with pytest.raises(ModelError):
        Filter.from_document({"power_at_most": 2}, "t")


@pytest.mark.parametrize("flt, prototype, legal", [
    ({"mana_value_max": 3}, True, True), ({"mana_value_max": 3}, False, False),
    ({"mana_value_min": 5}, True, False), ({"mana_value_min": 5}, False, True),
    ({"power_max": 2, "toughness_max": 3}, True, True), ({"power_max": 2}, False, False),
    ({"toughness_min": 4}, True, False), ({"power_min": 5}, False, True),
])
def test_graveyard_permission_by_prototype_values(flt, prototype, legal):
    card = {"name": "Test Filtered Recaller", "real": False, "mana_cost": "{2}", "type_line": "Artifact",
            "text": "test", "abilities": [{"kind": "cast_permission", "from": ["graveyard"],
                                           "spells": {"types": ["Creature"], **flt}}]}
    objects = [{"id": "rec", "card": card["name"], "zone": "battlefield"},
               {"id": "am", "card": "Rootwire Amalgam", "zone": "graveyard"}]
    r = run({"players": {"A": {"mana_pool": "{G}{G}{G}{G}{G}"}, "B": {}}, "objects": objects},
            [{"cast": {"player": "A", "object": "am", "prototype": prototype}}], extra_cards=[card])
    assert r["steps"][0]["legal"] is legal
    if not legal:
        assert r["steps"][0]["reason"] == "no_permission"


def test_power_filter_never_matches_an_object_without_power():
    card = {"name": "Test Small Permission", "real": False, "mana_cost": "{2}", "type_line": "Artifact",
            "text": "test", "abilities": [{"kind": "cast_permission", "from": ["graveyard"], "spells": {"power_max": 5}}]}
    objects = [{"id": "rec", "card": card["name"], "zone": "battlefield"},
               {"id": "bolt", "card": "Lightning Bolt", "zone": "graveyard"}]
    r = run({"players": {"A": {"mana_pool": "{R}"}, "B": {}}, "objects": objects},
            [{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}], extra_cards=[card])
    assert r["steps"][0] == {"legal": False, "reason": "no_permission", "substep": "601.2a"}


def test_two_player_loss_ends_the_game_and_freezes_it():
    r = run({"players": {"A": {"life": 2}, "B": {}}, "objects": [{"id": "probe", "card": "Gitaxian Probe", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "probe", "targets": ["B"], "phyrexian": ["life"]}}, {"resolve": {}}])
    assert r["steps"][0]["legal"] and player(r, 1, "A") == {**player(r, 1, "A"), "life": 0, "in_game": False}
    assert player(r, 1, "B")["in_game"] and obj(r, 1, "probe")["zone"] == "stack"
    assert r["steps"][1] == {"legal": False, "reason": "invalid_action"}
    assert any(t["rule"] == "704.5a" and "104.2a" in t["rules"] for t in r["trace"])


def test_multiplayer_loss_removes_the_player_and_their_objects():
    r = run({"players": {"A": {}, "B": {"life": 1}, "C": {}},
             "objects": [{"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"}]},
            [{"lose_life": {"player": "B", "amount": 1}}, {"lose_life": {"player": "C", "amount": 25}}])
    assert not player(r, 1, "B")["in_game"] and player(r, 1, "C")["in_game"]
    assert r["snapshots"]["1"]["objects"].get("bears", {"zone": "gone"})["zone"] == "gone"
    assert not player(r, 2, "C")["in_game"] and player(r, 2, "A")["in_game"]


def test_simultaneous_loss_is_a_draw():
    from castrules.oracle.players import players_leave
    from castrules.oracle.setup import build_state
    from castrules.oracle.cards import read_cards
    from castrules.oracle.trace import Trace
    state = build_state({"players": {"A": {}, "B": {}}}, read_cards({}))
    trace = Trace(0)
    state = players_leave(state, ("A", "B"), "704.5a", "both lose", trace)
    assert state.game_over and not any(p.in_game for p in state.players)
    assert "draw" in trace.lines[-1].note


def test_zero_toughness_and_lethal_damage():
    r = run({"players": {"A": {}, "B": {}},
             "objects": [{"id": "one", "card": "Endless One", "zone": "hand"},
                         {"id": "mentor", "card": "Bloodmark Mentor", "zone": "battlefield"},
                         {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"}]},
            [{"cast": {"player": "A", "object": "one", "x": 0}}, {"resolve": {}},
             {"deal_damage": {"source": "mentor", "to": "bears", "amount": 1}},
             {"deal_damage": {"source": "mentor", "to": "bears", "amount": 1}}])
    assert obj(r, 2, "one")["zone"] == "graveyard"
    assert obj(r, 3, "bears")["zone"] == "battlefield" and obj(r, 4, "bears")["zone"] == "graveyard"


BOLT = [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"},
        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"}]


@pytest.mark.parametrize("targets, legal, reason", [
    (["bears"], True, None), (["B"], True, None), (["A"], True, None), (["B", "A"], False, "wrong_number_of_targets"),
    (["bolt"], False, "invalid_target"), (["bolt_copy"], False, "invalid_target")])
def test_copy_new_targets(targets, legal, reason):
    r = run({"players": {"A": {"mana_pool": "{R}"}, "B": {}}, "objects": BOLT},
            [{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}},
             {"copy_spell": {"object": "bolt", "new_id": "bolt_copy", "targets": targets}}])
    step = r["steps"][1]
    assert step["legal"] is legal
    if legal:
        assert obj(r, 2, "bolt_copy")["zone"] == "stack"
    else:
        assert step["reason"] == reason and r["snapshots"]["2"]["stack"] == ["bolt"]
