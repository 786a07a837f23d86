"""The total cost of an activated ability (602.2b -> 601.2f) and how it may be paid (602.1e).

An activation cost is the ability's analog of a spell's mana cost (602.2b): effects that make
activated abilities cost more (Suppression Field) add to it as the total is determined, then
those that make them cost less (Zirda, the Dawnwaker) take generic mana off it, and an
effect that changes how the activation costs of a permanent's abilities may be paid (Manascape
Refractor: mana as though it were mana of any colour) applies to that whole total, as increased
or reduced (602.1e).
"""
from __future__ import annotations

from castrules.model.abilities import StaticAbility

from .characteristics import chars
from .costs import ConcreteCost, ManaType, concrete_text
from .seams import rules
from .state import State
from .trace import Trace


def increases(state: State, oid: str, cost: ConcreteCost, trace: Trace) -> ConcreteCost:
    """602.2b, 601.2f: each permanent's static increase of non-mana activation costs, added to
    the cost of this activation of `oid`'s ability (whoever controls either)."""
    for src in state.battlefield():
        for ab in chars(state, src).abilities:
            if isinstance(ab, StaticAbility) and ab.activation_cost_increase is not None:
                cost = cost + ConcreteCost.parse(ab.activation_cost_increase)
                trace.add(("602.2b", "601.2f"), f"{src.base.name} ({src.id}) makes the activation of {oid}'s ability "
                                                f"cost {ab.activation_cost_increase} more: {concrete_text(cost)}")
    return cost


def reductions(state: State, oid: str, cost: ConcreteCost, trace: Trace) -> ConcreteCost:
    """602.2b, 601.2f: after the increases, each static reduction of the activation costs of the
    abilities its controller activates (Zirda, the Dawnwaker) takes generic mana off the total,
    never leaving less than one mana (the printed reductions all say so)."""
    activator = state.obj(oid).controller
    for src in state.battlefield():
        for ab in chars(state, src).abilities:
            if not isinstance(ab, StaticAbility) or ab.activation_cost_reduction is None or src.controller != activator:
                continue
            off = min(ConcreteCost.parse(ab.activation_cost_reduction).generic, cost.generic,
                      max(cost.mana_amount - 1, 0))
            cost = ConcreteCost(cost.colored, cost.generic - off, cost.life, cost.snow)
            trace.add(("602.2b", "601.2f"), f"{src.base.name} ({src.id}) takes {{{off}}} off the activation of {oid}'s "
                                            f"ability, leaving at least one mana: {concrete_text(cost)}")
    return cost


def any_colour(state: State, oid: str, cost: ConcreteCost) -> ConcreteCost:
    """602.1e: under `oid`'s own effect letting mana be spent as though it were mana of any
    colour on its abilities' activation costs, each coloured symbol of the whole total may be
    paid with any mana (it is paid as generic; {C} still needs colourless mana)."""
    if not any(isinstance(ab, StaticAbility) and ab.activation_any_color for ab in chars(state, state.obj(oid)).abilities):
        return cost
    coloured = sum(cost.colored[t] for t in ManaType if t is not ManaType.C)
    return ConcreteCost({ManaType.C: cost.colored[ManaType.C]}, cost.generic + coloured, cost.life, cost.snow)


def payable_total(state: State, oid: str, cost: ConcreteCost, trace: Trace) -> ConcreteCost:
    """The total of this activation (its increases, then its reductions) as it may be paid (602.1e)."""
    total = rules().activation_reductions(state, oid, rules().activation_increases(state, oid, cost, trace), trace)
    paid_as = rules().activation_any_colour(state, oid, total)
    if paid_as != total:
        trace.add("602.1e", f"{oid}'s effect lets mana of any colour pay its abilities' activation costs: the whole "
                            f"total {concrete_text(total)}, as increased or reduced, is paid as {concrete_text(paid_as)}")
    return paid_as
