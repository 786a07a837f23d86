"""Effects of resolving spells and abilities (608.2), in the card's listed order."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from castrules.model.effects import (AddCounters, AddMana, Animate, Awaken, BecomeColor, CastCopy, CastFree, CastIfAble, Counter,
                                     CreateToken, CreateTokenCopy, Damage, Delayed, Destroy, Draw, DrainMana, EachOpponent,
                                     Effect, ExileTop, GainLife, GrantFlashback, GraveyardCasting, LoseLife, ModeChooser,
                                     PlayerChoice, Tapper,
                                     Pump, ReturnToHand, SetBasePT, SacrificeSelf, TargetPlayer, UntapSelf, You)
from castrules.model.parts import Filter

from .cards import CardDef, token_def
from .characteristics import chars, matches
from .copy_exceptions import token_copy
from .damage import damage_object, damage_player
from .frozen import make, replace
from .seams import rules
from .state import GrantedFlashback, Obj, State
from .turn_grants import GraveyardTurn
from .targets import is_player_ref
from .trace import Trace
from .zones import move, top_of_library


@dataclass(frozen=True)
class EffectContext:
    """What an effect needs to know about the spell or ability doing it."""

    source: Obj                   # the spell / the permanent (for abilities: its source, LKI)
    controller: str
    targets: tuple[str | None, ...]   # None marks a target that became illegal (608.2b)
    x: int | None = None
    y: int | None = None          # 107.3p
    prowl_paid: bool = False
    kicked: int = 0               # times kicked (702.33d)
    awakened: bool = False        # its awaken cost was paid (702.113a)
    cast: bool = False
    power: int | None = None
    division: tuple[tuple[str, int], ...] = ()   # 601.2d: each divided target's share
    choices: "object" = None      # the resolve step's choices (cast_if_able: cast / decline_cast)
    chooser: str | None = None    # 601.6: the opponent who chose the spell's mode ("that player")
    tapper: str | None = None     # 106.12a: who tapped for mana, for a trigger on that event ("that player")


def condition_holds(cond: str | None, ctx: EffectContext) -> bool:
    if cond is None:
        return True
    return {"prowl_paid": ctx.prowl_paid, "not_prowl_paid": not ctx.prowl_paid, "kicked": ctx.kicked > 0, "not_kicked": ctx.kicked == 0, "awakened": ctx.awakened,
            "cast": ctx.cast}.get(cond, False)


def _amount(amount: int | str | None, ctx: EffectContext) -> int:
    if amount is None:
        return 1
    if amount == "X":
        return ctx.x or 0                               # 107.3m for ETB abilities
    if amount == "Y":
        return ctx.y or 0                               # 107.3p: Y works like X
    if amount == "power":
        return max(0, ctx.power or 0)
    if amount == "divided":
        return 0                                        # per target: see _share
    if amount == "times_kicked":
        return ctx.kicked                               # 702.33d: multikicker paid N times
    return int(amount)


def _target_x(state: State, ctx: EffectContext) -> int:
    """107.3e: an X that refers to another object's X uses the value chosen or defined for it:
    here the first target's (a spell on the stack: its announced or defined X; any other object
    has X 0, 107.3g)."""
    from .variables import text_x_value
    t = ctx.targets[0] if ctx.targets else None
    obj = state.objects.get(t) if t is not None else None
    if obj is None or obj.zone != "stack":
        return 0
    return obj.announced.x if obj.announced.x is not None else (text_x_value(state, obj) or 0)


def _share(e: Damage, ctx: EffectContext, target: str, n: int) -> int:
    """An effect's amount for one target: its announced share when divided (601.2d)."""
    return dict(ctx.division).get(target, 0) if e.amount == "divided" else n


def _players(state: State, who: PlayerChoice, ctx: EffectContext) -> list[str]:
    """The players an effect acts on (the model's typed `player`): a target no longer legal
    (None, 608.2b) is nobody."""
    if isinstance(who, You):
        return [ctx.controller]
    if isinstance(who, EachOpponent):
        return list(state.opponents(ctx.controller))
    if isinstance(who, ModeChooser):
        return [ctx.chooser] if ctx.chooser is not None and state.player(ctx.chooser).in_game else []
    if isinstance(who, Tapper):
        return [ctx.tapper] if ctx.tapper is not None and state.player(ctx.tapper).in_game else []
    t = ctx.targets[who.index] if who.index < len(ctx.targets) else None
    if t is None:
        return []
    if isinstance(who, TargetPlayer):
        return [t] if is_player_ref(state, t) else []
    obj = state.objects.get(t)
    return [obj.controller] if obj is not None else []


def _target_objs(e: Effect, ctx: EffectContext) -> list[str]:
    """The objects an effect acts on: one target (by index), all of them, or (no target) the source."""
    target = getattr(e, "target", None)
    if target == "all":
        return [t for t in ctx.targets if t is not None]
    if target is None:
        return [ctx.source.id]
    i = int(target)
    t = ctx.targets[i] if i < len(ctx.targets) else None
    return [t] if t is not None else []


def draw(state: State, player: str, n: int, trace: Trace) -> State:
    for _ in range(n):
        top = top_of_library(state, player)
        if top is None:
            trace.add("121.4", f"{player} has no card to draw")
            state = state.with_player(replace(state.player(player), drew_from_empty=True))
            break
        state = move(state, top.id, "hand", trace, note=f"{player} draws")
    return state


def apply_effects(state: State, effects: tuple[Effect, ...], ctx: EffectContext, trace: Trace) -> State:
    for e in effects:
        if not condition_holds(e.condition, ctx):
            trace.add("608.2c", f"{e.kind}: skipped, its condition ({e.condition}) is not met")
            continue
        state = _apply(state, e, ctx, trace)
    return state


def _add_mana(state: State, e: AddMana, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .costs import ManaType
    from .mana_abilities import mana_from_text
    for p in _players(state, e.who, ctx):
        pl = state.player(p)
        pool = pl.pool
        for t in mana_from_text(e.mana or ""):
            pool = pool.add(ManaType(t))
        state = state.with_player(replace(pl, pool=pool))
        trace.add("106.3", f"{p} adds {e.mana}")
    return state


def _damage(state: State, e: Damage, ctx: EffectContext, n: int, trace: Trace) -> State:
    for t in _target_objs(e, ctx) if e.player is None else _players(state, e.who, ctx):
        amount = _share(e, ctx, t, n)
        if is_player_ref(state, t):
            state = damage_player(state, ctx.source, t, amount, False, trace, ctx.controller)
        else:
            state = damage_object(state, ctx.source, t, amount, trace)
    return state


def _life(state: State, e: LoseLife | GainLife, ctx: EffectContext, n: int, trace: Trace) -> State:
    for p in _players(state, e.who, ctx):
        delta = -n if isinstance(e, LoseLife) else n
        pl = state.player(p)
        state = state.with_player(replace(pl, life=pl.life + delta))
        trace.add("119.3", f"{p} {'loses' if delta < 0 else 'gains'} {n} life")
    return state


def _draw(state: State, e: Draw, ctx: EffectContext, n: int, trace: Trace) -> State:
    for p in _players(state, e.who, ctx):
        state = draw(state, p, n, trace)
    return state


def _exile_top(state: State, e: ExileTop, ctx: EffectContext, n: int, trace: Trace) -> State:
    for p in _players(state, e.who, ctx):
        for _ in range(n):
            top = top_of_library(state, p)
            if top is None:
                break
            state = move(state, top.id, "exile", trace, note=f"top of {p}'s library")
    return state


def _destroy_or_bounce(state: State, e: Destroy | ReturnToHand, ctx: EffectContext, n: int, trace: Trace) -> State:
    destroy = isinstance(e, Destroy)
    if destroy and e.all is not None:       # every matching permanent at once, no target (701.8a)
        hit = [o.id for o in state.battlefield() if matches(chars(state, o), o, e.all, ctx.controller)]
        for t in hit:
            state = move(state, t, "graveyard", trace, note="destroyed (each permanent the effect names)")
        return state
    for t in _target_objs(e, ctx):
        if state.obj(t).zone == "battlefield":
            state = move(state, t, "graveyard" if destroy else "hand", trace,
                         note="destroyed" if destroy else "returned to its owner's hand")
    return state


def _pump(state: State, e: Pump, ctx: EffectContext, n: int, trace: Trace) -> State:
    for t in _target_objs(e, ctx):
        state = state.with_timed_effect(state.obj(t), e)
        trace.add("611.2", f"{t} gets {e.power:+d}/{e.toughness:+d} until end of turn")
    return state


def _set_base_pt(state: State, e: SetBasePT, ctx: EffectContext, n: int, trace: Trace) -> State:
    """208.4a: the target's base power and toughness are set until end of turn (layer 7b, 613.4b);
    counters and +N/+N effects still apply on top of them (613.4c)."""
    for t in _target_objs(e, ctx):
        state = state.with_timed_effect(state.obj(t), e)
        trace.add(("208.4a", "613.4b"), f"{t} has base power and toughness {e.power}/{e.toughness} until end of turn")
    return state


def _become_color(state: State, e: BecomeColor, ctx: EffectContext, n: int, trace: Trace) -> State:
    """105.3: the target's new colours replace all its others until end of turn (layer 5, 613.1e)."""
    for t in _target_objs(e, ctx):
        state = state.with_timed_effect(state.obj(t), e)
        trace.add(("105.3", "613.1e"), f"{t} becomes {'-'.join(e.colors)} until end of turn, losing its other colours")
    return state


def _add_counters(state: State, e: AddCounters, ctx: EffectContext, n: int, trace: Trace) -> State:
    """On the source, or on each permanent matching `each` that the effect's player controls (608.2h)."""
    whose = _players(state, e.who, ctx) if e.each is not None else []
    for t in _target_objs(e, ctx) if e.each is None else [o.id for o in state.battlefield() if o.controller in whose
                                                           and matches(chars(state, o), o, e.each, ctx.controller)]:
        o = state.obj(t)
        counters = dict(o.counters)
        counters[e.counter or "+1/+1"] = counters.get(e.counter or "+1/+1", 0) + n
        state = state.with_obj(replace(o, counters=tuple(sorted((a, b) for a, b in counters.items() if b))))
        trace.add("122.6", f"{t} gets {n} {e.counter or '+1/+1'} counter(s)")
    return state


def _create_token(state: State, e: CreateToken, ctx: EffectContext, n: int, trace: Trace) -> State:
    """One token, or one for each permanent matching `for_each`, counted now (608.2h)."""
    if e.for_each is None:
        return create_token(state, token_def(e), ctx.controller, ctx.source.id, trace)
    times = rules().count_permanents(state, e.for_each, ctx.controller)
    trace.add("608.2h", f"{times} permanent(s) match as the effect happens: {times} token(s)")
    for _ in range(times):
        state = create_token(state, token_def(e), ctx.controller, ctx.source.id, trace)
    return state


def _create_token_copy(state: State, e: CreateTokenCopy, ctx: EffectContext, n: int, trace: Trace) -> State:
    """707.2, 707.9: a token copy of the target permanent, with the effect's exceptions."""
    targets = [t for t in _target_objs(e, ctx) if state.obj(t).zone == "battlefield"]
    for t in targets:
        new_id, k = f"{ctx.source.id}_token", 1
        while new_id in state.objects:
            k += 1
            new_id = f"{ctx.source.id}_token{k}"
        state = token_copy(state, t, new_id, ctx.controller, e.exceptions, trace)
    return state


def _animate(state: State, e: Animate, ctx: EffectContext, n: int, trace: Trace) -> State:
    o = state.obj(ctx.source.id)
    state = state.with_timed_effect(o, e)
    trace.add("613.1d", f"{o.id} becomes a {e.power}/{e.toughness} {' '.join(e.types or ('Creature',))}"
              + (" with every creature type" if e.all_creature_types else "") + " until end of turn")
    return state


def _sacrifice_self(state: State, e: SacrificeSelf, ctx: EffectContext, n: int, trace: Trace) -> State:
    if state.obj(ctx.source.id).zone == "battlefield":
        state = move(state, ctx.source.id, "graveyard", trace, note="sacrificed")
    return state


def _delayed(state: State, e: Delayed, ctx: EffectContext, n: int, trace: Trace) -> State:
    """603.7: a delayed triggered ability; 107.3n: its X is the X of the spell that made it."""
    from .state import DelayedTrigger
    d = DelayedTrigger(source=ctx.source.id, source_name=ctx.source.base.name, card=ctx.source.base,
                       controller=ctx.controller, step=e.at, effects=e.effect, x=ctx.x,
                       targets=ctx.targets)
    trace.add(("603.2", "107.3n"), f"{ctx.source.base.name} ({ctx.source.id}) creates a delayed triggered ability: "
                                   f"at the beginning of the next {d.step} step"
              + (f", with X = {ctx.x}" if ctx.x is not None else ""))
    return replace(state, delayed=state.delayed + (d,))


def _cast_copy(state: State, e: CastCopy, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .copy_cast import cast_copy
    return cast_copy(state, ctx.controller, ctx.source.id, ctx.choices or {}, trace)


def _cast_free(state: State, e: CastFree, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .free_casts import cast_free
    owners = _players(state, e.whose, ctx)              # a target player gone: nobody's zone (608.2b)
    return cast_free(state, e, ctx.controller, ctx.source.id, ctx.targets, ctx.x, ctx.choices or {}, trace,
                     owner=owners[0] if owners else None)


def _cast_if_able(state: State, e: CastIfAble, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .instructed import cast_if_able
    for p in _players(state, e.who, ctx)[:1]:
        state = cast_if_able(state, p, ctx.source.id, ctx.choices or {}, trace)
    return state


def _counter(state: State, e: Counter, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .unless import counter
    return counter(state, e, ctx.source.id, ctx.targets, ctx.choices, trace, x=ctx.x)


def _drain_mana(state: State, e: DrainMana, ctx: EffectContext, n: int, trace: Trace) -> State:
    from .drain import drain_mana
    return drain_mana(state, e, ctx.controller, ctx.targets, trace)


def _untap_self(state: State, e: UntapSelf, ctx: EffectContext, n: int, trace: Trace) -> State:
    return state.with_obj(replace(state.obj(ctx.source.id), tapped=False))


def _awaken(state: State, e: Awaken, ctx: EffectContext, n: int, trace: Trace) -> State:
    """702.113a: the target land gets the counters and is animated for good (oracle/awaken.py)."""
    for t in _target_objs(e, ctx):
        if state.obj(t).zone == "battlefield":
            state = rules().awaken_land(state, t, e.amount, trace)
    return state


def _grant_flashback(state: State, e: GrantFlashback, ctx: EffectContext, n: int, trace: Trace) -> State:
    """702.34a: the target card has flashback until end of turn, its cost the card's mana cost
    (Snapcaster Mage), or each matching card in its controller's graveyard now (Past in Flames);
    the effect is on those objects only (400.7)."""
    if e.cards is not None:
        hit = [o.id for o in state.in_zone("graveyard") if o.owner == ctx.controller
               and matches(chars(state, o), o, e.cards, ctx.controller)]
    else:
        hit = _target_objs(e, ctx)
    for t in hit:
        card = state.obj(t)
        state = state.with_timed_effect(card, GrantedFlashback(ctx.source.id))
        trace.add("702.34a", f"{card.base.name} ({t}) has flashback until end of turn, its flashback cost its mana "
                             f"cost {card.base.mana_cost or '(none)'}")
    return state


def _graveyard_casting(state: State, e: GraveyardCasting, ctx: EffectContext, n: int, trace: Trace) -> State:
    """601.3, 614.1a: until end of turn the controller may cast spells from their graveyard (and,
    `exile_instead`, their cards bound for it are exiled): an effect on the source's object, read
    through its `GraveyardTurn` by cast_permissions and zones.exiler (Yawgmoth's Will)."""
    grant = GraveyardTurn(ctx.source.id, ctx.controller, e.spells, e.exile_instead)
    trace.add(("601.3", "614.1a") if e.exile_instead else ("601.3",),
              f"until end of turn {ctx.controller} may cast spells from their graveyard"
              + ("; a card that would be put into it is exiled instead" if e.exile_instead else ""))
    return state.with_timed_effect(ctx.source, grant)


# One handler per effect type (castrules.model.effects): (state, effect, context, amount, trace) -> state.
EFFECTS: Mapping[type[Effect], Callable[[State, Any, EffectContext, int, Trace], State]] = {
    AddMana: _add_mana, Damage: _damage, LoseLife: _life, GainLife: _life, Draw: _draw,
    ExileTop: _exile_top, Destroy: _destroy_or_bounce, ReturnToHand: _destroy_or_bounce, Pump: _pump, SetBasePT: _set_base_pt,
    BecomeColor: _become_color,
    AddCounters: _add_counters, CreateToken: _create_token, CreateTokenCopy: _create_token_copy, Animate: _animate,
    SacrificeSelf: _sacrifice_self, Delayed: _delayed, CastCopy: _cast_copy, CastFree: _cast_free, CastIfAble: _cast_if_able, Counter: _counter,
    UntapSelf: _untap_self, GrantFlashback: _grant_flashback, GraveyardCasting: _graveyard_casting, Awaken: _awaken,
    DrainMana: _drain_mana,
}


def _apply(state: State, e: Effect, ctx: EffectContext, trace: Trace) -> State:
    """One instruction, by its kind; its amount worked out first (608.2c: in order)."""
    handler = EFFECTS.get(type(e))
    if handler is None:
        return state
    amount = getattr(e, "amount", None)
    n = _target_x(state, ctx) if amount == "target_x" else _amount(amount, ctx)
    return handler(state, e, ctx, n, trace)


def count_permanents(state: State, flt: Filter, controller: str) -> int:
    """608.2h: how many permanents match `flt` (seen from `controller`) as an effect counts them."""
    return sum(1 for o in state.battlefield() if matches(chars(state, o), o, flt, controller))


def create_token(state: State, token: CardDef | None, controller: str, source_id: str, trace: Trace) -> State:
    if token is None:
        return state
    base = f"{source_id}_token"
    new_id, n = base, 1
    while new_id in state.objects:
        n += 1
        new_id = f"{base}{n}"
    state, ts = state.tick()
    obj = make(Obj, id=new_id, card=token, zone="battlefield", owner=controller, controller=controller,
               timestamp=ts, token=True, summoning_sick=True)
    trace.add("111.1", f"a {token.name} token ({new_id}) is created under {controller}'s control")
    return state.with_obj(obj)
