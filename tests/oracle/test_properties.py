"""Hypothesis property tests of the oracle's invariants."""
import itertools

from hypothesis import given, settings, strategies as st

from castrules.oracle.cards import read_cards
from castrules.oracle.casting import cast, parse_cast
from castrules.oracle.costs import ConcreteCost, ManaCost, concrete_text, resolve_choices
from castrules.oracle.errors import Illegal
from castrules.oracle.scenario import run_step
from castrules.oracle.setup import build_state
from castrules.oracle.trace import Trace
from oracle_helpers import catalog, obj, run

COLORS = "WUBRG"
costs = st.builds(
    lambda g, cs: ("{%d}" % g if g else "") + "".join("{%s}" % c for c in cs) or "{0}",
    st.integers(0, 6), st.lists(st.sampled_from(COLORS + "C"), max_size=4))
REDUCERS = ["Helm of Awakening", "Ruby Medallion", "Goblin Electromancer", "Thunderscape Familiar",
            "Goblin Warchief", "Thalia, Guardian of Thraben", "Trinisphere"]


def spell_card(cost: str, type_line: str) -> dict:
    return {"name": "Test Subject", "real": False, "mana_cost": cost, "type_line": type_line, "text": "subject",
            "power": "1" if "Creature" in type_line else None, "toughness": "1" if "Creature" in type_line else None}


def clean(card):
    return {k: v for k, v in card.items() if v is not None}


@settings(max_examples=60, deadline=None)
@given(cost=costs, type_line=st.sampled_from(["Sorcery", "Instant", "Creature — Goblin", "Artifact"]),
       mods=st.lists(st.sampled_from(REDUCERS), max_size=4, unique=True),
       extra=st.lists(st.sampled_from(["{1}", "{R}", "{C}", "{2/W}", "{B/P}", "{S}"]), max_size=3))
def test_total_cost_never_below_zero_and_mana_value_unchanged(cost, type_line, mods, extra):
    reducers = [clean({"name": f"Test Reducer {i}", "real": False, "mana_cost": "{1}", "type_line": "Artifact",
                       "text": "r", "abilities": [{"kind": "cost_modifier", "change": "reduce", "amount": a,
                                                   "spells": {}, "whose": "you"}]}) for i, a in enumerate(extra)]
    objects = [{"id": f"m{i}", "card": n, "zone": "battlefield"} for i, n in enumerate(mods)]
    objects += [{"id": f"r{i}", "card": c["name"], "zone": "battlefield"} for i, c in enumerate(reducers)]
    objects.append({"id": "s", "card": "Test Subject", "zone": "hand"})
    pool = "{W}{U}{B}{R}{G}{C}" * 5
    r = run({"players": {"A": {"mana_pool": pool}, "B": {}}, "objects": objects},
            [{"cast": {"player": "A", "object": "s"}}], extra_cards=[clean(spell_card(cost, type_line))] + reducers)
    res = r["steps"][0]
    assert res["legal"], res
    total = ConcreteCost.parse(res["total_cost"])
    assert total.generic >= 0 and all(n >= 0 for n in total.colored.as_tuple())
    assert obj(r, 1, "s")["mana_value"] == ManaCost.parse(cost).mana_value()
    if "Trinisphere" in mods:
        assert total.mana_amount >= 3


@settings(max_examples=60, deadline=None)
@given(cost=costs, mods=st.lists(st.sampled_from(["Helm of Awakening", "Goblin Electromancer"]), max_size=2,
                                 unique=True))
def test_generic_reductions_never_touch_coloured_mana(cost, mods):
    objects = [{"id": f"m{i}", "card": n, "zone": "battlefield"} for i, n in enumerate(mods)]
    objects.append({"id": "s", "card": "Test Subject", "zone": "hand"})
    r = run({"players": {"A": {"mana_pool": "{W}{U}{B}{R}{G}{C}" * 5}, "B": {}}, "objects": objects},
            [{"cast": {"player": "A", "object": "s"}}], extra_cards=[spell_card(cost, "Sorcery")])
    total = ConcreteCost.parse(r["steps"][0]["total_cost"])
    printed = resolve_choices(ManaCost.parse(cost), None)
    assert total.colored == printed.colored
    assert total.generic == max(0, printed.generic - len(mods))


def _state(objects, pool="", life=20, cards=None):
    cat = read_cards({**{n: c for n, c in catalog().items()}, **{c["name"]: c for c in cards or []}})
    return build_state({"players": {"A": {"mana_pool": pool, "life": life}, "B": {}}, "objects": objects}, cat)


SPELLS = ["Lightning Bolt", "Blaze", "Grizzly Bears", "Dismember", "Morsel Theft", "Gitaxian Probe", "Death Bomb",
          "Endless One", "Steel Seraph"]
LANDS = ["Mountain", "Forest", "Swamp", "Plains", "Island", "Reflecting Pool", "Sol Ring", "Llanowar Elves"]


@settings(max_examples=120, deadline=None)
@given(spell=st.sampled_from(SPELLS), lands=st.lists(st.tuples(st.sampled_from(LANDS), st.booleans(), st.booleans()),
                                                     max_size=5),
       pool=st.sampled_from(["", "{R}", "{B}{B}", "{G}{C}"]), x=st.sampled_from([None, 0, 1, 3]),
       listed=st.booleans(), life=st.sampled_from([1, 4, 20]), prototype=st.booleans(),
       phyrexian=st.sampled_from([None, ["life"], ["mana"], ["life", "life"]]))
def test_an_illegal_cast_leaves_the_state_exactly_unchanged(spell, lands, pool, x, listed, life, prototype, phyrexian):
    objects = [{"id": f"l{i}", "card": n, "zone": "battlefield", "tapped": t, "summoning_sick": s}
               for i, (n, t, s) in enumerate(lands)]
    objects += [{"id": "b", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
                {"id": "mine", "card": "Grizzly Bears", "zone": "battlefield"},
                {"id": "s", "card": spell, "zone": "hand"}]
    state = _state(objects, pool, life)
    step = {"player": "A", "object": "s", "targets": ["b"] if spell in ("Dismember", "Death Bomb", "Blaze",
                                                                      "Lightning Bolt") else (
        ["B"] if spell in ("Morsel Theft", "Gitaxian Probe") else [])}
    if x is not None:
        step["x"] = x
    if prototype:
        step["prototype"] = True
    if phyrexian is not None:
        step["phyrexian"] = phyrexian
    if spell == "Death Bomb":
        step["sacrifice"] = ["mine"]
    if listed:
        step["mana_abilities"] = [{"object": f"l{i}"} for i in range(len(lands))]
    new, result = run_step(state, {"cast": step}, Trace(1))
    if not result["legal"]:
        assert new is state or new == state
        assert new.players == state.players and dict(new.objects) == dict(state.objects)
    else:
        assert new.obj("s").zone == "stack"


@settings(max_examples=60, deadline=None)
@given(lands=st.lists(st.sampled_from(["Mountain", "Forest", "Swamp", "Sol Ring", "Reflecting Pool", "Wastes"]),
                      min_size=1, max_size=4),
       spell=st.sampled_from(["Grizzly Bears", "Blaze", "Lightning Bolt", "Morsel Theft", "Steel Seraph"]))
def test_the_result_does_not_depend_on_the_order_of_listed_payments(lands, spell):
    objects = [{"id": f"l{i}", "card": n, "zone": "battlefield"} for i, n in enumerate(lands)]
    objects.append({"id": "s", "card": spell, "zone": "hand"})
    targets = {"Blaze": ["B"], "Lightning Bolt": ["B"], "Morsel Theft": ["B"]}.get(spell, [])
    outcomes = set()
    for order in itertools.permutations(range(len(lands))):
        step = {"player": "A", "object": "s", "targets": targets, "mana_abilities": [{"object": f"l{i}"} for i in order]}
        if spell == "Blaze":
            step["x"] = 1
        r = run({"players": {"A": {}, "B": {}}, "objects": objects}, [{"cast": step}], observe=[1])
        snap = r["snapshots"]["1"]
        outcomes.add((tuple(sorted(r["steps"][0].items())), snap["players"]["A"]["mana_pool"],
                      tuple(sorted((k, v["tapped"], v["zone"]) for k, v in snap["objects"].items()))))
    assert len(outcomes) == 1


PROTOS = [n for n, c in catalog().items() if c.get("prototype") and not any(a["kind"] == "etb" for a in c.get("abilities", []))]


@settings(max_examples=40, deadline=None)
@given(card=st.sampled_from(PROTOS))
def test_prototype_and_copy_invariants(card):
    c = catalog()[card]
    proto = c["prototype"]
    r = run({"players": {"A": {"mana_pool": "{W}{U}{B}{R}{G}{C}" * 3}, "B": {}},
             "objects": [{"id": "p", "card": card, "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "p", "prototype": True}},
             {"copy_spell": {"object": "p", "new_id": "pc"}},
             {"resolve": {}}, {"resolve": {}},
             {"copy_permanent": {"object": "p", "new_id": "tok"}},
             {"return_to_hand": {"object": "p"}}])
    assert all(s["legal"] for s in r["steps"]), r["steps"]
    pmv = ManaCost.parse(proto["mana_cost"]).mana_value()
    pcolors = sorted({ch for ch in proto["mana_cost"] if ch in COLORS}, key=COLORS.index)
    for n, oid in ((1, "p"), (2, "pc"), (3, "pc"), (4, "p"), (5, "tok")):
        view = obj(r, n, oid)
        assert view["mana_value"] == pmv and view["colors"] == pcolors
        assert (view["power"], view["toughness"]) == (int(proto["power"]), int(proto["toughness"]))
        assert view["prototyped"]
    assert obj(r, 2, "pc")["is_copy"] and obj(r, 5, "tok")["is_copy"]
    hand = obj(r, 6, "p")
    assert hand["zone"] == "hand" and hand["colors"] == [] and not hand["prototyped"]
    assert hand["mana_value"] == ManaCost.parse(c["mana_cost"]).mana_value()
    assert (hand["power"], hand["toughness"]) == (int(c["power"]), int(c["toughness"]))
