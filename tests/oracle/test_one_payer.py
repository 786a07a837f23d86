"""One payer pays every cost (issue 11): spells, activated abilities, special actions, the
pay_mana_cost action and mana abilities all hand their cost's parts to `oracle.payer.pay_costs`,
which dispatches each part to its handler through one table keyed by the part's type.

The structure is checked on the source (the paying sites reach the payer, and none of them taps,
untaps, takes life, sacrifices or spends pool mana itself); the behaviour by running one life cost
for a spell, an activation and a mana ability through the payer's one life check (its seam)."""
from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest
from oracle_helpers import player, run

from castrules.oracle import payer
from castrules.oracle.seams import real_rules, using

ORACLE = Path(__file__).resolve().parents[2] / "oracle"

# function -> module: every place a cost is paid
PAYING_SITES = {
    "pay": "casting.py",                       # 601.2h, a spell's locked total
    "step_activate": "activations.py",         # 602.2b
    "step_special_action": "activations.py",   # 116.2f, suspend
    "step_pay_mana_cost": "activations.py",    # 107.3h
    "activate": "mana_abilities.py",           # 605.3b
}
# the modules around paying: they build parts and activate mana abilities, and pay nothing themselves
PAYING_MODULES = ("casting.py", "activations.py", "mana_abilities.py", "payment.py")


def test_every_part_kind_has_one_handler_and_a_place_in_the_pay_order():
    kinds = set(get_args(payer.Part))
    assert set(payer.HANDLERS) == kinds
    assert set(payer.PAY_ORDER) == kinds and len(payer.PAY_ORDER) == len(kinds)
    for handler in payer.HANDLERS.values():
        assert callable(handler.check) and callable(handler.pay)
    with pytest.raises(TypeError):
        payer.HANDLERS[object] = payer.HANDLERS[payer.LifePart]   # type: ignore[index]


def _function(module: str, name: str) -> ast.FunctionDef:
    tree = ast.parse((ORACLE / module).read_text(encoding="utf-8"))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    assert len(found) == 1, f"{module} should define {name} once"
    return found[0]


def _called(node: ast.AST) -> set[str]:
    names = set()
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        f = call.func
        names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


@pytest.mark.parametrize("name,module", sorted(PAYING_SITES.items()))
def test_each_paying_site_reaches_the_payer(name, module):
    assert "pay_costs" in _called(_function(module, name)), f"{module}::{name} must pay through payer.pay_costs"


def test_the_activations_made_at_once_check_and_tap_through_the_payer():
    """pay: auto's activations made into one state (payment._activate_at_once) don't go through
    pay_costs one by one: each {T} is checked by the payer's check_costs, all paid by its pay_taps."""
    called = _called(_function("payment.py", "_activate_at_once"))
    assert {"check_costs", "pay_taps"} <= called


def paying_by_hand(source: str) -> list[str]:
    """What a module does that only the payer may do: set a life total or a tapped status with
    dataclasses.replace, move a permanent to a graveyard, or take mana out of a pool."""
    found = []
    for call in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)):
        f = call.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        keywords = {k.arg for k in call.keywords}
        if name == "replace" and keywords & {"life", "tapped"}:
            found.append(f"line {call.lineno}: replace(..., {', '.join(sorted(keywords & {'life', 'tapped'}))}=...)")
        if name == "move" and any(isinstance(a, ast.Constant) and a.value == "graveyard" for a in call.args):
            found.append(f"line {call.lineno}: move(..., 'graveyard')")
        if name == "pay_from_pool":
            found.append(f"line {call.lineno}: pay_from_pool(...)")
    return found


@pytest.mark.parametrize("module", PAYING_MODULES)
def test_no_paying_module_pays_a_cost_by_hand(module):
    assert paying_by_hand((ORACLE / module).read_text(encoding="utf-8")) == []


def test_the_detector_sees_a_cost_paid_by_hand():
    src = ("state = state.with_obj(replace(obj, tapped=True))\n"
           "state = state.with_player(replace(p, life=p.life - 2))\n"
           "state = move(state, oid, 'graveyard', trace)\n"
           "pool = pay_from_pool(cost, p.pool)\n")
    assert len(paying_by_hand(src)) == 4
    assert paying_by_hand("state = move(state, oid, 'stack', None)\n") == []


# ---- one life check for every kind of cost ------------------------------------------------------

BLOOD_TOTEM = {"name": "Test Blood Totem", "real": False, "mana_cost": "{1}", "type_line": "Artifact",
               "text": "Pay 2 life and tap it: you gain 1 life.",
               "abilities": [{"kind": "activated", "cost": {"tap": True, "life": 2}, "effect": [{"gain_life": 1}]}]}
PAINFUL_PIT = {"name": "Test Painful Pit", "real": False, "mana_cost": None, "type_line": "Land",
               "text": "Pay 1 life and tap it: add one black mana.",
               "abilities": [{"kind": "mana", "cost": {"tap": True, "life": 1}, "add": "{B}"}]}


def _setup(life: int) -> dict:
    return {"players": {"A": {"life": life}, "B": {}}, "turn": {"active": "A", "step": "precombat_main"},
            "objects": [{"id": "totem", "card": "Test Blood Totem", "zone": "battlefield", "controller": "A"},
                        {"id": "pit", "card": "Test Painful Pit", "zone": "battlefield", "controller": "A"},
                        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
                        {"id": "dismember", "card": "Dismember", "zone": "hand", "owner": "A"}]}


STEPS = {
    # Dismember ({1}{B/P}{B/P}) with both Phyrexian symbols paid with life: 4 life (118.3b), {1} from the pool
    "spell": {"cast": {"player": "A", "object": "dismember", "targets": ["bears"], "phyrexian": ["life", "life"]}},
    "activation": {"activate": {"player": "A", "object": "totem"}},     # 602.2b: 2 life and {T}
    "mana ability": {"activate_mana": {"player": "A", "object": "pit"}},  # 605.3b: 1 life and {T}
}
PAID = {"spell": 4, "activation": 2, "mana ability": 1}


def _run(life: int, what: str, seen: list | None = None) -> dict:
    steps = [STEPS[what]]
    setup = _setup(life)
    if what == "spell":
        setup["players"]["A"]["mana_pool"] = "{C}"
    if seen is None:
        return run(setup, steps, extra_cards=[BLOOD_TOTEM, PAINFUL_PIT])

    def life_payable(state, who, amount):
        seen.append((who, amount))
        return real_rules().life_payable(state, who, amount)
    with using(replace(real_rules(), life_payable=life_payable)):
        return run(setup, steps, extra_cards=[BLOOD_TOTEM, PAINFUL_PIT])


@pytest.mark.parametrize("what", sorted(STEPS))
def test_a_life_cost_is_paid_through_the_one_life_check(what):
    # 119.4: with 20 life the player can pay; the payer's life check judges this payment (an
    # activation checks the costs X can't change before its announcements, then again as it pays)
    seen: list = []
    r = _run(20, what, seen)
    assert r["steps"][0]["legal"], r["steps"][0]
    assert seen and set(seen) == {("A", PAID[what])}
    assert player(r, 1, "A")["life"] == 20 - PAID[what]


@pytest.mark.parametrize("what,reason", [("spell", "insufficient_life"), ("activation", "insufficient_life"),
                                         ("mana ability", "mana_ability_cost_unpayable")])
def test_life_a_player_lacks_is_refused_with_each_kind_of_costs_reason(what, reason):
    # 119.4: paying more life than one has is impossible; the step is illegal and nothing is paid
    r = _run(PAID[what] - 1, what)
    assert not r["steps"][0]["legal"] and r["steps"][0]["reason"] == reason
    assert player(r, 1, "A")["life"] == PAID[what] - 1


BROOD_OFFERING = {"name": "Test Brood Offering", "real": False, "mana_cost": "{1}{G}", "type_line": "Creature — Elf",
                  "power": "2", "toughness": "2", "text": "Sacrifice it: add {G} for each point of its power.",
                  "abilities": [{"kind": "mana", "cost": {"sacrifice_self": True},
                                 "add": {"amount": "power", "type": "G"}}]}


def test_a_source_sacrificed_to_pay_its_mana_ability_produces_by_its_last_known_power():
    # the payer sacrifices the 2/2 with a +1/+1 counter before the ability resolves (605.3b); the
    # amount reads the creature as it last existed on the battlefield (608.2h): 3, not its printed 2
    setup = {"players": {"A": {}, "B": {}},
             "objects": [{"id": "elf", "card": "Test Brood Offering", "zone": "battlefield", "controller": "A",
                          "counters": {"+1/+1": 1}}]}
    r = run(setup, [{"activate_mana": {"player": "A", "object": "elf"}}], extra_cards=[BROOD_OFFERING])
    assert r["steps"][0]["legal"]
    assert player(r, 1, "A")["mana_pool"] == "{G}{G}{G}"
    assert r["snapshots"]["1"]["objects"]["elf"]["zone"] == "graveyard"
