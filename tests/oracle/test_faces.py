"""202.3b-d (split, transforming double-faced and melded objects), 107.3j (gained abilities'
X) and 107.3n (delayed triggers' X)."""
import pytest

from castrules.oracle.cards import read_cards
from castrules.oracle.errors import RequestError
from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}
SPLIT = "Test Blast // Test Bloom"
# Unit-test cards of our own (the suite's cases use printed cards): a fused split card whose halves
# deal damage and draw, and a meld pair; passed to the oracle as extra cards.
SPLIT_CARD = {
    "name": SPLIT, "real": False, "mana_cost": None, "type_line": "Instant", "keywords": ["Fuse"], "text": "t",
    "halves": [{"name": "Test Blast", "mana_cost": "{1}{R}", "type_line": "Instant", "targets": [{"what": "any"}],
                "spell": [{"damage": {"amount": 2, "target": 0}}]},
               {"name": "Test Bloom", "mana_cost": "{2}{U}{U}", "type_line": "Instant",
                "spell": [{"draw": {"amount": 2}}]}]}
MELD_SENTRY = {
    "name": "Test Meld Sentry", "real": False, "mana_cost": "{2}{W}", "type_line": "Creature — Human Soldier",
    "power": "2", "toughness": "2", "text": "t",
    "meld": {"partner": "Test Meld Bastion",
             "melded": {"name": "Test Meld Colossus", "type_line": "Creature — Avatar", "power": "9",
                        "toughness": "9", "colors": ["W"], "text": "t"}}}
MELD_BASTION = {
    "name": "Test Meld Bastion", "real": False, "mana_cost": "{3}{W}{W}", "type_line": "Creature — Wall",
    "power": "0", "toughness": "6", "text": "t", "meld": {"partner": "Test Meld Sentry"}}


def _split(cast, pool="{U}{U}{R}{C}{C}{C}", zone="hand", library=2):
    objects = [{"id": "sb", "card": SPLIT, "zone": zone, "owner": "A"}] + [
        {"id": f"l{i}", "card": "Island", "zone": "library", "owner": "A"} for i in range(library)]
    return run({"players": {"A": {"mana_pool": pool}, "B": {}}, "objects": objects},
               [{"cast": {"player": "A", "object": "sb", **cast}}, {"resolve": {}}], extra_cards=[SPLIT_CARD])


def parse_card(doc: dict):
    return read_cards([doc])[doc["name"]]


def test_split_card_parses_combined_cost_targets_and_effects():
    card = parse_card(SPLIT_CARD)
    assert card.mana_cost == "{3}{U}{U}{R}"
    assert [h.name for h in card.halves] == ["Test Blast", "Test Bloom"]
    assert len(card.targets) == 1 and [e.kind for e in card.spell] == ["damage", "draw"]


def test_split_card_needs_null_mana_cost_and_two_halves():
    raw = dict(SPLIT_CARD)
    with pytest.raises(RequestError):
        parse_card({**raw, "mana_cost": "{1}"})
    with pytest.raises(RequestError):
        parse_card({**raw, "halves": raw["halves"][:1]})


def test_right_half_shifts_target_references_when_combined():
    raw = {"name": "Test L // Test R", "real": False, "mana_cost": None, "type_line": "Instant", "text": "t",
           "halves": [{"name": "Test L", "mana_cost": "{R}", "type_line": "Instant",
                       "targets": [{"what": "any"}], "spell": [{"damage": {"amount": 1, "target": 0}}]},
                      {"name": "Test R", "mana_cost": "{U}", "type_line": "Instant",
                       "targets": [{"what": "player"}], "spell": [{"lose_life": {"amount": 1, "player": "target:0"}},
                                                                  {"damage": {"amount": 1, "target": 0}}]}]}
    card = parse_card(raw)
    assert card.halves[1].spell[0].player == "target:0"
    assert card.spell[1].player == "target:1" and card.spell[2].target == 1


def test_each_half_on_the_stack_and_resolving():
    left = _split({"half": 0, "targets": ["B"]})
    assert left["steps"][0]["total_cost"] == "{1}{R}"
    assert obj(left, 1, "sb")["name"] == "Test Blast" and obj(left, 1, "sb")["mana_value"] == 2
    assert obj(left, 1, "sb")["colors"] == ["R"]
    assert player(left, 2, "B")["life"] == 18 and obj(left, 2, "l0")["zone"] == "library"
    right = _split({"half": 1})
    assert right["steps"][0]["total_cost"] == "{2}{U}{U}" and obj(right, 1, "sb")["mana_value"] == 4
    assert obj(right, 2, "l0")["zone"] == "hand" and obj(right, 2, "l1")["zone"] == "hand"
    assert obj(right, 2, "sb")["mana_value"] == 6 and obj(right, 2, "sb")["name"] == SPLIT


def test_fused_does_both_halves():
    r = _split({"fuse": True, "targets": ["B"]})
    assert r["steps"][0]["total_cost"] == "{3}{U}{U}{R}" and obj(r, 1, "sb")["mana_value"] == 6
    assert sorted(obj(r, 1, "sb")["colors"]) == ["R", "U"]
    assert player(r, 2, "B")["life"] == 18 and obj(r, 2, "l1")["zone"] == "hand"


@pytest.mark.parametrize("cast", [{}, {"half": 2}, {"half": 0, "fuse": True}])
def test_bad_split_choices(cast):
    r = _split({**cast, "targets": ["B"]})
    assert r["steps"][0] == {"legal": False, "reason": "invalid_split_choice", "substep": "601.2a"}
    assert obj(r, 1, "sb")["zone"] == "hand"


def test_fuse_only_from_hand():
    perm = {"id": "perm", "card": "Kess, Dissident Mage", "zone": "battlefield", "controller": "A"}
    r = run({"players": {"A": {"mana_pool": "{U}{U}{R}{C}{C}{C}"}, "B": {}},
             "objects": [{"id": "sb", "card": SPLIT, "zone": "graveyard", "owner": "A"}, perm]},
            [{"cast": {"player": "A", "object": "sb", "fuse": True, "targets": ["B"]}}], extra_cards=[SPLIT_CARD])
    assert r["steps"][0]["reason"] == "invalid_split_choice"


def test_half_on_a_card_that_is_not_split():
    r = run({"players": AB, "objects": [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "A"},
                                       {"id": "m", "card": "Mountain", "zone": "battlefield", "controller": "A"}]},
            [{"cast": {"player": "A", "object": "bolt", "half": 0, "targets": ["B"]}}])
    assert r["steps"][0]["reason"] == "invalid_split_choice"


def test_copy_of_a_half_keeps_the_half():
    r = run({"players": {"A": {"mana_pool": "{R}{C}"}, "B": {}},
             "objects": [{"id": "sb", "card": SPLIT, "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "sb", "half": 0, "targets": ["B"]}},
             {"copy_spell": {"object": "sb", "new_id": "c"}}], extra_cards=[SPLIT_CARD])
    assert obj(r, 2, "c")["name"] == "Test Blast" and obj(r, 2, "c")["mana_value"] == 2


# ---- 202.3b / 202.3c ------------------------------------------------------------------------------

def test_transformed_permanent_and_its_front_elsewhere():
    r = run({"players": AB, "objects": [{"id": "w", "card": "Huntmaster of the Fells", "zone": "battlefield",
                                         "controller": "A", "transformed": True}]},
            [{"destroy": {"object": "w"}}])
    assert obj(r, 0, "w")["name"] == "Ravager of the Fells" and obj(r, 0, "w")["mana_value"] == 4
    assert obj(r, 0, "w")["mana_cost"] is None
    assert obj(r, 1, "w")["name"] == "Huntmaster of the Fells" and obj(r, 1, "w")["mana_value"] == 4


def test_transformed_setup_needs_a_back_face_and_a_token_copy_is_transforming():
    with pytest.raises(RequestError):
        run({"players": AB, "objects": [{"id": "b", "card": "Grizzly Bears", "zone": "battlefield",
                                         "transformed": True}]}, [])
    wolf = {"id": "w", "card": "Huntmaster of the Fells", "zone": "battlefield", "transformed": True}
    r = run({"players": AB, "objects": [wolf]}, [{"copy_permanent": {"object": "w", "new_id": "t"}}])
    token = obj(r, 1, "t")      # 707.8a: both faces, the back one up; 202.3b: the front face's mana value
    assert (token["name"], token["mana_value"], token["power"], token["is_copy"]) == ("Ravager of the Fells", 4, 4, True)
    bears = {"id": "b", "card": "Grizzly Bears", "zone": "battlefield"}
    with pytest.raises(RequestError):      # a transformed permanent that is itself a copy: not modelled
        run({"players": AB, "objects": [wolf, bears]},
            [{"become_copy": {"object": "w", "of": "b"}}, {"copy_permanent": {"object": "w", "new_id": "t"}}])


def _melded(steps=()):
    return run({"players": AB, "objects": [{"id": "m", "card": "Test Meld Sentry", "zone": "battlefield",
                                            "controller": "A", "melded_with": "Test Meld Bastion"}]},
               list(steps), extra_cards=[MELD_SENTRY, MELD_BASTION])


def test_melded_permanent_and_its_copy():
    r = _melded([{"copy_permanent": {"object": "m", "new_id": "t"}}])
    assert obj(r, 0, "m")["mana_value"] == 8 and obj(r, 0, "m")["name"] == "Test Meld Colossus"
    assert obj(r, 1, "t")["mana_value"] == 0 and obj(r, 1, "t")["power"] == 9


def test_melded_permanent_leaving_is_not_modelled():
    with pytest.raises(RequestError):
        _melded([{"destroy": {"object": "m"}}])


def test_melded_with_must_be_the_partner():
    with pytest.raises(RequestError):
        run({"players": AB, "objects": [{"id": "m", "card": "Test Meld Sentry", "zone": "battlefield",
                                         "melded_with": "Grizzly Bears"}]}, [], extra_cards=[MELD_SENTRY])


# ---- 107.3j / 107.3n --------------------------------------------------------------------------

def test_gained_ability_is_only_on_matching_permanents_on_the_battlefield():
    r = run({"players": {"A": {"mana_pool": "{C}{C}"}, "B": {}},
             "objects": [{"id": "banner", "card": "Test Banner of Embers", "zone": "battlefield", "controller": "A"},
                         {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
                         {"id": "sol", "card": "Sol Ring", "zone": "battlefield", "controller": "A"}]},
            [{"activate": {"player": "B", "object": "bear", "x": 1, "targets": ["A"]}},
             {"activate": {"player": "A", "object": "sol", "x": 1, "targets": ["B"]}}])
    assert r["steps"][0]["legal"] is False and r["steps"][1]["legal"] is False


def test_gained_ability_needs_its_x():
    r = run({"players": {"A": {"mana_pool": "{C}{C}"}, "B": {}},
             "objects": [{"id": "banner", "card": "Test Banner of Embers", "zone": "battlefield", "controller": "A"},
                         {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"}]},
            [{"activate": {"player": "A", "object": "bear", "targets": ["B"]}},
             {"activate": {"player": "A", "object": "bear", "x": 2, "targets": ["B"]}}, {"resolve": {}}])
    assert r["steps"][0]["reason"] == "invalid_x"
    assert player(r, 3, "B")["life"] == 18


def test_delayed_trigger_created_in_the_end_step_waits_for_the_next_one():
    r = run({"players": {"A": {"mana_pool": "{B}{C}"}, "B": {}},
             "turn": {"active": "A", "step": "end"},
             "objects": [{"id": "d", "card": "Test Lingering Drain", "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "d", "x": 1}}])
    assert r["steps"][0]["reason"] == "wrong_timing"


def test_next_turn_before_the_end_step_with_a_waiting_trigger_is_refused():
    with pytest.raises(RequestError):
        run({"players": {"A": {"mana_pool": "{B}{C}"}, "B": {}},
             "objects": [{"id": "d", "card": "Test Lingering Drain", "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "d", "x": 1}}, {"resolve": {}}, {"next_turn": {}}])


def test_copy_of_the_spell_makes_its_own_delayed_trigger():
    r = run({"players": {"A": {"mana_pool": "{B}{C}{C}"}, "B": {}},
             "objects": [{"id": "d", "card": "Test Lingering Drain", "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "d", "x": 2}}, {"copy_spell": {"object": "d", "new_id": "c"}},
             {"resolve": {}}, {"resolve": {}}, {"move_to": {"step": "end"}}, {"resolve": {}}, {"resolve": {}}])
    assert player(r, 4, "B")["life"] == 16
    assert obj(r, 5, "c_trigger")["x"] == 2 and obj(r, 5, "d_trigger")["x"] == 2
    assert player(r, 7, "B")["life"] == 12
