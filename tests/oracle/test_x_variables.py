"""107.3c, 107.3f, 107.3h, 107.3k, 107.3p: X defined by text or chosen for it, X in activation
costs, paying an object's mana cost, and Y / Z as variables of their own."""
import pytest

from castrules.oracle.cards import read_cards
from castrules.oracle.costs import ManaCost, resolve_choices
from castrules.oracle.errors import RequestError
from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}


def _lands(card, n, prefix, controller="A"):
    return [{"id": f"{prefix}{i}", "card": card, "zone": "battlefield", "controller": controller} for i in range(n)]


# ---- 107.3p: Y (and Z) ----------------------------------------------------------------------

def _blast(cast_extra, lands=4):
    objects = _lands("Mountain", 1, "m") + _lands("Wastes", lands - 1, "w") + [
        {"id": "blast", "card": "Test Twin-Variable Blast", "zone": "hand", "owner": "A"}]
    return run({"players": AB, "objects": objects},
               [{"cast": {"player": "A", "object": "blast", "targets": ["B"], **cast_extra}}, {"resolve": {}}])


def test_y_is_announced_and_counted_separately():
    r = _blast({"x": 2, "y": 1})
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == "{3}{R}"
    assert obj(r, 1, "blast")["mana_value"] == 4 and obj(r, 1, "blast")["y"] == 1
    assert player(r, 2, "B")["life"] == 18 and player(r, 2, "A")["life"] == 21


def test_y_and_x_values_are_not_interchangeable():
    r = _blast({"x": 1, "y": 2})
    assert player(r, 2, "B")["life"] == 19 and player(r, 2, "A")["life"] == 22


@pytest.mark.parametrize("extra", [{"x": 2}, {"y": 1}, {"x": 1, "y": -1}, {"x": 1, "y": 1, "z": 1}])
def test_bad_y_announcements(extra):
    r = _blast(extra)
    assert r["steps"][0]["legal"] is False
    assert (r["steps"][0]["reason"], r["steps"][0]["substep"]) == ("invalid_x", "601.2b")
    assert obj(r, 1, "blast")["zone"] == "hand"


def test_y_off_the_stack_is_zero():
    r = _blast({"x": 1, "y": 1})
    assert obj(r, 0, "blast")["mana_value"] == 1 and obj(r, 0, "blast")["y"] == 0
    assert obj(r, 2, "blast")["zone"] == "graveyard" and obj(r, 2, "blast")["mana_value"] == 1


def test_mana_layer_keeps_variables_apart():
    cost = ManaCost.parse("{X}{Y}{R}")
    assert str(resolve_choices(cost, 2, y=1)) == "{3}{R}"
    assert cost.mana_value(2, y=1) == 4 and cost.mana_value() == 1


# ---- 107.3k: X in an activation cost --------------------------------------------------------

def _hydra(steps, wastes=3):
    objects = [{"id": "hydra", "card": "Test Ballista Hydra", "zone": "battlefield", "controller": "A",
                "counters": {"+1/+1": 3}}] + _lands("Wastes", wastes, "w")
    return run({"players": AB, "objects": objects}, steps)


def test_activation_x_is_its_own():
    r = _hydra([{"activate": {"player": "A", "object": "hydra", "x": 2, "targets": ["B"]}}, {"resolve": {}}])
    assert r["steps"][0]["legal"] and obj(r, 1, "hydra_ability")["x"] == 2
    assert obj(r, 1, "hydra")["x"] == 0
    assert player(r, 2, "B")["life"] == 18
    assert sum(obj(r, 1, f"w{i}")["tapped"] for i in range(3)) == 2


@pytest.mark.parametrize("x", [None, -1])
def test_activation_without_valid_x_is_illegal(x):
    body = {"player": "A", "object": "hydra", "targets": ["B"]}
    if x is not None:
        body["x"] = x
    r = _hydra([{"activate": body}])
    assert r["steps"][0] == {"legal": False, "reason": "invalid_x"}
    assert r["snapshots"]["1"]["stack"] == []


def test_activation_x_too_large_to_pay():
    r = _hydra([{"activate": {"player": "A", "object": "hydra", "x": 4, "targets": ["B"]}}])
    assert r["steps"][0]["legal"] is False and r["steps"][0]["reason"] == "insufficient_mana"


def test_x_announced_for_an_ability_without_x():
    objects = [{"id": "s", "card": "Test Sacrifice Stone", "zone": "battlefield", "controller": "A"}]
    card = {"name": "Test Sacrifice Stone", "real": False, "mana_cost": "{1}", "type_line": "Artifact",
            "text": "Pay {0}: gain 1 life.",
            "abilities": [{"kind": "activated", "cost": {"mana": "{0}"}, "effect": [{"gain_life": 1}]}]}
    r = run({"players": AB, "objects": objects}, [{"activate": {"player": "A", "object": "s", "x": 2}}],
            extra_cards=[card])
    assert r["steps"][0] == {"legal": False, "reason": "invalid_x"}


# ---- 107.3c: X defined by the text ----------------------------------------------------------

def _bolt(steps, lands=3):
    objects = _lands("Mountain", lands, "m") + [{"id": "bolt", "card": "Test Land Count Bolt", "zone": "hand",
                                                 "owner": "A"}]
    return run({"players": AB, "objects": objects}, steps)


def test_defined_x_follows_the_definition():
    cast = {"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}
    r = _bolt([cast, {"destroy": {"object": "m2"}}, {"resolve": {}}])
    assert obj(r, 1, "bolt")["x"] == 3 and obj(r, 2, "bolt")["x"] == 2
    assert player(r, 3, "B")["life"] == 18


@pytest.mark.parametrize("x", [0, 3])
def test_defined_x_cannot_be_announced(x):
    r = _bolt([{"cast": {"player": "A", "object": "bolt", "targets": ["B"], "x": x}}])
    assert (r["steps"][0]["reason"], r["steps"][0]["substep"]) == ("invalid_x", "601.2b")


def test_defined_x_rejects_a_resolution_choice():
    r = _bolt([{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}, {"resolve": {"choices": {"x": 9}}}])
    assert r["steps"][1] == {"legal": False, "reason": "invalid_x"}


def test_text_x_not_allowed_beside_x_in_the_mana_cost():
    with pytest.raises(RequestError, match="text_x is for an X that is in no cost"):
        read_cards([{"name": "Test Bad", "real": False, "mana_cost": "{X}{R}", "type_line": "Sorcery", "text": "t",
                     "text_x": {"choose": "cast"}}])


def test_domain_x_counts_basic_land_types_of_its_controllers_lands():
    # Tribal Flames: X = basic land types among lands its controller controls (107.3c)
    objects = [*_lands("Mountain", 2, "m"), {"id": "f", "card": "Forest", "zone": "battlefield", "controller": "A"},
               {"id": "p", "card": "Plains", "zone": "battlefield", "controller": "B"},
               {"id": "tf", "card": "Tribal Flames", "zone": "hand", "owner": "A"}]
    r = run({"players": AB, "objects": objects},
            [{"cast": {"player": "A", "object": "tf", "targets": ["B"]}}, {"destroy": {"object": "f"}}, {"resolve": {}}])
    assert obj(r, 1, "tf")["x"] == 2 and obj(r, 2, "tf")["x"] == 1 and player(r, 3, "B")["life"] == 19


def test_text_x_is_exactly_one_definition():
    with pytest.raises(RequestError, match="text_x is"):
        read_cards([{"name": "Test Bad", "real": False, "mana_cost": "{R}", "type_line": "Sorcery", "text": "t",
                     "text_x": {"domain": "you", "choose": "cast"}}])


# ---- 107.3f: X only in the text, chosen -----------------------------------------------------

def _number(card, cast_extra, resolve):
    land = "Swamp" if card == "Test Resolution Number" else "Plains"
    objects = _lands(land, 2, "l") + [{"id": "num", "card": card, "zone": "hand", "owner": "A"}]
    targets = {"targets": ["B"]} if card == "Test Resolution Number" else {}
    return run({"players": AB, "objects": objects},
               [{"cast": {"player": "A", "object": "num", **targets, **cast_extra}}, {"resolve": resolve}])


def test_resolution_choice():
    r = _number("Test Resolution Number", {}, {"choices": {"x": 3}})
    assert r["steps"][0]["total_cost"] == "{1}{B}" and obj(r, 1, "num")["mana_value"] == 2
    assert obj(r, 1, "num")["x"] is None
    assert player(r, 2, "B")["life"] == 17


@pytest.mark.parametrize("choices", [{}, {"x": -1}, {"x": "2"}])
def test_resolution_choice_required(choices):
    r = _number("Test Resolution Number", {}, {"choices": choices})
    assert r["steps"][1] == {"legal": False, "reason": "invalid_x"}
    assert r["snapshots"]["2"]["stack"] == ["num"]


def test_cast_choice_kept_on_the_stack_not_in_mana_value():
    r = _number("Test Announced Number", {"x": 5}, {})
    assert r["steps"][0]["total_cost"] == "{W}"
    assert obj(r, 1, "num")["x"] == 5 and obj(r, 1, "num")["mana_value"] == 1
    assert player(r, 2, "A")["life"] == 25


def test_cast_choice_required():
    r = _number("Test Announced Number", {}, {})
    assert (r["steps"][0]["reason"], r["steps"][0]["substep"]) == ("invalid_x", "601.2b")


# ---- 107.3h: paying an object's mana cost ---------------------------------------------------

def test_pay_mana_cost_of_card_treats_x_as_zero():
    r = run({"players": {"A": {"mana_pool": "{R}{R}"}, "B": {}},
             "objects": [{"id": "blaze", "card": "Blaze", "zone": "graveyard", "owner": "A"}]},
            [{"pay_mana_cost": {"player": "A", "object": "blaze"}}])
    assert r["steps"][0]["legal"] and player(r, 1, "A")["mana_pool"] == "{R}"


def test_pay_mana_cost_of_spell_uses_its_x_and_may_use_mana_abilities():
    objects = _lands("Mountain", 2, "m") + _lands("Mountain", 3, "bm", "B") + [
        {"id": "blaze", "card": "Blaze", "zone": "hand", "owner": "A"}]
    r = run({"players": AB, "objects": objects},
            [{"cast": {"player": "A", "object": "blaze", "x": 1, "targets": ["B"]}},
             {"pay_mana_cost": {"player": "B", "object": "blaze"}}])
    assert r["steps"][1]["legal"]
    assert sum(obj(r, 2, f"bm{i}")["tapped"] for i in range(3)) == 2


def test_pay_mana_cost_of_object_without_mana_cost_is_unpayable():
    r = run({"players": AB, "objects": _lands("Mountain", 1, "m")},
            [{"pay_mana_cost": {"player": "A", "object": "m0"}}])
    assert r["steps"][0] == {"legal": False, "reason": "unpayable_cost"}


@pytest.mark.parametrize("pool,legal", [("{G}{W}", True), ("{W}{W}", True), ("{G}", False)])
def test_pay_mana_cost_hybrid_choice_is_found(pool, legal):
    r = run({"players": {"A": {"mana_pool": pool}, "B": {}},
             "objects": [{"id": "bear", "card": "Selesnya Guildmage", "zone": "hand", "owner": "A"}]},
            [{"pay_mana_cost": {"player": "A", "object": "bear"}}])
    assert r["steps"][0]["legal"] is legal
    assert player(r, 1, "A")["mana_pool"] == ("" if legal else pool)


# ---- 107.3e: another object's X -------------------------------------------------------------

@pytest.mark.parametrize("x,gain", [(0, 0), (2, 2)])
def test_target_x_reads_the_targets_announced_x(x, gain):
    objects = _lands("Mountain", 3, "m") + _lands("Island", 1, "i") + [
        {"id": "blaze", "card": "Blaze", "zone": "hand", "owner": "A"},
        {"id": "echo", "card": "Test X Echo", "zone": "hand", "owner": "A"}]
    r = run({"players": AB, "objects": objects},
            [{"cast": {"player": "A", "object": "blaze", "x": x, "targets": ["B"],
                       "mana_abilities": [{"object": f"m{i}"} for i in range(x + 1)]}},
             {"cast": {"player": "A", "object": "echo", "targets": ["blaze"], "mana_abilities": [{"object": "i0"}]}},
             {"resolve": {}}])
    assert r["steps"][1]["legal"] and player(r, 3, "A")["life"] == 20 + gain


# ---- 202.3e at 601.2f: a cost modifier judging mana value sees the announced X ----------------

@pytest.mark.parametrize("x, total", [(6, "{4}"), (5, "{5}")])
def test_mana_value_modifier_counts_announced_x(x, total):
    """Krosan Drover reduces creature spells of mana value 6 or more: Endless One's X is already
    announced (601.2b) when the total is determined (601.2f), so X=6 qualifies and X=5 does not."""
    objects = _lands("Wastes", 6, "w") + [
        {"id": "drover", "card": "Krosan Drover", "zone": "battlefield", "controller": "A"},
        {"id": "endless", "card": "Endless One", "zone": "hand", "owner": "A"}]
    r = run({"players": AB, "objects": objects}, [{"cast": {"player": "A", "object": "endless", "x": x}}])
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == total
    assert obj(r, 1, "endless")["mana_value"] == x
