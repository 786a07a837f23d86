"""What mana may pay a cost (601.2h, 106.6): the pool, and the restricted mana whose
restriction the spell paid for satisfies; spending takes the restricted mana first."""
from __future__ import annotations

from dataclasses import replace

from .characteristics import chars, matches
from .costs import ConcreteCost, ManaPool, ManaType
from .state import Obj, State

ORDER = ("W", "U", "B", "R", "G", "C")


def mana_only(cost: ConcreteCost) -> ConcreteCost:
    """The mana of a cost, without its life."""
    return ConcreteCost(cost.colored, cost.generic, 0, cost.snow)


def spendable_on(state: State, spell: Obj | None, entry) -> bool:
    """106.6: may restricted mana `entry` (type, filter, controller, source) pay for `spell`?
    Only spells qualify (never ability costs, spell None)."""
    if spell is None:
        return False
    _, flt, controller, source = entry
    return matches(chars(state, spell), spell, flt, controller, source)


def usable_pool(state: State, player: str, spell: Obj | None) -> ManaPool:
    """The pool mana that may pay for `spell`: the unrestricted pool plus the restricted mana
    (106.6) whose restriction `spell` satisfies (none for ability costs, spell None)."""
    p = state.player(player)
    pool = p.pool
    for entry in p.restricted:
        if spendable_on(state, spell, entry):
            pool = pool.add(ManaType(entry[0]))
    return pool


def spend(state: State, player: str, usable: ManaPool, after: ManaPool, spell: Obj | None) -> State:
    """Take what was spent (usable - after) out of the player's mana: restricted mana this spell
    may receive first (the player's choice; it keeps the freer mana), then the pool."""
    p = state.player(player)
    pool, restricted = p.pool, list(p.restricted)
    for t in ORDER:
        n = usable.count(t) - after.count(t)
        for entry in list(restricted):
            if n and entry[0] == t and spendable_on(state, spell, entry):
                restricted.remove(entry)
                n -= 1
        for _ in range(n):
            pool = pool.remove(ManaType(t))
    return state.with_player(replace(p, pool=pool, restricted=tuple(restricted)))


def difference(before: ManaPool, after: ManaPool) -> str:
    """The mana spent, as symbols (for the trace)."""
    out = ""
    for t in ORDER:
        out += ("{%s}" % t) * (before.count(t) - after.count(t))
    return out or "nothing"
