"""118.12a with 107.3a: an {X} in the cost an "unless" effect offers is the X announced for the
counterspell (Condescend), not 0; a fixed offered cost ignores the counterspell's X. With 608.2h:
Rune Snag's cost grows by {2} for each card of its name in each graveyard as it resolves."""
from castrules.oracle.costs import concrete_text
from castrules.oracle.unless import offered
from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}


def test_offered_x_takes_the_counterspells_x():
    assert concrete_text(offered("{X}", 3)) == "{3}"
    assert concrete_text(offered("{X}", None)) == "{0}"
    assert concrete_text(offered("{3}", 5)) == "{3}"


def _condescend(x, pay_with):
    objects = [{"id": f"f{i}", "card": "Forest", "zone": "battlefield", "controller": "A"} for i in range(4)]
    objects += [{"id": f"i{i}", "card": "Island", "zone": "battlefield", "controller": "B"} for i in range(x + 1)]
    objects += [{"id": "bears", "card": "Grizzly Bears", "zone": "hand", "owner": "A"},
                {"id": "cond", "card": "Condescend", "zone": "hand", "owner": "B"}]
    return run({"players": AB, "objects": objects}, [
        {"cast": {"player": "A", "object": "bears", "mana_abilities": [{"object": "f0"}, {"object": "f1"}]}},
        {"cast": {"player": "B", "object": "cond", "x": x, "targets": ["bears"],
                  "mana_abilities": [{"object": f"i{i}"} for i in range(x + 1)]}},
        {"resolve": {"choices": {"pay_unless": {"mana_abilities": [{"object": o} for o in pay_with]}}}}])


def test_condescend_asks_for_its_x():
    r = _condescend(2, ["f2", "f3"])
    assert r["steps"][2]["legal"] and player(r, 3, "A")["mana_pool"] == ""
    assert obj(r, 3, "bears")["zone"] == "stack"


def test_condescend_x_beyond_the_payers_mana_is_refused():
    r = _condescend(3, ["f2", "f3"])
    assert not r["steps"][2]["legal"] and r["steps"][2]["reason"] == "insufficient_mana"


def test_offered_adds_the_per_namesake_part():
    assert concrete_text(offered("{2}", None, "{2}", 2)) == "{6}"
    assert concrete_text(offered("{2}", None, "{2}", 0)) == "{2}"


def _snag(graveyard_owners, lands):
    objects = [{"id": f"f{i}", "card": "Forest", "zone": "battlefield", "controller": "A"} for i in range(lands)]
    objects += [{"id": f"i{i}", "card": "Island", "zone": "battlefield", "controller": "B"} for i in range(2)]
    objects += [{"id": f"old{i}", "card": "Rune Snag", "zone": "graveyard", "owner": o}
                for i, o in enumerate(graveyard_owners)]
    objects += [{"id": "bears", "card": "Grizzly Bears", "zone": "hand", "owner": "A"},
                {"id": "snag", "card": "Rune Snag", "zone": "hand", "owner": "B"}]
    return run({"players": AB, "objects": objects}, [
        {"cast": {"player": "A", "object": "bears", "mana_abilities": [{"object": "f0"}, {"object": "f1"}]}},
        {"cast": {"player": "B", "object": "snag", "targets": ["bears"],
                  "mana_abilities": [{"object": "i0"}, {"object": "i1"}]}},
        {"resolve": {"choices": {"pay_unless": {"mana_abilities": [{"object": f"f{i}"} for i in range(2, lands)]}}}}])


def test_rune_snag_counts_every_graveyard_but_not_itself():
    assert _snag(["A", "B"], 8)["steps"][2]["legal"]            # {6}: six Forests
    r = _snag(["A", "B"], 7)                                      # five Forests can't pay {6}
    assert not r["steps"][2]["legal"] and r["steps"][2]["reason"] == "insufficient_mana"
    r = _snag([], 4)                                              # none: {2}, nothing left over
    assert r["steps"][2]["legal"] and player(r, 3, "A")["mana_pool"] == ""
