"""What mana may pay a cost (601.2h, 106.6): the pool, and the restricted mana whose
restriction allows what it is spent on; spending takes the restricted mana first.

A restriction (106.6) comes from a mana ability's `spend_only` (only spells matching a filter),
`spend_abilities` (only activation costs of abilities of matching sources) and `spend_not`
(never spells matching a filter). What the mana is spent on is a spell (its object), an
activation of an ability (`AbilityOf` its source), or anything else (None: a cost an effect
demands as it resolves, a special action), which only a restriction naming no "only" allows."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from castrules.model.abilities import CastPermission, SpendAsAnyType
from castrules.model.parts import Filter

from .characteristics import chars, matches
from .costs import ConcreteCost, ManaPool, ManaType
from .frozen import replace
from .seams import rules
from .state import Obj, State
from .trace import Trace

ORDER = ("W", "U", "B", "R", "G", "C")


@dataclass(frozen=True)
class AbilityOf:
    """Mana spent on the activation cost of an ability of object `source` (602.2b)."""

    source: str


Purpose = Union[Obj, AbilityOf, None]      # a spell, an activation, anything else


@dataclass(frozen=True)
class Restriction:
    """106.6: how the mana of one ability may be spent (every given field applies)."""

    spells: Filter | None = None        # only to cast spells matching it (and abilities, if given)
    abilities: Filter | None = None     # only to activate abilities of sources matching it (and spells, if given)
    not_spells: Filter | None = None    # never to cast spells matching it

    @property
    def only(self) -> bool:
        """Does it list what the mana may be spent on ("spend this mana only ...")?"""
        return self.spells is not None or self.abilities is not None


def restriction_of(ability) -> Restriction | None:
    """The spending restriction of a mana ability (None: its mana is unrestricted)."""
    if getattr(ability, "spend_only", None) is None and getattr(ability, "spend_abilities", None) is None \
            and getattr(ability, "spend_not", None) is None:
        return None         # the common case, without building and comparing a Restriction
    r = Restriction(getattr(ability, "spend_only", None), getattr(ability, "spend_abilities", None),
                    getattr(ability, "spend_not", None))
    return None if r == Restriction() else r


def may_pay(state: State, purpose: Purpose, r: Restriction, controller: str, source: str) -> bool:
    """106.6: may mana with restriction `r` (from `source`, controlled by `controller`) be
    spent on `purpose`? Filters read relative to the mana ability's controller."""
    if isinstance(purpose, AbilityOf):
        if not r.only:
            return True
        src = state.objects.get(purpose.source)
        return r.abilities is not None and src is not None and matches(chars(state, src), src, r.abilities,
                                                                       controller, source)
    if purpose is None:
        return not r.only
    c = chars(state, purpose)
    if r.not_spells is not None and matches(c, purpose, r.not_spells, controller, source):
        return False
    return not r.only or (r.spells is not None and matches(c, purpose, r.spells, controller, source))


def spendable_on(state: State, purpose: Purpose, entry) -> bool:
    """106.6: may restricted mana `entry` (type, restriction, controller, source) pay for `purpose`?"""
    _, r, controller, source = entry
    return allowed(state, purpose, r, controller, source)


def allowed(state: State, purpose: Purpose, r: Restriction, controller: str, source: str) -> bool:
    """`may_pay` through the rules table (a mutant may replace it)."""
    return rules().spend_restriction(state, purpose, r, controller, source)


def as_any_type(state: State, player: str, spell: Obj, cost: ConcreteCost, trace: Trace,
                permission: str | None = None) -> ConcreteCost:
    """609.4b: under an effect `player` controls letting mana of any type be spent on `spell`,
    each coloured and {C} symbol of the mana still to pay may be paid with any mana: it is paid
    as generic ({S} still needs snow mana; restrictions, 106.6, still hold). 118.14: a cast
    permission saying so (`permission`, the one the spell was cast through) does it for that spell only."""
    typed = sum(cost.colored.as_tuple())     # every type's count (ConcreteCost holds ManaCounts)
    if not typed:
        return cost
    c = chars(state, spell)
    granter = state.objects.get(permission) if permission is not None else None
    if granter is not None and any(isinstance(ab, CastPermission) and ab.any_type
                                   for ab in chars(state, granter).abilities):
        trace.add("118.14", f"{granter.base.name} ({granter.id}) let {player} cast {c.name}, and mana of any type "
                            "can be spent on it")
        return ConcreteCost({}, cost.generic + typed, cost.life, cost.snow)
    for obj in state.battlefield():
        if obj.controller == player and any(isinstance(ab, SpendAsAnyType) and matches(c, spell, ab.spells, player,
                                                                                      obj.id)
                                            for ab in chars(state, obj).abilities):
            trace.add("609.4b", f"{obj.base.name} ({obj.id}) lets {player} spend mana of any type on {c.name}")
            return ConcreteCost({}, cost.generic + typed, cost.life, cost.snow)
    return cost


def mana_only(cost: ConcreteCost) -> ConcreteCost:
    """The mana of a cost, without its life (the cost itself when it has none: it is frozen)."""
    if not cost.life and type(cost) is ConcreteCost:
        return cost
    return ConcreteCost(cost.colored, cost.generic, 0, cost.snow)


def usable_pool(state: State, player: str, purpose: Purpose) -> ManaPool:
    """The pool mana that may pay for `purpose`: the unrestricted pool plus the restricted
    mana (106.6) whose restriction allows it."""
    p = state.player(player)
    pool = p.pool
    for entry in p.restricted:
        if spendable_on(state, purpose, entry):
            pool = pool.add(ManaType(entry[0]))
    return pool


def spend(state: State, player: str, usable: ManaPool, after: ManaPool, purpose: Purpose) -> State:
    """Take what was spent (usable - after) out of the player's mana: restricted mana this
    purpose may receive first (the player's choice; it keeps the freer mana), then the pool."""
    p = state.player(player)
    pool, restricted = p.pool, list(p.restricted)
    had, left = usable.counts.as_tuple(), after.counts.as_tuple()     # WUBRGC, ORDER's order
    for i, t in enumerate(ORDER):
        spent = had[i] - left[i]
        if not spent:
            continue        # none of this type spent: none of its snow mana either
        snowy = usable.count(t, snow=True) - after.count(t, snow=True)     # snow mana spent (107.4h)
        n = spent - snowy
        for entry in list(restricted) if restricted else ():
            if n and entry[0] == t and spendable_on(state, purpose, entry):
                restricted.remove(entry)
                n -= 1
        if n:
            pool = pool.remove(t, n, snow=False)        # a letter: remove takes it as ManaType(t)
        if snowy:
            pool = pool.remove(t, snowy, snow=True)
    return state.with_player(replace(p, pool=pool, restricted=tuple(restricted)))


def difference(before: ManaPool, after: ManaPool) -> str:
    """The mana spent, as symbols (for the trace)."""
    had, left = before.counts.as_tuple(), after.counts.as_tuple()     # WUBRGC, ORDER's order
    return "".join(("{%s}" % t) * (h - n) for t, h, n in zip(ORDER, had, left)) or "nothing"
