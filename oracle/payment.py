"""601.2g-h: mana abilities before payment, then paying the locked total all at once.

With `pay: listed` only the pool and the listed activations pay; with `pay: auto` the engine
also activates {T}-only mana abilities, choosing with the mana layer's exact solver. Nothing
is paid partially (601.2h): the caller rewinds on any failure.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from . import mana_abilities
from .costs import ConcreteCost, ManaPool, ManaType, Supply, Unit, concrete_text, pay_from_pool, plan_payment
from .errors import Illegal
from .reasons import Reason
from .seams import rules
from .state import State
from .trace import Trace

ORDER = ("W", "U", "B", "R", "G", "C")


def mana_part(cost: ConcreteCost) -> ConcreteCost:
    return ConcreteCost(cost.colored, cost.generic, 0, cost.snow)


def chooser_for(cost: ConcreteCost, state: State, player: str,
                rest: Sequence[Supply] | Callable[[], Sequence[Supply]]):
    """Pick the type of a choice unit so that the rest of the payment stays possible. ``rest``
    may be a function giving the supplies still to come, only called when a choice is made."""
    def choose(options: frozenset[str]) -> str:
        pool = state.player(player).pool
        later = rest() if callable(rest) else rest
        for t in sorted(options, key=ORDER.index):
            if plan_payment(cost, pool.add(ManaType(t)), later) is not None:
                return t
        return sorted(options, key=ORDER.index)[0]
    return choose


def activate_listed(state: State, player: str, listed: Sequence[tuple[str, int, str | None]],
                    cost: ConcreteCost | None, trace: Trace, sacrifices: Sequence = (), spell=None,
                    orders: Sequence = ()) -> State:
    """601.2g: each listed mana ability, in order; an unusable one makes the cast illegal.
    A choice left open ("any type") is made so that the pool plus the abilities still to come
    can pay the cost, the same whatever the order of the list."""
    for n, (oid, index, produce) in enumerate(listed):
        chooser = None
        if cost is not None:
            rest = _listed_supplies(state, player, listed[n + 1:], spell)
            chooser = chooser_for(mana_part(cost), state, player, rest)
        sac = sacrifices[n] if n < len(sacrifices) else None
        order = orders[n] if n < len(orders) else None
        try:
            state = mana_abilities.activate(state, player, oid, index, produce, trace, chooser, sac, order)
        except Illegal as exc:
            exc.substep = exc.substep or "601.2g"
            raise
    return state


def _listed_supplies(state: State, player: str, listed, spell=None) -> list[Supply]:
    out = []
    for oid, index, _ in listed:
        obj = state.objects.get(oid)
        if obj is None or obj.zone != "battlefield":
            continue
        abilities = mana_abilities.chars(state, obj).mana_abilities()
        if not 0 <= index < len(abilities):
            continue
        ab = abilities[index]
        if ab.spend_only is not None and not mana_abilities.spendable_on(
                state, spell, (None, ab.spend_only, obj.controller, obj.id)):
            continue
        units = mana_abilities.apply_replacements(state, obj, ab, rules().mana_ability_units(state, obj, ab, frozenset()))
        out.append(Supply(f"{oid}#{index}", tuple(Unit(frozenset(ManaType(t) for t in mana_abilities._letters(u)))
                                                 for u in units)))
    return [s for s in out if s.units]


def usable_pool(state: State, player: str, spell) -> ManaPool:
    """The pool mana that may pay for `spell`: the unrestricted pool plus the restricted mana
    (106.6) whose restriction `spell` satisfies (none for ability costs, spell None)."""
    p = state.player(player)
    pool = p.pool
    for entry in p.restricted:
        if mana_abilities.spendable_on(state, spell, entry):
            pool = pool.add(ManaType(entry[0]))
    return pool


def _spend(state: State, player: str, usable: ManaPool, after: ManaPool, spell) -> State:
    """Take what was spent (usable - after) out of the player's mana: restricted mana this spell
    may receive first (the player's choice; it keeps the freer mana), then the pool."""
    p = state.player(player)
    pool, restricted = p.pool, list(p.restricted)
    for t in ORDER:
        n = usable.count(t) - after.count(t)
        for entry in list(restricted):
            if n and entry[0] == t and mana_abilities.spendable_on(state, spell, entry):
                restricted.remove(entry)
                n -= 1
        for _ in range(n):
            pool = pool.remove(ManaType(t))
    return state.with_player(replace(p, pool=pool, restricted=tuple(restricted)))


def pay_mana(state: State, player: str, cost: ConcreteCost, auto: bool, used: frozenset[str],
             trace: Trace, spell=None) -> State:
    """601.2h: pay the mana part from the pool (after auto activations when allowed). `spell`
    is the spell being paid for (None for an ability's cost): it decides which restricted mana
    (106.6) may be spent."""
    need = mana_part(cost)
    if need.mana_amount == 0:
        return state
    if auto:
        sups = mana_abilities.supplies(state, player, used, spell)
        by_key = {s.key: (s, i) for s, i in sups}
        plan = plan_payment(need, usable_pool(state, player, spell), [s for s, _ in sups])
        if plan is None:
            raise Illegal(Reason.INSUFFICIENT_MANA,
                          f"{player} can't pay {concrete_text(need)} with the pool ({state.player(player).pool or 'empty'})"
                          " and the untapped mana sources", rules=("601.2h",))
        keys = plan.activations
        for n, key in enumerate(keys):
            def remaining(after: int = n + 1) -> list[Supply]:   # built only if a choice needs it
                return [by_key[k][0] for k in keys[after:]]
            sup, index = by_key[key]
            chosen = plan.types[n] if n < len(plan.types) else ()
            produce = chosen[0] if len(chosen) == 1 and len(sup.units[0].types) > 1 else None
            trace.add("601.2g", f"the engine activates {key}'s mana ability (pay: auto)")
            state = mana_abilities.activate(state, player, key, index, produce, trace,
                                            chooser_for(need, state, player, remaining))
    usable = usable_pool(state, player, spell)
    new_pool = pay_from_pool(need, usable)
    if new_pool is None:
        held_back = "" if usable == state.player(player).pool and not state.player(player).restricted else (
            " (restricted mana this spell can't receive is held back, 106.6)")
        raise Illegal(Reason.INSUFFICIENT_MANA,
                      f"the pool {usable or '(empty)'} doesn't pay {concrete_text(need)}; no partial payments "
                      f"{held_back}", rules=("601.2h",))
    spent = _difference(usable, new_pool)
    trace.add("601.2h", f"{player} pays {concrete_text(need)} with {spent}")
    return _spend(state, player, usable, new_pool, spell)


def _difference(before: ManaPool, after: ManaPool) -> str:
    out = ""
    for t in ORDER:
        n = before.count(t) - after.count(t)
        out += ("{%s}" % t) * n
    return out or "nothing"


def pay_life(state: State, player: str, life: int, trace: Trace) -> State:
    if life <= 0:
        return state
    p = state.player(player)
    if p.life < life:                      # 119.4 / 118.3: only with enough life
        raise Illegal(Reason.INSUFFICIENT_LIFE, f"{player} has {p.life} life and can't pay {life}", rules=("118.3", "119.4"))
    trace.add("118.3b", f"{player} pays {life} life for Phyrexian mana")
    return state.with_player(replace(p, life=p.life - life))
