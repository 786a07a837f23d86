"""601.3: a permission to cast from a graveyard limited to its controller's own turns and to so
many spells each turn (cast_permission `during: your_turn`, `per_turn`: Lurrus, Karador, Kess).
Only spells cast through that permission, by that object (400.7), count; an illegal attempt is
undone and counts for nothing; the count starts afresh each turn."""
from oracle_helpers import run

A_TURN = {"active": "A", "step": "precombat_main"}


def _limited(per_turn=1, during="your_turn"):
    ability = {"kind": "cast_permission", "from": ["graveyard"], "spells": {"types": ["Creature"]}}
    if per_turn is not None:
        ability["per_turn"] = per_turn
    if during is not None:
        ability["during"] = during
    return {"name": "Test Limited Recall", "real": False, "mana_cost": "{2}", "type_line": "Artifact", "text": "t",
            "abilities": [ability]}


def _run(steps, card=None, turn=A_TURN, cards=3):
    objects = [{"id": "recall", "card": "Test Limited Recall", "zone": "battlefield", "controller": "A"}]
    objects += [{"id": f"e{i}", "card": "Llanowar Elves", "zone": "graveyard", "owner": "A"} for i in range(cards)]
    r = run({"players": {"A": {"mana_pool": "{G}{G}{G}"}, "B": {}}, "turn": turn, "objects": objects}, steps,
            extra_cards=[card or _limited()])
    return [s.get("reason") if not s["legal"] else "ok" for s in r["steps"]]


def _cast(oid):
    return {"cast": {"player": "A", "object": oid, "from": "graveyard", "mana_abilities": []}}


def test_one_each_turn_then_refused():
    assert _run([_cast("e0"), {"resolve": {}}, _cast("e1")]) == ["ok", "ok", "no_permission"]


def test_two_each_turn():
    got = _run([_cast("e0"), {"resolve": {}}, _cast("e1"), {"resolve": {}}, _cast("e2")],
               card=_limited(per_turn=2, during=None))
    assert got == ["ok", "ok", "ok", "ok", "no_permission"]


def test_no_count_limit_only_the_turn():
    assert _run([_cast("e0"), {"resolve": {}}, _cast("e1")], card=_limited(per_turn=None)) == ["ok", "ok", "ok"]
    b_turn = {"active": "B", "step": "end"}
    assert _run([_cast("e0")], card=_limited(per_turn=None), turn=b_turn) == ["no_permission"]


def test_a_new_object_has_a_fresh_permission():
    steps = [_cast("e0"), {"resolve": {}}, {"blink": {"object": "recall"}}, _cast("e1")]
    assert _run(steps) == ["ok", "ok", "ok", "ok"]


def test_the_count_starts_again_next_turn():
    steps = [_cast("e0"), {"resolve": {}}, {"next_turn": {}}, {"next_turn": {}}, _cast("e1")]
    got = run({"players": {"A": {}, "B": {}}, "turn": A_TURN,
               "objects": [{"id": "recall", "card": "Test Limited Recall", "zone": "battlefield", "controller": "A"},
                           {"id": "f", "card": "Forest", "zone": "battlefield", "controller": "A"},
                           {"id": "e0", "card": "Llanowar Elves", "zone": "graveyard", "owner": "A"},
                           {"id": "e1", "card": "Llanowar Elves", "zone": "graveyard", "owner": "A"}]},
              [{"cast": {**s["cast"], "mana_abilities": [{"object": "f"}]}} if "cast" in s else s for s in steps],
              extra_cards=[_limited()])
    assert [s["legal"] for s in got["steps"]] == [True, True, True, True, True]
