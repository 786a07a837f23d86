"""The one payer of every cost: spells (601.2h), activated abilities and special actions
(602.2b, 116), effects that make a player pay (107.3h) and mana abilities (605.3b).

A cost is a sequence of parts, one frozen value per kind (mana, life, {T}, {Q}, a sacrifice,
the source sacrificing itself, a reveal: oracle.cost_parts). `pay_costs` first checks every part, in the order
given (118.3: a player can't pay a cost without the resources; the first part that can't be
paid is the one reported), then pays them all at once (601.2h: nothing is paid partially, the
caller rewinds on any failure) in `PAY_ORDER`. Each part kind has one handler, its check and
its payment together, in `HANDLERS`, a table keyed by the part's type. What the cost is paid
for (`Paying`) only chooses how a failure is reported (reason code, rules, words).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Callable, Mapping, Protocol, Sequence

from castrules.model.parts import AbilityCost

from .characteristics import chars, matches
from .cost_parts import (LifePart, ManaPart, Part, RevealPart, SacrificePart, SacrificeSourcePart, TapPart,
                         UntapPart)
from .costs import ConcreteCost, concrete_text, pay_from_pool
from .discard_costs import DiscardPart, pay_discard
from .errors import Illegal
from .frozen import replace
from .keyword_payment import DelvePart, ImprovisePart, check_delve, check_improvise, pay_delve, tap_for_improvise
from .reasons import Reason
from .return_costs import ReturnPart, check_return, pay_return
from .seams import rules
from .spending import AbilityOf, Purpose, difference, mana_only, spend, usable_pool
from .state import CARD, Obj, State
from .trace import Trace
from .zones import move, paid_anyway


class Paying(Enum):
    """What a cost is paid for; it decides only how a part that can't be paid is reported."""

    SPELL = "spell"                     # 601.2h
    ABILITY = "ability"                 # 602.2b: an activated ability that is not a mana ability
    SPECIAL_ACTION = "special_action"   # 116.2f (suspend), paid like an activation
    EFFECT = "effect"                   # 107.3h: an effect makes the player pay a mana cost
    MANA_ABILITY = "mana_ability"       # 605.3b: paid as the ability is activated, from the pool


# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_SPELL, _MANA_ABILITY = Paying.SPELL, Paying.MANA_ABILITY


class Activator(Protocol):
    """601.2g: activates the mana abilities an automatic payment of `need` uses (pay: auto)."""

    def __call__(self, state: State, need: ConcreteCost, part: ManaPart, ctx: "CostContext",
                 trace: Trace) -> State: ...


@dataclass(frozen=True)
class CostContext:
    """Who pays, for what. `source`: the spell, or the object whose ability or action it is;
    `spell`: the spell paid for (which restricted mana may be spent, 106.6), None for abilities;
    `activate`: the 601.2g activations an automatic mana payment makes (payment.auto_activate)."""

    player: str
    paying: Paying
    source: str
    spell: Obj | None = None
    activate: Activator | None = None

    @property
    def purpose(self) -> Purpose:
        """What the mana is spent on (106.6): the spell, an activation of `source`'s ability
        (a mana ability's too), or anything else (a special action, an effect's demand)."""
        if self.paying in _FOR_ABILITIES:
            return AbilityOf(self.source)
        return self.spell


_FOR_ABILITIES = (Paying.ABILITY, _MANA_ABILITY)


@dataclass(frozen=True)
class Handler:
    """A part kind's check (raises Illegal when the part can't be paid now) and payment."""

    check: Callable[[State, Part, CostContext], None]
    pay: Callable[[State, Part, CostContext, Trace], State]


# ---- the payer ---------------------------------------------------------------------------------

def check_costs(state: State, parts: Sequence[Part], ctx: CostContext) -> None:
    """Raise Illegal for the first part that can't be paid now (118.3), in the order given."""
    for part in parts:
        HANDLERS[type(part)].check(state, part, ctx)


def can_pay(state: State, parts: Sequence[Part], ctx: CostContext) -> bool:
    """Could every part be paid now?"""
    try:
        check_costs(state, parts, ctx)
    except Illegal:
        return False
    return True


def pay_costs(state: State, parts: Sequence[Part], ctx: CostContext, trace: Trace) -> State:
    """Check every part, then pay them all (601.2h, 602.2b, 605.3b); raise Illegal, never
    paying partially: the caller keeps the state from before."""
    check_costs(state, parts, ctx)
    for part in (sorted(parts, key=lambda p: PAY_ORDER.index(type(p))) if len(parts) > 1 else parts):
        state = HANDLERS[type(part)].pay(state, part, ctx, trace)
    return state


def pay_taps(state: State, objects: Sequence[str]) -> State:
    """{T} for several mana abilities at once, each TapPart already checked by `check_costs` on
    this state (107.5, 302.6): the permanents tapped in one update (pay: auto's activations made
    at once, oracle.payment)."""
    return state.with_objs(replace(state.obj(oid), tapped=True) for oid in objects)


def ability_cost_parts(cost: AbilityCost, source: str, mana: ConcreteCost | None = None, auto: bool = False,
                       used: frozenset[str] = frozenset(),
                       sacrifice: Sequence[str] | None = None) -> tuple[Part, ...]:
    """The parts of an ability's cost (602.2b, 605.3b), mana given already announced (X);
    `sacrifice`: the player's choice for its sacrifice, None for the engine's."""
    parts: list[Part] = []
    if cost.tap:
        parts.append(TapPart(source))
    if cost.untap:
        parts.append(UntapPart(source))
    if mana is not None and mana.mana_amount:
        parts.append(ManaPart(mana, auto, used))
    if cost.life:
        parts.append(LifePart(cost.life))
    if cost.sacrifice_filter is not None:
        parts.append(SacrificePart((cost.sacrifice_filter,), None if sacrifice is None else tuple(sacrifice)))
    if cost.sacrifices_self:
        parts.append(SacrificeSourcePart(source))
    return tuple(parts)


# ---- {T} and {Q} ------------------------------------------------------------------------------

def check_tap(state: State, part: TapPart | UntapPart, ctx: CostContext) -> None:
    """107.5 / 107.6: {T} needs an untapped permanent, {Q} a tapped one; 302.6: a creature
    pays either only if its controller has controlled it since their turn began (or haste)."""
    obj = state.obj(part.object)
    tap = isinstance(part, TapPart)
    if tap and obj.tapped:
        raise Illegal(Reason.ALREADY_TAPPED, f"{obj.id} is already tapped", rules=("107.5",))
    if not tap and not obj.tapped:
        raise Illegal(Reason.ALREADY_UNTAPPED, f"{obj.id} is already untapped", rules=("107.6",))
    if obj.summoning_sick and chars(state, obj).is_creature and "haste" not in chars(state, obj).keywords:
        raise Illegal(Reason.SUMMONING_SICK,
                      f"{obj.id} is a creature not controlled since its controller's turn began", rules=("302.6",))


def _check_tap(state: State, part: Part, ctx: CostContext) -> None:
    rules().check_tap_cost(state, part, ctx)


def _pay_tap(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    assert isinstance(part, (TapPart, UntapPart))
    return state.with_obj(replace(state.obj(part.object), tapped=isinstance(part, TapPart)))


# ---- life -------------------------------------------------------------------------------------

def life_payable(state: State, player: str, amount: int) -> bool:
    """119.4 / 118.3: a player can pay life only if their life total is at least the amount."""
    return state.player(player).life >= amount


def _check_life(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, LifePart)
    if part.amount <= 0 or rules().life_payable(state, ctx.player, part.amount):
        return
    if ctx.paying is _MANA_ABILITY:
        raise Illegal(Reason.MANA_ABILITY_COST_UNPAYABLE, f"{ctx.player} can't pay {part.amount} life",
                      rules=("118.3",))
    raise Illegal(Reason.INSUFFICIENT_LIFE, f"{ctx.player} has {state.player(ctx.player).life} life and can't pay "
                                            f"{part.amount}", rules=("118.3", "119.4"))


def _pay_life(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    assert isinstance(part, LifePart)
    if part.amount <= 0:
        return state
    p = state.player(ctx.player)
    if part.phyrexian:
        trace.add("118.3b", f"{ctx.player} pays {part.amount} life for Phyrexian mana")
    else:
        trace.add("119.4", f"{ctx.player} pays {part.amount} life")
    return state.with_player(replace(p, life=p.life - part.amount))


# ---- mana (601.2h; restricted mana, 106.6) ------------------------------------------------------

def _check_mana(state: State, part: Part, ctx: CostContext) -> None:
    """605.3b: a mana ability's mana cost is paid from the pool as it is activated; any other
    mana cost is judged as it is paid, after the activations that pay it (601.2g-h)."""
    assert isinstance(part, ManaPart)
    if ctx.paying is not _MANA_ABILITY:
        return
    pool = usable_pool(state, ctx.player, ctx.purpose)
    if pay_from_pool(mana_only(part.cost), pool) is None:
        raise Illegal(Reason.MANA_ABILITY_COST_UNPAYABLE, f"{ctx.source}'s ability costs {concrete_text(part.cost)}; "
                                                          f"the pool holds {pool or 'nothing'}", rules=("602.2b",))


def _pay_mana(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    """601.2h: the mana from the pool (after the automatic activations, when allowed); the
    spell paid for decides which restricted mana may be spent (106.6)."""
    assert isinstance(part, ManaPart)
    need = mana_only(part.cost)
    if need.mana_amount == 0:
        return state
    if part.auto:
        assert ctx.activate is not None, "an automatic mana payment needs the 601.2g activator"
        state = ctx.activate(state, need, part, ctx, trace)
    player = ctx.player
    usable = usable_pool(state, player, ctx.purpose)
    new_pool = pay_from_pool(need, usable)
    if new_pool is None:
        held_back = "" if usable == state.player(player).pool and not state.player(player).restricted else (
            " (restricted mana this payment can't receive is held back)")
        raise Illegal(Reason.INSUFFICIENT_MANA,
                      f"the pool {usable or '(empty)'} doesn't pay {concrete_text(need)}; no partial payments "
                      f"{held_back}", rules=("601.2h",) + (("106.6",) if held_back else ()))
    if ctx.paying is not _MANA_ABILITY:        # a mana ability's activation line says it (605.3b)
        trace.add("601.2h", f"{player} pays {concrete_text(need)} with {difference(usable, new_pool)}")
    return spend(state, player, usable, new_pool, ctx.purpose)


# ---- sacrifices (701.21a) ---------------------------------------------------------------------

def _fits(state: State, oid: str | None, part: SacrificePart, player: str) -> bool:
    obj = state.objects.get(oid) if oid is not None else None
    return (obj is not None and obj.zone == "battlefield" and obj.controller == player and obj.kind is CARD
            and any(matches(chars(state, obj), obj, f, player) for f in part.fits))


def _victim(state: State, part: SacrificePart, player: str) -> str | None:
    """The permanent sacrificed: the one chosen, else the first fitting one in setup order."""
    if part.chosen is not None:
        return part.chosen[0] if len(part.chosen) == 1 and _fits(state, part.chosen[0], part, player) else None
    return next((o.id for o in state.battlefield() if _fits(state, o.id, part, player)), None)


def _check_sacrifice(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, SacrificePart)
    if _victim(state, part, ctx.player) is not None:
        return
    named = ", ".join(part.chosen or ()) or "nothing"
    if ctx.paying is _MANA_ABILITY:
        note = (f"{ctx.source}'s ability needs a sacrifice and {ctx.player} has nothing to sacrifice"
                if part.chosen is None else
                f"{named} can't pay {ctx.source}'s sacrifice cost: it needs one permanent {ctx.player} controls "
                "that fits it")
        raise Illegal(Reason.MANA_ABILITY_COST_UNPAYABLE, note, rules=("602.2b", "118.3"))
    what = "the additional cost" if ctx.paying is _SPELL else f"the cost of {ctx.source}'s ability"
    spell_rules = ("702.119c", "601.2h") if part.emerge else ("118.8", "601.2h")
    raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{named} can't be sacrificed to pay "
                                                 f"{'the emerge cost' if part.emerge else what}",
                  rules=spell_rules if ctx.paying is _SPELL else ("602.2b", "118.3"))


def _pay_sacrifice(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    assert isinstance(part, SacrificePart)
    victim = _victim(state, part, ctx.player)
    if victim is None:                 # a permanent named twice: gone with the first sacrifice
        _check_sacrifice(state, part, ctx)
        raise AssertionError("unreachable: the check raises")
    if ctx.paying is _SPELL:
        note, why = (("sacrificed for the emerge cost", ("601.2h", "702.119c")) if part.emerge
                     else ("sacrificed to pay an additional cost", ("601.2h",)))
    elif ctx.paying is _MANA_ABILITY:
        note, why = f"sacrificed to pay {ctx.source}'s mana ability", ()
    else:
        note, why = f"sacrificed to pay {ctx.source}'s ability", ("602.2b",)
    return paid_anyway(move(state, victim, "graveyard", trace, note=note, rules=why), victim, "sacrifice", trace)


def _check_source_sacrifice(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, SacrificeSourcePart)
    obj = state.obj(part.object)
    if obj.zone != "battlefield" or obj.controller != ctx.player:
        raise Illegal(Reason.MANA_ABILITY_COST_UNPAYABLE if ctx.paying is _MANA_ABILITY
                      else Reason.ADDITIONAL_COST_UNPAID,
                      f"{part.object} is not a permanent {ctx.player} controls: it can't sacrifice itself",
                      rules=("602.2b", "118.3"))


def _pay_source_sacrifice(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    assert isinstance(part, SacrificeSourcePart)
    return move(state, part.object, "graveyard", trace)


# ---- reveals (701.20a) ------------------------------------------------------------------------

def _check_reveal(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, RevealPart)
    for oid in part.chosen:
        obj = state.objects.get(oid)
        if (obj is None or obj.zone != "hand" or obj.owner != ctx.player or oid == ctx.source
                or not any(matches(chars(state, obj), obj, f, ctx.player) for f in part.fits)):
            raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{oid} is not a card in {ctx.player}'s hand that the "
                                                         "reveal cost asks for", rules=("118.8", "601.2h"))


def _pay_reveal(state: State, part: Part, ctx: CostContext, trace: Trace) -> State:
    assert isinstance(part, RevealPart)
    if part.chosen:
        trace.add(("601.2h", "118.8"), f"{ctx.player} reveals {', '.join(part.chosen)} from their hand (an additional cost)")
    return state


# ---- objects paying generic mana: delve, improvise (oracle/keyword_payment.py) ------------------

def _check_delve(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, DelvePart)
    check_delve(state, part, ctx.player, ctx.source)


def _check_improvise(state: State, part: Part, ctx: CostContext) -> None:
    assert isinstance(part, ImprovisePart)
    check_improvise(state, part, ctx.player)


HANDLERS: Mapping[type, Handler] = MappingProxyType({
    ManaPart: Handler(_check_mana, _pay_mana),
    LifePart: Handler(_check_life, _pay_life),
    TapPart: Handler(_check_tap, _pay_tap),
    UntapPart: Handler(_check_tap, _pay_tap),
    SacrificePart: Handler(_check_sacrifice, _pay_sacrifice),
    SacrificeSourcePart: Handler(_check_source_sacrifice, _pay_source_sacrifice),
    RevealPart: Handler(_check_reveal, _pay_reveal),
    DelvePart: Handler(_check_delve, lambda state, part, ctx, trace: pay_delve(state, part, trace)),
    ImprovisePart: Handler(_check_improvise, lambda state, part, ctx, trace: tap_for_improvise(state, part, trace)),
    DiscardPart: Handler(lambda state, part, ctx: rules().check_discard(state, part, ctx.player, ctx.source),
                         lambda state, part, ctx, trace: pay_discard(state, part, ctx.player, trace)),
    ReturnPart: Handler(lambda state, part, ctx: check_return(state, part, ctx.player),
                        lambda state, part, ctx, trace: pay_return(state, part, trace)),
})

# 601.2h lets the payer pay the parts in any order. {T} and {Q} first, so the automatic mana
# activations can't tap that permanent for mana too; life, then mana; a sacrifice after the mana,
# so a permanent tapped for mana may still be sacrificed (or returned, Daze's Island); discards, then the reveals. Improvise's
# artifacts are tapped before the mana too (the automatic activations can't use them); delve's cards last.
PAY_ORDER: tuple[type, ...] = (TapPart, UntapPart, ImprovisePart, LifePart, ManaPart, SacrificePart,
                               SacrificeSourcePart, ReturnPart, DiscardPart, RevealPart, DelvePart)
