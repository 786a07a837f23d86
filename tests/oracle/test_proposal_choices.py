"""601.3a / 601.3b with the choices made during the proposal (718.3 prototype, 107.3a X): the cast
may begin if any such choice could escape a prohibition or bring a flash permission to apply;
the choices actually made are checked after the proposal (601.5 -> illegal_proposal at 601.2e).
When no choice could help, the cast can't begin (601.2a)."""
from oracle_helpers import obj, player, run

A_TURN = {"active": "A", "step": "precombat_main"}
B_TURN = {"active": "B", "step": "precombat_main"}


def _prohibitor(name, spells):
    return {"name": name, "real": False, "mana_cost": "{2}", "type_line": "Enchantment", "text": "t",
            "abilities": [{"kind": "cast_prohibition", "players": "opponents", "spells": spells}]}


def _cast(permanents, card, cast, pool, turn, caster="A", extra_cards=None):
    other = "B" if caster == "A" else "A"
    objects = [{"id": f"p{i}", "card": name, "zone": "battlefield", "controller": other if ban else caster}
               for i, (name, ban) in enumerate(permanents)]
    objects.append({"id": "s", "card": card, "zone": "hand", "owner": caster})
    players = {"A": {}, "B": {}}
    players[caster] = {"mana_pool": pool}
    r = run({"players": players, "turn": turn, "objects": objects},
            [{"cast": {"player": caster, "object": "s", **cast}}], extra_cards=extra_cards)
    return r, r["steps"][0]


def _outcome(step):
    return step["legal"], step.get("reason"), step.get("substep")


# ---- 601.3a: prohibitions ------------------------------------------------------------------------

GATE = [("Test Power Gate", True)]          # True: controlled by the caster's opponent


def test_normal_rootwire_begins_but_its_proposal_is_prohibited():
    r, s = _cast(GATE, "Rootwire Amalgam", {"prototype": False}, "{G}" * 5, A_TURN)
    assert _outcome(s) == (False, "illegal_proposal", "601.2e")
    assert obj(r, 1, "s")["zone"] == "hand" and player(r, 1, "A")["mana_pool"] == "{G}{G}{G}{G}{G}"


def test_prototyped_rootwire_escapes_the_power_prohibition():
    r, s = _cast(GATE, "Rootwire Amalgam", {"prototype": True}, "{G}{G}", A_TURN)
    assert s["legal"] and s["total_cost"] == "{1}{G}" and obj(r, 1, "s")["zone"] == "stack"


def test_no_prototype_choice_escapes_then_prohibited_at_the_start():
    for proto in (False, True):
        _, s = _cast(GATE, "Steel Seraph", {"prototype": proto}, "{W}" * 6, A_TURN)
        assert _outcome(s) == (False, "prohibited", "601.2a")


def test_each_prohibition_is_judged_on_its_own():
    # Normal: mana value 5 (odd), power 5; prototyped: mana value 2 (even), power 2. Each effect
    # alone could be escaped, so the cast may begin (601.3a), but every completed proposal is
    # prohibited by one of them.
    bans = GATE + [("Void Winnower", True)]
    for proto, pool in ((False, "{G}" * 5), (True, "{G}{G}")):
        _, s = _cast(bans, "Rootwire Amalgam", {"prototype": proto}, pool, A_TURN)
        assert _outcome(s) == (False, "illegal_proposal", "601.2e")


def test_x_that_cannot_escape_a_mana_value_floor_is_prohibited_at_the_start():
    floor = _prohibitor("Test Floor Ban", {"mana_value_min": 1})     # Blaze {X}{R}: mana value 1 + X >= 1
    _, s = _cast([("Test Floor Ban", True)], "Blaze", {"x": 0, "targets": ["B"]}, "{R}", A_TURN,
                 extra_cards=[floor])
    assert _outcome(s) == (False, "prohibited", "601.2a")


def test_x_can_escape_a_mana_value_ceiling():
    ceiling = _prohibitor("Test Ceiling Ban", {"mana_value_max": 2})
    bans = [("Test Ceiling Ban", True)]
    _, low = _cast(bans, "Blaze", {"x": 1, "targets": ["B"]}, "{R}{R}", A_TURN, extra_cards=[ceiling])
    assert _outcome(low) == (False, "illegal_proposal", "601.2e")
    _, high = _cast(bans, "Blaze", {"x": 2, "targets": ["B"]}, "{R}{R}{R}", A_TURN, extra_cards=[ceiling])
    assert high["legal"] and high["total_cost"] == "{2}{R}"


# ---- 601.3b: flash permissions -------------------------------------------------------------------

RED_FLASH = [("Test Red Haste-Caster", False)]
SMALL_FLASH = [("Test Small-Spell Hastener", False)]


def test_normal_blitz_begins_under_red_flash_but_is_illegal_once_proposed():
    r, s = _cast(RED_FLASH, "Blitz Automaton", {}, "{R}" * 7, B_TURN)
    assert _outcome(s) == (False, "illegal_proposal", "601.2e")
    assert obj(r, 1, "s")["zone"] == "hand" and player(r, 1, "A")["mana_pool"] == "{R}" * 7


def test_prototyped_blitz_is_covered_by_red_flash():
    _, s = _cast(RED_FLASH, "Blitz Automaton", {"prototype": True}, "{R}{R}{R}", B_TURN)
    assert s["legal"] and s["total_cost"] == "{2}{R}"


def test_no_choice_makes_rootwire_red_so_wrong_timing_at_the_start():
    for proto, pool in ((False, "{G}" * 5), (True, "{G}{G}")):
        _, s = _cast(RED_FLASH, "Rootwire Amalgam", {"prototype": proto}, pool, B_TURN)
        assert _outcome(s) == (False, "wrong_timing", "601.2a")


def test_without_any_permission_prototype_is_no_help_for_timing():
    for proto in (False, True):
        _, s = _cast([], "Blitz Automaton", {"prototype": proto}, "{R}" * 7, B_TURN)
        assert _outcome(s) == (False, "wrong_timing", "601.2a")


def test_mana_value_flash_permission_and_the_prototype_choice():
    # Test Small-Spell Hastener: mana value 2 or less. Rootwire: 2 prototyped, 5 normally.
    _, proto = _cast(SMALL_FLASH, "Rootwire Amalgam", {"prototype": True}, "{G}{G}", B_TURN)
    assert proto["legal"]
    _, normal = _cast(SMALL_FLASH, "Rootwire Amalgam", {"prototype": False}, "{G}" * 5, B_TURN)
    assert _outcome(normal) == (False, "illegal_proposal", "601.2e")
    # Blitz: 3 prototyped, 7 normally: neither choice qualifies
    _, blitz = _cast(SMALL_FLASH, "Blitz Automaton", {"prototype": True}, "{R}{R}{R}", B_TURN)
    assert _outcome(blitz) == (False, "wrong_timing", "601.2a")


# ---- not 601.3a/b: a permission to cast from another zone ---------------------------------------

def test_zone_permission_judges_the_choice_made():
    # 601.3a/b cover prohibitions and flash permissions only; a permission to cast red spells from
    # the graveyard is judged on the spell as it is cast (601.3e, 718.3a).
    objects = [{"id": "g", "card": "Test Red Recaller", "zone": "battlefield", "controller": "A"},
               {"id": "blitz", "card": "Blitz Automaton", "zone": "graveyard", "owner": "A"}]
    for proto, expected in ((True, (True, None, None)), (False, (False, "no_permission", "601.2a"))):
        r = run({"players": {"A": {"mana_pool": "{R}" * 7}, "B": {}}, "objects": objects},
                [{"cast": {"player": "A", "object": "blitz", "prototype": proto}}])
        assert _outcome(r["steps"][0]) == expected


def test_a_cards_own_permission_covers_only_that_card_and_its_owner():
    # Eternal Scourge: "you may cast this card from exile" (601.3), the card's own ability
    def cast(scourge_zone, caster="A", obj="s", permission=None, extra=()):
        objects = [{"id": "s", "card": "Eternal Scourge", "zone": scourge_zone, "owner": "A",
                    **({"controller": "A"} if scourge_zone == "battlefield" else {})}, *extra]
        body = {"player": caster, "object": obj, **({"permission": permission} if permission else {})}
        players = {"A": {"mana_pool": "{C}{C}{C}"}, "B": {"mana_pool": "{C}{C}{C}"}}
        turn = {"active": caster, "step": "precombat_main"}
        return run({"players": players, "turn": turn, "objects": objects}, [{"cast": body}])["steps"][0]
    assert cast("exile")["legal"] and cast("exile", permission="s")["legal"]
    assert _outcome(cast("exile", caster="B")) == (False, "no_permission", "601.2a")
    assert _outcome(cast("graveyard")) == (False, "no_permission", "601.2a")
    bears = {"id": "b", "card": "Grizzly Bears", "zone": "exile", "owner": "A"}
    assert _outcome(cast("battlefield", obj="b", permission="s", extra=[bears])) == (False, "no_permission", "601.2a")
