"""601.3b-d, 601.5, 601.5a (casting as though it had flash) and 616.1 (the order of replacement
effects on one mana production, `replacements` on an activation)."""
from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}
B_TURN = {"active": "B", "step": "precombat_main"}


def _cast(objects, cast, pool="", turn=B_TURN, extra_cards=None):
    players = {"A": {"mana_pool": pool}, "B": {}}
    return run({"players": players, "turn": turn, "objects": objects}, [{"cast": {"player": "A", **cast}}],
               extra_cards=extra_cards)


def _step(r, n=0):
    return r["steps"][n]


def test_red_permission_covers_prototyped_blitz_only():
    objects = [{"id": "hc", "card": "Test Red Haste-Caster", "zone": "battlefield", "controller": "A"},
               {"id": "blitz", "card": "Blitz Automaton", "zone": "hand", "owner": "A"}]
    ok = _cast(objects, {"object": "blitz", "prototype": True}, "{R}{R}{R}")
    assert _step(ok)["legal"] and _step(ok)["total_cost"] == "{2}{R}"
    assert obj(ok, 1, "blitz")["zone"] == "stack"
    bad = _cast(objects, {"object": "blitz"}, "{R}" * 7)
    assert not _step(bad)["legal"] and obj(bad, 1, "blitz")["zone"] == "hand"


def test_mana_value_permission_judged_with_the_announced_x():
    objects = [{"id": "h", "card": "Test Small-Spell Hastener", "zone": "battlefield", "controller": "A"},
               {"id": "blaze", "card": "Blaze", "zone": "hand", "owner": "A"}]
    assert _step(_cast(objects, {"object": "blaze", "x": 1, "targets": ["B"]}, "{R}{R}"))["legal"]
    big = _step(_cast(objects, {"object": "blaze", "x": 2, "targets": ["B"]}, "{R}{R}{R}"))
    assert (big["legal"], big["reason"], big["substep"]) == (False, "illegal_proposal", "601.2e")


def test_mana_value_permission_cannot_be_reached_through_x():
    # {X}{R}{R}{R}-style: the smallest mana value is already above the bound: no flash at all
    card = {"name": "Test Big Blaze", "real": False, "mana_cost": "{X}{R}{R}{R}", "type_line": "Sorcery", "text": "t",
            "targets": [{"what": "any"}], "spell": [{"damage": {"amount": "X", "target": 0}}]}
    objects = [{"id": "h", "card": "Test Small-Spell Hastener", "zone": "battlefield", "controller": "A"},
               {"id": "big", "card": "Test Big Blaze", "zone": "hand", "owner": "A"}]
    s = _step(_cast(objects, {"object": "big", "x": 0, "targets": ["B"]}, "{R}{R}{R}", extra_cards=[card]))
    assert (s["legal"], s["reason"], s["substep"]) == (False, "wrong_timing", "601.2a")


def test_extra_cost_flash_adds_to_total_and_is_required():
    objects = [{"id": "s", "card": "Test Hurried Summons", "zone": "battlefield", "controller": "A"},
               {"id": "bears", "card": "Grizzly Bears", "zone": "hand", "owner": "A"}]
    paid = _step(_cast(objects, {"object": "bears", "flash_cost": "s"}, "{G}" * 4))
    assert paid["legal"] and paid["total_cost"] == "{3}{G}"
    unpaid = _step(_cast(objects, {"object": "bears"}, "{G}" * 4))
    assert (unpaid["reason"], unpaid["substep"]) == ("illegal_proposal", "601.2e")
    # named in A's own main phase, the extra cost is still paid
    own = _step(_cast(objects, {"object": "bears", "flash_cost": "s"}, "{G}" * 4, turn={"active": "A"}))
    assert own["legal"] and own["total_cost"] == "{3}{G}"


def test_flash_cost_on_a_permission_without_extra_cost():
    objects = [{"id": "hc", "card": "Test Red Haste-Caster", "zone": "battlefield", "controller": "A"},
               {"id": "blitz", "card": "Blitz Automaton", "zone": "hand", "owner": "A"}]
    s = _step(_cast(objects, {"object": "blitz", "prototype": True, "flash_cost": "hc"}, "{R}{R}{R}"))
    assert (s["reason"], s["substep"]) == ("additional_cost_unavailable", "601.2b")


def test_conditional_flash_needs_the_condition_when_casting_begins():
    tide = {"id": "t", "card": "Crashing Tide", "zone": "hand", "owner": "A"}
    foe = {"id": "foe", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"}
    merfolk = {"id": "m", "card": "Coral Merfolk", "zone": "battlefield", "controller": "A"}
    opp_merfolk = {"id": "m", "card": "Coral Merfolk", "zone": "battlefield", "controller": "B"}
    assert _step(_cast([merfolk, foe, tide], {"object": "t", "targets": ["foe"]}, "{U}{U}{U}"))["legal"]
    s = _step(_cast([opp_merfolk, foe, tide], {"object": "t", "targets": ["foe"]}, "{U}{U}{U}"))
    assert (s["reason"], s["substep"]) == ("wrong_timing", "601.2a")


def test_enablers_sacrificed_while_paying_do_not_matter():
    altar = {"id": "altar", "card": "Ashnod's Altar", "zone": "battlefield", "controller": "A"}
    r = _cast([{"id": "m", "card": "Coral Merfolk", "zone": "battlefield", "controller": "A"}, altar,
               {"id": "foe", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
               {"id": "t", "card": "Crashing Tide", "zone": "hand", "owner": "A"}],
              {"object": "t", "targets": ["foe"], "mana_abilities": [{"object": "altar", "sacrifice": ["m"]}]}, "{U}")
    assert _step(r)["legal"] and obj(r, 1, "m")["zone"] == "graveyard" and player(r, 1, "A")["mana_pool"] == ""
    r = _cast([{"id": "hc", "card": "Test Red Haste-Caster", "zone": "battlefield", "controller": "A"}, altar,
               {"id": "blitz", "card": "Blitz Automaton", "zone": "hand", "owner": "A"}],
              {"object": "blitz", "prototype": True, "mana_abilities": [{"object": "altar", "sacrifice": ["hc"]}]},
              "{R}")
    assert _step(r)["legal"] and obj(r, 1, "hc")["zone"] == "graveyard"


def _tap(order, reflection_controller="A"):
    objects = [{"id": "c", "card": "Contamination", "zone": "battlefield", "controller": "A"},
               {"id": "m", "card": "Mana Reflection", "zone": "battlefield", "controller": reflection_controller},
               {"id": "f", "card": "Forest", "zone": "battlefield", "controller": "A"}]
    body = {"player": "A", "object": "f"}
    if order is not None:
        body["replacements"] = order
    return run({"players": AB, "objects": objects}, [{"activate_mana": body}])


def test_replacement_order_decides_the_mana():
    assert player(_tap(["c", "m"]), 1, "A")["mana_pool"] == "{B}{B}"
    assert player(_tap(["m", "c"]), 1, "A")["mana_pool"] == "{B}"
    assert player(_tap(None), 1, "A")["mana_pool"] == "{B}{B}"        # the oracle's default: most mana


def test_bad_replacement_orders_are_refused():
    for order, controller in ((["m"], "A"), (["c", "m", "c"], "A"), (["c", "m"], "B"), (["c", "f"], "A")):
        r = _tap(order, controller)
        assert _step(r)["reason"] == "invalid_mana_choice", order
        assert obj(r, 1, "f")["tapped"] is False
    assert _step(_tap(["c"], "B"))["legal"]


def test_replacement_order_on_an_ability_without_tap():
    # a {Q} ability is not "tapped for mana" (106.12): no replacement applies, so only an empty order fits
    objects = [{"id": "bat", "card": "Test Untap Battery", "zone": "battlefield", "controller": "A", "tapped": True},
               {"id": "m", "card": "Mana Reflection", "zone": "battlefield", "controller": "A"}]
    ok = run({"players": AB, "objects": objects}, [{"activate_mana": {"player": "A", "object": "bat", "replacements": []}}])
    assert _step(ok)["legal"] and player(ok, 1, "A")["mana_pool"] == "{C}"
    bad = run({"players": AB, "objects": objects}, [{"activate_mana": {"player": "A", "object": "bat", "replacements": ["m"]}}])
    assert _step(bad)["reason"] == "invalid_mana_choice"
