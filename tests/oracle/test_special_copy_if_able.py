"""202.3b (becoming a copy of a back face), 107.3d (X in a special action's cost: suspend) and
118.8c (casting "if able" with a hidden-zone additional cost)."""
from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}


def _copy(transformed: bool, copier_transformed: bool = False):
    objects = [{"id": "wolf", "card": "Huntmaster of the Fells", "zone": "battlefield", "controller": "B",
                "transformed": transformed},
               {"id": "me", "card": "Huntmaster of the Fells" if copier_transformed else "Grizzly Bears",
                "zone": "battlefield", "controller": "A", "tapped": True, "counters": {"+1/+1": 2}, "damage": 1,
                **({"transformed": True} if copier_transformed else {})}]
    return run({"players": AB, "objects": objects}, [{"become_copy": {"object": "me", "of": "wolf"}}])


def test_become_copy_of_back_face_has_mana_value_zero_and_keeps_status():
    r = _copy(True)
    assert r["steps"][0]["legal"]
    me = obj(r, 1, "me")
    assert (me["name"], me["mana_value"], me["mana_cost"]) == ("Ravager of the Fells", 0, None)
    assert (me["power"], me["tapped"], me["damage"], me["controller"]) == (6, True, 1, "A")
    assert obj(r, 1, "wolf")["mana_value"] == 4


def test_become_copy_of_front_face_copies_mana_cost():
    me = obj(_copy(False), 1, "me")
    assert (me["name"], me["mana_value"]) == ("Huntmaster of the Fells", 4)


def test_transformed_double_faced_copier_of_back_face_is_zero():
    r = _copy(True, copier_transformed=True)
    assert obj(r, 0, "me")["mana_value"] == 4 and obj(r, 1, "me")["mana_value"] == 0


def test_copy_effect_ends_when_the_permanent_leaves():
    r = run({"players": AB, "objects": [
        {"id": "wolf", "card": "Huntmaster of the Fells", "zone": "battlefield", "controller": "B", "transformed": True},
        {"id": "me", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"}]},
        [{"become_copy": {"object": "me", "of": "wolf"}}, {"return_to_hand": {"object": "me"}}])
    assert obj(r, 2, "me")["name"] == "Grizzly Bears" and obj(r, 2, "me")["mana_value"] == 2


def _suspend(x=None, mountains=3, active="A", **extra):
    objects = [{"id": "blast", "card": "Test Slow Blast", "zone": "hand", "owner": "A"}] + [
        {"id": f"m{i}", "card": "Mountain", "zone": "battlefield", "controller": "A"} for i in range(mountains)]
    body = {"player": "A", "object": "blast", "action": "suspend", **extra}
    if x is not None:
        body["x"] = x
    return run({"players": AB, "turn": {"active": active}, "objects": objects}, [{"special_action": body}])


def test_suspend_pays_x_and_adds_time_counters():
    r = _suspend(2)
    assert r["steps"][0] == {"legal": True}
    assert obj(r, 1, "blast")["zone"] == "exile" and obj(r, 1, "blast")["counters"] == {"time": 2}
    assert all(obj(r, 1, f"m{i}")["tapped"] for i in range(3))
    assert r["snapshots"]["1"]["stack"] == []


def test_suspend_x_zero_pays_only_red():
    r = _suspend(0, mountains=1)
    assert r["steps"][0]["legal"] and obj(r, 1, "blast")["counters"] == {}


def test_suspend_bad_x_timing_and_mana():
    assert _suspend(None)["steps"][0]["reason"] == "invalid_x"
    assert _suspend(-2)["steps"][0]["reason"] == "invalid_x"
    assert _suspend(3)["steps"][0]["reason"] == "insufficient_mana"
    assert _suspend(1, active="B")["steps"][0]["reason"] == "wrong_timing"
    r = _suspend(3)
    assert obj(r, 1, "blast")["zone"] == "hand" and not obj(r, 1, "m0")["tapped"]


def test_suspend_needs_suspend_and_the_hand():
    r = run({"players": AB, "objects": [{"id": "g", "card": "Grizzly Bears", "zone": "hand", "owner": "A"}]},
            [{"special_action": {"player": "A", "object": "g", "action": "suspend", "x": 0}}])
    assert r["steps"][0]["reason"] == "invalid_action"


def _cast_order(top: str, choices: dict | None, hand: str | None = "Shivan Dragon"):
    objects = [{"id": "order", "card": "Test Compelling Order", "zone": "hand", "owner": "A"},
               {"id": "top", "card": top, "zone": "library", "owner": "B"}]
    if hand:
        objects.append({"id": "h", "card": hand, "zone": "hand", "owner": "B"})
    steps = [{"cast": {"player": "A", "object": "order", "targets": ["B"]}},
             {"resolve": {"choices": choices} if choices is not None else {}}]
    return run({"players": {"A": {"mana_pool": "{U}{U}{U}"}, "B": {}}, "objects": objects}, steps)


def test_hidden_zone_cost_excuses_and_default_does_not_cast():
    for choices in ({"decline_cast": True}, None):
        r = _cast_order("Test Dragon's Summons", choices)
        assert r["steps"][1]["legal"] and obj(r, 2, "top")["zone"] == "library"


def test_excused_spell_may_be_cast_with_reveal():
    r = _cast_order("Test Dragon's Summons", {"cast": {"reveal": ["h"]}})
    assert r["steps"][1]["legal"] and r["snapshots"]["2"]["stack"] == ["top"]
    assert obj(r, 2, "top")["controller"] == "B" and obj(r, 2, "h")["zone"] == "hand"


def test_plain_spell_must_be_cast():
    r = _cast_order("Test Kicker Growth", {"decline_cast": True})
    assert r["steps"][1]["reason"] == "cast_required" and r["snapshots"]["2"]["stack"] == ["order"]
    r = _cast_order("Test Kicker Growth", None)
    assert r["snapshots"]["2"]["stack"] == ["top"] and obj(r, 2, "order")["zone"] == "graveyard"


def test_unable_cast_may_be_declined():
    # a land can't be cast: the player is not able, so declining is fine and nothing happens
    r = _cast_order("Mountain", {"decline_cast": True}, hand=None)
    assert r["steps"][1]["legal"] and obj(r, 2, "top")["zone"] == "library"


def test_required_cast_searches_targets():
    r = _cast_order("Lightning Bolt", None, hand=None)
    assert r["steps"][1]["legal"] and r["snapshots"]["2"]["stack"] == ["top"]
    assert _cast_order("Lightning Bolt", {"decline_cast": True}, hand=None)["steps"][1]["reason"] == "cast_required"
