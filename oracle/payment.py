"""601.2g: the mana abilities activated for a payment, before the payer (oracle.payer) pays.

With `pay: listed` only the pool and the listed activations pay; with `pay: auto` the engine
also activates {T}-only mana abilities, choosing with the mana layer's exact solver
(`auto_activate`, which the payer calls as it pays the mana part). Nothing is paid partially
(601.2h): the caller rewinds on any failure.
"""
from __future__ import annotations

import itertools
from typing import Callable, Iterator, Sequence, Union

from castrules.model.abilities import ManaReplacement, ManaTrigger

from . import mana_abilities
from .characteristics import chars
from .costs import ConcreteCost, ManaPool, ManaType, Plan, Supply, concrete_text, plan_payment
from .errors import Illegal
from .payer import CostContext, ManaPart, Paying, TapPart, check_costs, pay_taps
from .reasons import Reason
from .seams import rules
from .spending import ORDER, Purpose, allowed, mana_only, restriction_of, usable_pool
from .state import State
from .trace import Trace


def chooser_for(cost: ConcreteCost, state: State, player: str,
                rest: Sequence[Supply] | Callable[[], Sequence[Supply]]):
    """Pick the type of a choice unit so that the rest of the payment stays possible. ``rest``
    may be a function giving the supplies still to come, only called when a choice is made."""
    return pool_chooser(cost, state.player(player).pool, rest)


def pool_chooser(cost: ConcreteCost, pool: ManaPool, rest: Sequence[Supply] | Callable[[], Sequence[Supply]]):
    """`chooser_for`, given the pool the choice is made with."""
    def choose(options: frozenset[str]) -> str:
        later = rest() if callable(rest) else rest
        for t in sorted(options, key=ORDER.index):
            if plan_payment(cost, pool.add(ManaType(t)), later) is not None:
                return t
        return sorted(options, key=ORDER.index)[0]
    return choose


def activate_listed(state: State, player: str, listed: Sequence[tuple[str, int, str | None]],
                    cost: ConcreteCost | None, trace: Trace, sacrifices: Sequence = (), spell: Purpose = None,
                    orders: Sequence = ()) -> State:
    """601.2g: each listed mana ability, in order; an unusable one makes the cast illegal.
    A choice left open ("any type") is made so that the pool plus the abilities still to come
    can pay the cost, the same whatever the order of the list."""
    for n, (oid, index, produce) in enumerate(listed):
        chooser = None
        if cost is not None:       # what is still to come, worked out only if a choice needs it
            def rest(now: State = state, later: Sequence = listed[n + 1:]) -> list[Supply]:
                return _listed_supplies(now, player, later, spell)
            chooser = chooser_for(mana_only(cost), state, player, rest)
        sac = sacrifices[n] if n < len(sacrifices) else None
        order = orders[n] if n < len(orders) else None
        try:
            state = mana_abilities.activate(state, player, oid, index, produce, trace, chooser, sac, order)
        except Illegal as exc:
            exc.substep = exc.substep or "601.2g"
            raise
    return state


def _listed_supplies(state: State, player: str, listed, spell: Purpose = None) -> list[Supply]:
    out = []
    for oid, index, _ in listed:
        obj = state.objects.get(oid)
        if obj is None or obj.zone != "battlefield":
            continue
        abilities = chars(state, obj).mana_abilities()
        if not 0 <= index < len(abilities):
            continue
        ab = abilities[index]
        r = restriction_of(ab)
        if r is not None and not allowed(state, spell, r, obj.controller, obj.id):
            continue
        units = mana_abilities.apply_replacements(state, obj, ab, rules().mana_ability_units(state, obj, ab, frozenset()))
        snow = mana_abilities.is_snow(state, obj)
        out.append(Supply(f"{oid}#{index}", tuple(mana_abilities.solver_unit(u, snow) for u in units)))
    return [s for s in out if s.units]


def auto_activate(state: State, need: ConcreteCost, part: ManaPart, ctx: CostContext, trace: Trace) -> State:
    """601.2g with pay: auto: the engine activates the {T}-only mana abilities the mana layer's
    exact solver picks to pay `need` with the pool (not those of `part.used`); the payer then
    pays from the pool (oracle.payer). Raises Illegal when nothing pays it."""
    player, spell = ctx.player, ctx.purpose
    pool = usable_pool(state, player, spell)
    plan, by_key = None, {}
    for sups in _choices(rules().auto_supplies(state, player, part.used, spell)):
        by_key = {s.key: (s, pick) for s, pick in sups}
        plan = plan_payment(need, pool, [s for s, _ in sups])
        if plan is not None:
            break
    if plan is None:
        raise Illegal(Reason.INSUFFICIENT_MANA,
                      f"{player} can't pay {concrete_text(need)} with the pool ({state.player(player).pool or 'empty'})"
                      " and the untapped mana sources", rules=("601.2h",))
    if _at_once(state, plan.activations):
        return _activate_at_once(state, need, player, plan, by_key, trace)
    for key, index, produce, remaining in _planned(plan, by_key, trace):
        state = mana_abilities.activate(state, player, key, index, produce, trace,
                                        chooser_for(need, state, player, remaining))
    return state


# Which ability of a permanent the plan activates: an ability index, or, for a permanent whose
# one-mana abilities are merged into one choice unit, each mana type -> (index, produce or None).
Pick = Union[int, dict]


def _choices(sups: list[tuple[Supply, int]]) -> Iterator[list[tuple[Supply, Pick]]]:
    """The sets of activations the solver may choose from, one ability per permanent (its one
    {T} is paid once: 107.5, 118.3; 605.3a says when they may be activated). A permanent whose
    abilities each add one mana of the same snow-ness is one choice unit of all their types
    (exact: one of them is made); an ability adding no more than another of the same permanent is
    left out; any other permanent with several gives each combination in turn, its first first."""
    groups: dict[str, list[tuple[Supply, int]]] = {}
    for s, i in sups:
        groups.setdefault(s.key, []).append((s, i))
    if len(groups) == len(sups):
        yield list(sups)
        return
    options = [_options(g) if len(g) > 1 else g for g in groups.values()]
    for combo in itertools.product(*options):
        yield list(combo)


def _options(group: list[tuple[Supply, int]]) -> list[tuple[Supply, Pick]]:
    """One permanent's {T}-only abilities as alternatives (see `_choices`)."""
    kept = [g for n, g in enumerate(group)
            if not any(_covers(o[0], g[0], m < n) for m, o in enumerate(group) if m != n)]
    snow = {u.snow for s, _ in kept for u in s.units}
    if len(kept) == 1 or len(snow) != 1 or any(len(s.units) != 1 for s, _ in kept):
        return kept
    pick: dict[str, tuple[int, str | None]] = {}
    for s, i in kept:
        for t in s.units[0].types:
            pick.setdefault(t.value, (i, t.value if len(s.units[0].types) > 1 else None))
    merged = mana_abilities.solver_unit(frozenset(pick), snow.pop())
    return [(Supply(kept[0][0].key, (merged,)), pick)]


def _covers(b: Supply, a: Supply, earlier: bool) -> bool:
    """Does `b` add, for each mana `a` adds, one that can pay whatever that one can (so `a` is
    never needed)? Of two that cover each other, the earlier ability is kept."""
    if len(a.units) > len(b.units):
        return False
    free = list(b.units)
    for u in a.units:
        fit = next((v for v in free if u.types <= v.types and u.snow == v.snow), None)
        if fit is None:
            return False
        free.remove(fit)
    mutual = len(a.units) == len(b.units) and all(
        any(v.types <= u.types and v.snow == u.snow for u in a.units) for v in b.units)
    return earlier or not mutual


def _planned(plan: Plan, by_key: dict[str, tuple[Supply, Pick]], trace: Trace):
    """The plan's activations in order, each traced as the engine makes it (601.2g): its source,
    ability index, the type to produce where the plan fixed one, and the supplies still to come
    (built only if a mana choice needs them)."""
    keys = plan.activations
    for n, key in enumerate(keys):
        def remaining(after: int = n + 1) -> list[Supply]:
            return [by_key[k][0] for k in keys[after:]]
        sup, index = by_key[key]
        chosen = plan.types[n] if n < len(plan.types) else ()
        produce = chosen[0] if len(chosen) == 1 and len(sup.units[0].types) > 1 else None
        if isinstance(index, dict):
            index, produce = index[chosen[0]]
        trace.add("601.2g", f"the engine activates {key}'s mana ability (pay: auto)")
        yield key, index, produce, remaining


def _at_once(state: State, keys: Sequence[str]) -> bool:
    """Can pay: auto's activations be made into one new state? When nothing replaces or watches
    tapping for mana (106.12a-b) and each source is tapped once, an activation changes nothing
    another one reads but the pool: the loop's result and trace, with one update instead of one
    per activation (10,000 Forests: 10,000 states, each with a new map of objects)."""
    return (not state.watching_abilities(ManaReplacement) and not state.watching_abilities(ManaTrigger)
            and len(set(keys)) == len(keys))


def _activate_at_once(state: State, need: ConcreteCost, player: str, plan: Plan,
                      by_key: dict[str, tuple[Supply, Pick]], trace: Trace) -> State:
    """`auto_activate`'s activations as `mana_abilities.activate` makes them, in the plan's order,
    traced alike (601.2g, 605.3b): each {T} checked by the payer (107.5, 302.6), its
    mana made and chosen with the pool as it stands then; the payer taps the permanents in one update."""
    pl = state.player(player)
    tapped: list[str] = []
    for key, index, produce, remaining in _planned(plan, by_key, trace):
        obj = state.obj(key)
        ab = chars(state, obj).mana_abilities()[index]
        check_costs(state, (TapPart(key),), CostContext(player, Paying.MANA_ABILITY, key))
        units = rules().mana_ability_units(state, obj, ab, frozenset())
        produced = mana_abilities.produced_kinds(key, units, produce, pool_chooser(need, pl.pool, remaining))
        if not units:
            trace.add(("106.5", "106.7"), f"{obj.base.name} ({key}) adds no mana: no type can be defined")
        pl = mana_abilities.produce_into(pl, obj, ab, produced, mana_abilities.is_snow(state, obj), trace)
        if produced:
            trace.add("605.3b", f"{obj.base.name} ({key}) adds " + "".join("{%s}" % k for k in produced))
        tapped.append(key)
    return pay_taps(state, tapped).with_player(pl)
