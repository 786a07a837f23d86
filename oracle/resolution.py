"""Resolving the top of the stack (608), entering the battlefield, triggered ETB abilities,
and state-based actions (704)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from castrules.model.abilities import Ability, EnterAbility
from castrules.model.effects import ReturnToHand
from castrules.model.vocab import AlternativeCostName

from .auras import enter_attached, unattached_auras
from .cards import effects_of, spell_targets, targets_of
from .characteristics import chars
from .copy_exceptions import LinkedExile, enter_as_copy, exile_linked
from .effects import EffectContext, apply_effects, condition_holds
from .errors import Illegal, RequestError
from .frozen import make, replace
from .players import players_leave
from .reasons import Reason
from .seams import rules
from .state import CARD, GONE, Announced, DelayedTrigger, Obj, ObjKind, StackAbility, State
from .targets import assign_targets, auto_targets, legal_target
from .trace import Trace
from .zones import move

PERMANENT_TYPES = frozenset({"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"})


@dataclass(frozen=True)
class PendingTrigger:
    """A triggered ability waiting to be put on the stack (603.3)."""

    source: str
    ability: Ability | LinkedExile     # a linked trigger of a copy effect (603.11) is the oracle's own
    tapper: str | None = None          # a tapped-for-mana trigger's "that player" (106.12a)


def enter_battlefield(state: State, oid: str, trace: Trace, pending: list[PendingTrigger]) -> State:
    """ETB replacement effects apply as it enters (614.1c, 107.3m for X); ETB triggers wait."""
    obj = state.obj(oid)
    for ab in obj.base.abilities:
        if not isinstance(ab, EnterAbility):
            continue
        a = obj.announced
        ctx = EffectContext(source=obj, controller=obj.controller, targets=(), x=a.etb_x,
                            prowl_paid=a.prowl_paid, kicked=a.kicked, cast=a.cast,
                            power=chars(state, obj).power)
        if not condition_holds(ab.condition, ctx):
            trace.add("603.4", f"{obj.base.name} ({oid}): enters-the-battlefield ability does not apply "
                               f"({ab.condition} is false)")
            continue
        if not ab.trigger:
            trace.add("614.1c" if a.etb_x is None else ("614.1c", "107.3m"),
                      f"{obj.base.name} ({oid}) enters with its replacement effect applied"
                      + (f" (X = {a.etb_x})" if a.etb_x is not None else ""))
            state = apply_effects(state, ab.effect, ctx, trace)
            obj = state.obj(oid)
        else:
            pending.append(PendingTrigger(oid, ab))
    return state


def _inherited(spell: Announced, targets: tuple[str, ...], controllers: tuple[str | None, ...],
               tapper: str | None = None) -> Announced:
    """A trigger of a permanent knows how its spell was cast (prowl, kicker; 107.3m: its X) and
    has targets of its own (603.3d); a tapped-for-mana trigger, who tapped (106.12a)."""
    return Announced(cast=spell.cast, prowl_paid=spell.prowl_paid, kicked=spell.kicked, etb_x=spell.etb_x,
                     targets=targets, target_controllers=controllers, tapper=tapper)


def put_triggers(state: State, pending: Sequence[PendingTrigger], targets: Sequence[str] | None,
                 trace: Trace) -> State:
    """Put waiting triggers on the stack (603.3) with ids `<source>_trigger`, `_trigger2`..."""
    for i, p in enumerate(pending):
        src = state.obj(p.source)
        tid = f"{p.source}_trigger"
        n = 1
        while tid in state.objects:
            n += 1
            tid = f"{p.source}_trigger{n}"
        controller = src.controller
        chosen: list[str] = []
        req: list[str | None] = []
        specs = targets_of(p.ability)
        if specs:
            wanted = list(targets) if (targets is not None and i == 0) else auto_targets(
                state, specs, controller, p.source)
            # 115.5: the ability can't target itself, but it may target its source (a Vehicle's own trigger)
            assigned = assign_targets(state, specs, wanted, controller, tid)
            chosen = [t for _, t, _ in assigned]
            req = [r for _, _, r in assigned]
            if not chosen and not all(s.up_to or s.per_opponent for s in specs):
                trace.add("603.3d", f"{src.base.name}'s trigger has no legal target and is removed")
                continue
        state, ts = state.tick()
        trig = make(Obj, id=tid, card=src.base, zone="stack", owner=controller, controller=controller,
                    kind=ObjKind.TRIGGER, timestamp=ts, stack_ability=StackAbility(p.source, p.ability),
                    announced=_inherited(src.announced, tuple(chosen), tuple(req), p.tapper))
        state = replace(state.with_obj(trig), stack=state.stack + (tid,))
        trace.add("603.3", f"{src.base.name} ({p.source}) triggers: {tid} goes on the stack"
                  + (f" targeting {', '.join(chosen)}" if chosen else ""))
    return state


def fire_delayed(state: State, step: str, trace: Trace) -> State:
    """At the beginning of `step`, the delayed triggered abilities waiting for it trigger and go on
    the stack (603.2, 603.3) as `<source>_trigger`, each with its creator's X (107.3n)."""
    due = [d for d in state.delayed if d.step == step]
    if not due:
        return state
    state = replace(state, delayed=tuple(d for d in state.delayed if d.step != step))
    for d in due:
        gone = [oid for oid, n in d.tracked if oid not in state.objects or state.obj(oid).incarnation != n]
        if gone:
            d = replace(d, targets=tuple(t for t in d.targets if t not in gone))
            trace.add(("603.7", "400.7"), f"{', '.join(gone)} left the zone it was in: a new object that "
                                          f"{d.source_name}'s delayed triggered ability does not affect")
        tid, n = f"{d.source}_trigger", 1
        while tid in state.objects:
            n += 1
            tid = f"{d.source}_trigger{n}"
        state, ts = state.tick()
        trig = make(Obj, id=tid, card=d.card, zone="stack", owner=d.controller, controller=d.controller,
                    kind=ObjKind.TRIGGER, timestamp=ts, stack_ability=StackAbility(d.source, delayed=d.effects),
                    announced=Announced(x=d.x, targets=d.targets))
        state = replace(state.with_obj(trig), stack=state.stack + (tid,))
        trace.add("603.3" if d.x is None else ("603.3", "107.3n"),
                  f"{d.source_name}'s delayed triggered ability triggers: {tid} goes on the stack"
                  + (f" (X = {d.x})" if d.x is not None else ""))
    return state


def _check_targets(state: State, obj: Obj, specs, trace: Trace) -> tuple[tuple[str | None, ...], bool]:
    """608.2b: illegal targets are not affected; if every target is illegal, nothing happens."""
    targets, controllers = obj.announced.targets, obj.announced.target_controllers
    if not targets:
        return (), False
    out: list[str | None] = []
    spec_list = list(specs)
    for i, t in enumerate(targets):
        spec = spec_list[min(i, len(spec_list) - 1)] if spec_list else None
        req = controllers[i] if i < len(controllers) else None
        ok = spec is not None and legal_target(state, spec, t, obj.controller, obj.id, req)
        if not ok:
            trace.add("608.2b", f"{t} is no longer a legal target of {obj.id}")
        out.append(t if ok else None)
    return tuple(out), all(t is None for t in out)


def resolve_top(state: State, choices: Mapping[str, Any] | None, trace: Trace) -> State:
    if not state.stack:
        raise Illegal(Reason.INVALID_ACTION, "resolve: the stack is empty")
    oid = state.stack[-1]
    obj = state.obj(oid)
    choices = dict(choices or {})
    a, does = obj.announced, obj.stack_ability
    if does is not None and does.delayed:
        # a delayed triggered ability (603.7): it doesn't target; X is its creator's (107.3n)
        ctx = EffectContext(source=obj, controller=obj.controller, targets=a.targets, x=a.x)
        trace.add(("608.2", "107.3n"), f"{oid} resolves" + (f" with X = {a.x}" if a.x is not None else ""))
        state = apply_effects(state, does.delayed, ctx, trace)
        return move(state, oid, GONE, None)
    if obj.kind is not CARD:
        ab = does.ability if does is not None else None
        specs = targets_of(ab) if ab is not None else ()
        targets, fizzle = _check_targets(state, obj, specs, trace)
        if fizzle:
            trace.add("608.2b", f"{oid} does nothing: all its targets are illegal")
        elif isinstance(ab, LinkedExile):
            trace.add("608.2", f"{oid} resolves")
            state = exile_linked(state, ab, trace)
        elif ab is not None:
            src = state.objects.get(does.source) if does is not None else None
            power = chars(state, src).power if src is not None else None
            # 107.3k: an activated ability's X is the one announced for it; a trigger's, its spell's (107.3m)
            ab_x = a.x if obj.kind is ObjKind.ABILITY and a.x is not None else a.etb_x
            ctx = EffectContext(source=src or obj, controller=obj.controller, targets=targets, x=ab_x,
                                prowl_paid=a.prowl_paid, kicked=a.kicked, cast=a.cast, power=power, choices=choices,
                                tapper=a.tapper)
            trace.add("608.2", f"{oid} resolves")
            state = apply_effects(state, effects_of(ab), ctx, trace)
        state = move(state, oid, GONE, None)
        return state
    c = chars(state, obj)
    targets, fizzle = _check_targets(state, obj, spell_targets(obj.base, a.modes, a.kicked, a.alt_cost), trace)
    if fizzle:
        trace.add("608.2b", f"{c.name} ({oid}) doesn't resolve: all its targets are illegal")
        return move(state, oid, "graveyard", trace)
    if any(t in PERMANENT_TYPES for t in c.types):
        return _resolve_permanent(state, obj, choices, targets, trace)
    ctx = EffectContext(source=obj, controller=obj.controller, targets=targets, x=_spell_x(state, obj, choices, trace),
                        y=a.y, prowl_paid=a.prowl_paid, kicked=a.kicked, cast=a.cast, division=a.division,
                        awakened=a.alt_cost == AlternativeCostName.AWAKEN,
                        choices=choices, chooser=a.mode_chooser)
    trace.add("608.2", f"{c.name} ({oid}) resolves")
    if obj.base.modes is None:
        state = apply_effects(state, obj.base.spell, ctx, trace)
    else:
        state = _resolve_modes(state, obj, ctx, trace)
    if state.obj(oid).zone == "stack" and a.bought_back:
        return move(state, oid, "hand", trace, note="its buyback cost was paid", rules=("702.27a",))
    if state.obj(oid).zone == "stack":
        state = move(state, oid, "graveyard", trace)
    return state


def _resolve_permanent(state: State, obj: Obj, choices: dict, targets: tuple[str | None, ...],
                       trace: Trace) -> State:
    """608.3: a permanent spell enters under its controller's control (as a copy if it may, with
    its replacement effects; an Aura attached to its target, 303.4a), a dashed one sets up its
    return (702.109a), then its ETB triggers."""
    oid, a = obj.id, obj.announced
    pending: list[PendingTrigger] = []
    if "creature_type" in choices or "color" in choices:
        state = replace(state, choices={**state.choices, oid: {k: v for k, v in choices.items()
                                                               if k in ("creature_type", "color")}})
    state = state.with_obj(replace(obj, announced=replace(a, etb_x=a.x), token=obj.token or obj.is_copy))
    state = move(state, oid, "battlefield", trace, controller=obj.controller,
                 note="a resolving permanent spell", rules=("608.3",))
    state, linked = enter_as_copy(state, oid, choices, trace)
    state = enter_attached(state, oid, targets, choices, trace)
    if a.cast and a.alt_cost == AlternativeCostName.DASH:
        state = rules().dash_return(state, oid, trace)
    state = enter_battlefield(state, oid, trace, pending)
    pending += [PendingTrigger(oid, ab) for ab in linked]     # 603.11: above its other triggers (603.3b)
    return put_triggers(state, pending, choices.get("targets"), trace)


def dash_return(state: State, oid: str, trace: Trace) -> State:
    """702.109a, 603.7: a permanent whose dash cost was paid is returned to its owner's hand at the
    beginning of the next end step: a delayed triggered ability set up as it enters."""
    obj = state.obj(oid)
    d = DelayedTrigger(source=oid, source_name=obj.base.name, card=obj.base, controller=obj.controller, step="end",
                       effects=(ReturnToHand(target=0),), x=None, targets=(oid,), tracked=((oid, obj.incarnation),))
    trace.add(("702.109a", "603.7"), f"{obj.base.name} ({oid}) was dashed: it returns to its owner's hand at the "
                                     "beginning of the next end step")
    return replace(state, delayed=state.delayed + (d,))


def _resolve_modes(state: State, obj: Obj, ctx: EffectContext, trace: Trace) -> State:
    """608.2c, 702.42b: the chosen modes in the order written, whatever order they were
    announced in; each mode's effects read the card's own targets, then the mode's (601.2c)."""
    card = obj.base
    assert card.modes is not None
    own = len(card.targets)
    at = own
    for m in sorted(obj.announced.modes):
        option = card.modes.options[m]
        mode_ctx = replace(ctx, targets=ctx.targets[:own] + ctx.targets[at:at + len(option.targets)])
        at += len(option.targets)
        state = apply_effects(state, option.spell, mode_ctx, trace)
    return state


def _spell_x(state: State, obj: Obj, choices: Mapping[str, Any], trace: Trace) -> int | None:
    """X as the spell resolves: announced (107.3a, or 107.3f when chosen as it was cast), defined
    by its text now (107.3c: the value may have changed since it was cast), or chosen now
    (107.3f: `resolve: {choices: {x: N}}`)."""
    from .variables import defined_x
    tx = obj.base.text_x
    if "x" in choices and (tx is None or tx.choose != "resolution"):
        raise Illegal(Reason.INVALID_X, f"x chosen on resolution, but {obj.base.name}'s X is not chosen as it "
                                        "resolves", rules=("107.3a", "107.3c", "107.3f"))
    if tx is None or tx.choose == "cast":
        return obj.announced.x
    if tx.defined:
        x = defined_x(state, obj)
        trace.add("107.3c", f"X is defined by the text: {x} as {obj.base.name} ({obj.id}) resolves")
        return x
    x = choices.get("x")
    if isinstance(x, bool) or not isinstance(x, int) or x < 0:
        raise Illegal(Reason.INVALID_X, f"{obj.base.name}'s X is chosen as it resolves: "
                                        f"resolve needs choices x, a non-negative integer, not {x!r}", rules=("107.3f",))
    trace.add("107.3f", f"{obj.controller} chooses X = {x} as {obj.base.name} ({obj.id}) resolves")
    return x


def state_based_actions(state: State, trace: Trace) -> State:
    """704.3 / 117.5: performed whenever a player would receive priority, which in a case is
    after every step. 704.5a (a player at 0 or less life loses: 104.3b; in a multiplayer game
    they leave it, 800.4a; when one player or none is left the game is over, 104.2a / 104.4a),
    704.5f (toughness 0 or less), 704.5g (lethal damage, deathtouch 704.5h), 704.5m (Auras attached
    to nothing they may enchant), all applicable
    ones at once, repeated until none applies."""
    changed = True
    while changed and not state.game_over:
        changed = False
        dying: list[tuple[str, str]] = []
        auras: list[str] = []
        for obj in state.battlefield():     # a list of this state's permanents
            c = chars(state, obj)
            if c.base.enchant is not None:
                auras.append(obj.id)
            if not c.is_creature or c.toughness is None:
                continue
            if c.toughness <= 0:
                dying.append((obj.id, "toughness 0 or less", "704.5f"))
            elif obj.damage >= c.toughness or (obj.deathtouched and obj.damage > 0):
                dying.append((obj.id, "lethal damage", "704.5g"))
        losers = [p for p in state.players if p.in_game and (p.life <= 0 or p.drew_from_empty)]
        for oid, note, rule in dying:
            state = move(state, oid, "graveyard", trace, note=note, rules=(rule,))
            changed = True
        if auras:
            state, moved = unattached_auras(state, auras, trace)
            changed = changed or moved
        if losers:
            names = tuple(p.name for p in losers)
            note = (" and ".join(f"{p.name} ({p.life} life)" if p.life <= 0 else f"{p.name} (drew from an empty "
                                 "library)" for p in losers)
                    + (" lose" if len(losers) > 1 else " loses") + " the game")
            cited = ("704.5a", "104.3b") + (("704.5b", "104.3c") if any(p.drew_from_empty for p in losers) else ())
            state = players_leave(state, names, cited, note, trace)
            changed = True
    return state
