"""pay: auto with a permanent that has several {T}-only mana abilities (one {T}, paid once:
107.5, 118.3, so one of them; 605.3a lets them be activated while paying): the engine may use any of them, not only the first (Eldrazi Temple's {C}{C}, Rootbound
Crag's green)."""
from oracle_helpers import obj, player
from oracle_helpers import run as _run

from castrules.oracle.costs import Supply
from castrules.oracle.mana_abilities import solver_unit
from castrules.oracle.payment import _choices

AB = {"A": {}, "B": {}}
# A land whose two abilities each add two mana, neither covering the other, and a spell only
# the second can pay: the payment tries each combination.
TWIN = {"name": "Test Twin Land", "real": False, "mana_cost": None, "type_line": "Land", "text": "t",
        "abilities": [{"kind": "mana", "cost": {"tap": True}, "add": "{W}{W}"},
                      {"kind": "mana", "cost": {"tap": True}, "add": "{U}{U}"}]}
BLUE = {"name": "Test Double Blue", "real": False, "mana_cost": "{U}{U}", "type_line": "Sorcery", "text": "t"}


def run(setup, steps):
    return _run(setup, steps, extra_cards=[TWIN, BLUE])


def bf(oid, card):
    return {"id": oid, "card": card, "zone": "battlefield", "controller": "A"}


def hand(oid, card):
    return {"id": oid, "card": card, "zone": "hand", "owner": "A"}


def sup(key, *units):
    return Supply(key, tuple(solver_unit(frozenset(u)) for u in units))


def test_one_ability_each_is_unchanged():
    sups = [(sup("f", "G"), 0), (sup("m", "R"), 0)]
    assert list(_choices(sups)) == [sups]


def test_one_mana_abilities_merge_into_one_choice():
    (only,) = list(_choices([(sup("crag", "R"), 0), (sup("crag", "G"), 1)]))
    (merged, pick), = only
    assert {t.value for t in merged.units[0].types} == {"R", "G"}
    assert pick == {"R": (0, None), "G": (1, None)}


def test_an_ability_adding_more_replaces_a_smaller_one():
    (only,) = list(_choices([(sup("temple", "C"), 0), (sup("temple", "C", "C"), 1)]))
    assert only == [(sup("temple", "C", "C"), 1)]


def test_identical_abilities_keep_the_first():
    (only,) = list(_choices([(sup("x", "C", "C"), 0), (sup("x", "C", "C"), 1)]))
    assert only == [(sup("x", "C", "C"), 0)]


def test_other_alternatives_are_tried_in_turn():
    found = list(_choices([(sup("t", "W", "W"), 0), (sup("t", "U", "U"), 1), (sup("f", "G"), 0)]))
    assert [[i for _, i in c] for c in found] == [[0, 0], [1, 0]]


def test_auto_payment_uses_the_second_two_mana_ability():
    r = run({"players": AB, "objects": [bf("twin", "Test Twin Land"), hand("s", "Test Double Blue")]},
            [{"cast": {"player": "A", "object": "s", "pay": "auto"}}])
    assert r["steps"][0]["legal"] and obj(r, 1, "twin")["tapped"]
    assert player(r, 1, "A")["mana_pool"] == ""


def test_auto_payment_uses_the_one_mana_ability_a_restriction_leaves():
    r = run({"players": AB, "objects": [bf("temple", "Eldrazi Temple"), hand("ring", "Sol Ring")]},
            [{"cast": {"player": "A", "object": "ring", "pay": "auto"}}])
    assert r["steps"][0]["legal"] and player(r, 1, "A")["mana_pool"] == ""


def test_auto_payment_dual_land_green_half():
    objs = [bf("crag", "Rootbound Crag"), bf("f", "Forest"), bf("m1", "Mountain"), bf("m2", "Mountain"),
            hand("goyf", "Lhurgoyf")]
    r = run({"players": AB, "objects": objs}, [{"cast": {"player": "A", "object": "goyf", "pay": "auto"}}])
    assert r["steps"][0]["legal"] and all(obj(r, 1, k)["tapped"] for k in ("crag", "f", "m1", "m2"))
