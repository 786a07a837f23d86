"""Running a case: build the state from `setup`, execute each step, collect results,
snapshots and the trace. An illegal step leaves the state exactly as it was (730)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from . import combat, copying, resolution, turns
from .cards import CardDef, parse_catalog
from .casting import cast, parse_cast
from .characteristics import chars
from .errors import Illegal, RequestError
from .mana_abilities import activate as activate_mana_ability
from .players import leave_game
from .resolution import PendingTrigger, enter_battlefield, put_triggers, state_based_actions
from .seams import rules
from .setup import build_state
from .snapshot import snapshot
from .state import State, TimedEffect
from .trace import Trace
from .zones import move

Handler = Callable[[State, Mapping[str, Any], Trace], tuple[State, dict]]


def _obj(state: State, body: Mapping[str, Any], key: str = "object") -> str:
    oid = body.get(key)
    if oid not in state.objects:
        raise RequestError(f"unknown object {oid!r}")
    return oid


def _player(state: State, name: Any) -> str:
    if not isinstance(name, str) or not state.has_player(name):
        raise RequestError(f"unknown player {name!r}")
    return name


def _ok(state: State) -> tuple[State, dict]:
    return state, {"legal": True}


def _on_battlefield(state: State, oid: str, what: str) -> None:
    if state.obj(oid).zone != "battlefield":
        raise Illegal(_reason_invalid(), f"{what}: {oid} is not on the battlefield")


def _reason_invalid():
    from .reasons import Reason
    return Reason.INVALID_ACTION


def step_cast(state, body, trace):
    return cast(state, parse_cast(body), trace)


def step_activate_mana(state, body, trace):
    player = _player(state, body.get("player"))
    oid = _obj(state, body)
    sac = body.get("sacrifice")
    order = body.get("replacements")
    return _ok(activate_mana_ability(state, player, oid, int(body.get("ability", 0)), body.get("produce"), trace,
                                     None, tuple(sac) if sac is not None else None,
                                     tuple(order) if order is not None else None))


def step_activate(state, body, trace):
    """602.2: a non-mana activated ability goes on the stack as `<id>_ability`."""
    from .casting import CastSpec
    from .costs import ManaCost, resolve_choices
    from .targets import assign_targets
    from .reasons import Reason
    player = _player(state, body.get("player"))
    oid = _obj(state, body)
    obj = state.obj(oid)
    if obj.zone != "battlefield" or obj.controller != player:
        raise Illegal(Reason.INVALID_ACTION, f"{player} doesn't control {oid} on the battlefield", rules=("602.2",))
    abilities = chars(state, obj).activated_abilities()
    idx = int(body.get("ability", 0))
    if not 0 <= idx < len(abilities):
        raise Illegal(Reason.INVALID_ACTION, f"{oid} has no activated ability #{idx}")
    ab = abilities[idx]
    rules().check_tap_cost(state, obj, ab)
    mana = ManaCost.parse(ab.cost.mana or "")
    x = _ability_x(mana, body.get("x"), oid, trace)        # 602.2b -> 601.2b: X before targets
    assigned = assign_targets(state, ab.targets, body.get("targets") or (), player, oid)
    cost = resolve_choices(mana, x)
    state = _pay_mana_for(state, player, body, cost, trace)
    obj = state.obj(oid)
    if ab.cost.tap:
        state = state.with_obj(replace(obj, tapped=True))
    if ab.cost.untap:
        state = state.with_obj(replace(obj, tapped=False))
    aid, n = f"{oid}_ability", 1
    while aid in state.objects:
        n += 1
        aid = f"{oid}_ability{n}"
    from .state import Obj
    state, ts = state.tick()
    a = Obj(id=aid, card=obj.base, zone="stack", owner=player, controller=player, kind="ability", timestamp=ts,
            source=oid, source_name=obj.base.name, ability_index=ab.index, x=x, ability=ab,
            targets=tuple(t for _, t, _ in assigned), target_controllers=tuple(r for _, _, r in assigned))
    state = replace(state.with_obj(a), stack=state.stack + (aid,))
    trace.add("602.2", f"{player} activates {obj.base.name}'s ability ({aid} on the stack)")
    return _ok(state)


def _pay_mana_for(state, player, body, cost, trace):
    """Pay an activation's or special action's mana: the listed mana abilities first, then
    (with pay: auto) whatever the solver finds; all or nothing (602.2b, 601.2g-h)."""
    from . import payment

    activations = body.get("mana_abilities") or ()
    listed = tuple((m["object"], int(m.get("ability", 0)), m.get("produce")) for m in activations)
    auto = (body.get("pay") or ("listed" if "mana_abilities" in body else "auto")) == "auto"
    sacs = tuple(tuple(m["sacrifice"]) if m.get("sacrifice") is not None else None for m in activations)
    orders = tuple(tuple(m["replacements"]) if m.get("replacements") is not None else None for m in activations)
    state = payment.activate_listed(state, player, listed, cost, trace, sacrifices=sacs, orders=orders)
    return payment.pay_mana(state, player, cost, auto, frozenset(o for o, _, _ in listed), trace)


def _ability_x(mana, x, oid: str, trace: Trace, rule: str = "107.3k", note: str | None = None) -> int | None:
    """602.2b, 107.3a, 107.3k: the X of an activation cost is announced with this activation and
    belongs to it alone (not the source's X, nor another activation's)."""
    from .reasons import Reason
    if x is not None and (isinstance(x, bool) or not isinstance(x, int)):
        raise RequestError("activate: x must be an integer")
    if x is not None and x < 0:
        raise Illegal(Reason.INVALID_X, f"X can't be negative ({x})", rules=("107.1b", "107.3a"))
    if "X" in mana.variables:
        if x is None:
            raise Illegal(Reason.INVALID_X, f"the activation cost {mana} has {{X}}: its value must be announced",
                                            rules=("107.3a", "602.2b"))
        trace.add(rule if note else (rule, "107.3k"), note or f"X = {x} for this activation of {oid}'s ability, independent of any other X")
        return x
    if x not in (None, 0):
        raise Illegal(Reason.INVALID_X, f"X = {x} announced but the activation cost has no {{X}}", rules=("107.3a",))
    return None


def step_special_action(state, body, trace):
    """116 special actions; only suspend (702.62a, 116.2f) is modelled: a card with suspend in
    its owner's hand is exiled with N time counters, paying its suspend cost, at any time its
    owner could cast it (117.1c). X in that cost is chosen just before paying (107.3d); with
    "Suspend X" the card gets X time counters. It is not cast and is not a spell: no 601 step,
    no cost modifiers for spells, nothing goes on the stack."""
    from .costs import ManaCost, resolve_choices
    from .reasons import Reason
    from .state import MAIN_STEPS
    player = _player(state, body.get("player"))
    oid = _obj(state, body)
    if body.get("action") != "suspend":
        raise RequestError(f"special_action: unknown action {body.get('action')!r} (only suspend is modelled)")
    obj = state.obj(oid)
    if obj.zone != "hand" or obj.owner != player or obj.kind != "card":
        raise Illegal(Reason.INVALID_ACTION, f"suspend: {oid} is not a card in {player}'s hand", rules=("702.62a",))
    c = chars(state, obj)
    if obj.base.suspend is None:
        raise Illegal(Reason.INVALID_ACTION, f"suspend: {c.name} has no suspend", rules=("702.62a",))
    t = state.turn
    if not (c.is_("Instant") or "flash" in c.keywords):
        if t.active != player or t.step not in MAIN_STEPS or state.stack:
            raise Illegal(Reason.WRONG_TIMING, f"{c.name} could not be cast now (sorcery timing), so it can't be "
                                               "suspended now", rules=("702.62a", "117.1c"))
    trace.add("117.1c", f"{player} may take the special action now: {c.name} could be cast now")
    mana = ManaCost.parse(obj.base.suspend.cost)
    x = _ability_x(mana, body.get("x"), oid, trace, rule="107.3d",
                   note=f"X = {body.get('x')} chosen by {player} immediately before paying the suspend cost")
    cost = resolve_choices(mana, x)
    state = _pay_mana_for(state, player, body, cost, trace)
    n = obj.base.suspend.time_counters
    n = (x or 0) if n == "X" else int(n)
    state = move(state, oid, "exile", trace, note="suspended, a special action; not cast", rules=("116.2f",))
    if n > 0:
        state = state.with_obj(replace(state.obj(oid), counters=(("time", n),)))
    trace.add("702.62a", f"{c.name} ({oid}) is exiled with {n} time counter(s)")
    return _ok(state)


def step_pay_mana_cost(state, body, trace):
    """107.3h: a test action standing for an effect that makes `player` pay `object`'s mana cost.
    Its {X} (and {Y}, {Z}) is 0 unless the object is a spell on the stack, whose X is the value
    chosen or determined as it was cast. Paid at once from the pool and the player's mana
    abilities (engine's choices, hybrid halves and mana before life as in a cast); no partial
    payment. No mana cost: unpayable (118.6)."""
    from . import payment
    from .casting import CastSpec, _candidates, _cost_values
    from .costs import resolve_choices
    from .reasons import Reason
    player = _player(state, body.get("player"))
    oid = _obj(state, body)
    obj = state.obj(oid)
    if obj.zone == "gone" or obj.kind != "card":
        raise Illegal(Reason.INVALID_ACTION, f"pay_mana_cost: {oid} is not an object with a mana cost")
    c = chars(state, obj)
    if c.mana_cost is None:
        raise Illegal(Reason.UNPAYABLE_COST, f"{c.name} has no mana cost: paying it is impossible", rules=("118.6",))
    is_spell = obj.zone == "stack"
    values = (obj.x or 0, obj.y or 0, obj.z or 0) if is_spell else (0, 0, 0)
    cx, cy, cz = _cost_values(c.mana_cost, *values)
    if c.mana_cost.has_x:
        trace.add("107.3h", f"{player} pays the mana cost {c.mana_cost} of {c.name} ({oid}) with "
                  + (f"the values chosen as it was cast: X = {cx}" if is_spell else "X = 0: it is not a spell on the stack")
                  + (f", Y = {cy}" if cy is not None else ""))
    first: Illegal | None = None
    for hyb, phy in _candidates(c.mana_cost, CastSpec(player=player, object=oid)):
        attempt = Trace(trace.step)
        cost = resolve_choices(c.mana_cost, cx, list(hyb), list(phy), y=cy, z=cz)
        try:
            new = rules().pay_life(state, player, cost.life, attempt)
            new = payment.pay_mana(new, player, cost, True, frozenset(), attempt)
        except Illegal as exc:
            first = first or exc
            continue
        trace.lines.extend(attempt.lines)
        return _ok(new)
    assert first is not None
    first.substep = None
    raise first


def step_attack(state, body, trace):
    return _ok(combat.attack(state, _player(state, body.get("player")), list(body.get("attackers") or ()),
                             _player(state, body.get("defender")), trace))


def step_block(state, body, trace):
    return _ok(combat.block(state, _player(state, body.get("player")), dict(body.get("blockers") or {}), trace))


def step_combat_damage(state, body, trace):
    return _ok(combat.combat_damage(state, trace))


def step_deal_damage(state, body, trace):
    from .effects import damage_object, damage_player
    src = state.obj(_obj(state, body, "source"))
    to = body.get("to")
    amount = int(body.get("amount", 0))
    if isinstance(to, str) and to[:1].isupper():
        return _ok(damage_player(state, src, _player(state, to), amount, False, trace))
    oid = _obj(state, body, "to")
    _on_battlefield(state, oid, "deal_damage")
    return _ok(damage_object(state, src, oid, amount, trace))


def step_move_to(state, body, trace):
    state = turns.move_to(state, body.get("step"), trace)
    return _ok(resolution.fire_delayed(state, state.turn.step, trace))


def step_next_turn(state, body, trace):
    from .state import STEPS
    if any(d.step == "end" for d in state.delayed) and STEPS.index(state.turn.step) < STEPS.index("end"):
        raise RequestError("a delayed trigger waits for this turn's end step: move_to end (and resolve it) before "
                           "next_turn (passing through the end step with next_turn is not modelled)")
    return _ok(rules().next_turn(state, trace))


def step_resolve(state, body, trace):
    return _ok(resolution.resolve_top(state, body.get("choices"), trace))


def _zone_action(zone: str, note: str, from_stack: bool = False) -> Handler:
    def handler(state, body, trace):
        oid = _obj(state, body)
        obj = state.obj(oid)
        if obj.zone != "battlefield" and not (from_stack and obj.zone == "stack"):
            raise Illegal(_reason_invalid(), f"{note}: {oid} is in {obj.zone}")
        return _ok(move(state, oid, zone, trace, note=note))
    return handler


def step_blink(state, body, trace):
    oid = _obj(state, body)
    _on_battlefield(state, oid, "blink")
    state = move(state, oid, "exile", trace, note="blinked")
    if state.obj(oid).zone == "gone":
        return _ok(state)
    return _ok(_enter(state, oid, None, trace))


def _enter(state: State, oid: str, controller: str | None, trace: Trace) -> State:
    state = move(state, oid, "battlefield", trace, controller=controller)
    pending: list[PendingTrigger] = []
    state = enter_battlefield(state, oid, trace, pending)
    return put_triggers(state, pending, None, trace)


def step_return_to_battlefield(state, body, trace):
    oid = _obj(state, body)
    controller = _player(state, body["controller"]) if body.get("controller") else None
    if state.obj(oid).zone not in ("graveyard", "exile", "hand"):
        raise Illegal(_reason_invalid(), f"return_to_battlefield: {oid} is in {state.obj(oid).zone}")
    return _ok(_enter(state, oid, controller, trace))


def step_change_control(state, body, trace):
    oid = _obj(state, body)
    to = _player(state, body.get("to"))
    _on_battlefield(state, oid, "change_control")
    obj = state.obj(oid)
    state, ts = state.tick()
    state = state.with_obj(replace(obj, controller=to, summoning_sick=obj.summoning_sick or to != obj.controller,
                                   timestamp=ts, attacking=None, blocking=None))
    trace.add("108.4", f"{to} gains control of {oid}")
    return _ok(state)


def step_change_types(state, body, trace):
    oid = _obj(state, body)
    obj = state.obj(oid)
    if obj.zone == "gone":
        raise Illegal(_reason_invalid(), f"change_types: {oid} no longer exists")
    mode = body.get("mode")
    if mode not in ("set", "add", "remove_all"):
        raise RequestError(f"change_types: unknown mode {mode!r}")
    types = tuple(body.get("creature_types") or ())
    state, ts = state.tick()
    state = replace(state, effects=state.effects + (TimedEffect(ts, oid, obj.incarnation, "creature_types",
                                                                mode=mode, creature_types=types),))
    trace.add("613.1d", f"{oid}'s creature types: {mode} {', '.join(types)} until end of turn")
    return _ok(state)


def step_copy_spell(state, body, trace):
    controller = _player(state, body["controller"]) if body.get("controller") else None
    if body.get("target") is not None:
        if body.get("targets") is not None:
            raise RequestError("copy_spell: `targets` and `target` are mutually exclusive")
        return _ok(copying.copy_with_target(state, _obj(state, body), body.get("new_id"), controller,
                                            body["target"], trace))
    state = rules().copy_spell(state, _obj(state, body), body.get("new_id"), controller, trace)
    if body.get("targets") is not None:
        state = copying.choose_new_targets(state, body.get("new_id"), body["targets"], trace)
    return _ok(state)


def step_copy_spell_for_each(state, body, trace):
    controller = _player(state, body["controller"]) if body.get("controller") else None
    new_ids = body.get("new_ids")
    if not isinstance(new_ids, Mapping) or not new_ids:
        raise RequestError("copy_spell_for_each: new_ids must map candidates to new ids")
    return _ok(rules().copy_for_each(state, _obj(state, body), new_ids, controller, trace))


def step_copy_permanent(state, body, trace):
    controller = _player(state, body["controller"]) if body.get("controller") else None
    return _ok(rules().copy_permanent(state, _obj(state, body), body.get("new_id"), controller, trace))


def step_become_copy(state, body, trace):
    return _ok(copying.become_copy(state, _obj(state, body), _obj(state, body, "of"), trace))


def step_leave_game(state, body, trace):
    name = _player(state, body.get("player"))
    if not state.player(name).in_game:
        raise Illegal(_reason_invalid(), f"{name} has already left the game")
    return _ok(leave_game(state, name, trace))


def _life(sign: int) -> Handler:
    def handler(state, body, trace):
        name = _player(state, body.get("player"))
        amount = int(body.get("amount", 0))
        p = state.player(name)
        trace.add("119.3", f"{name} {'gains' if sign > 0 else 'loses'} {amount} life")
        return _ok(state.with_player(replace(p, life=p.life + sign * amount)))
    return handler


HANDLERS: dict[str, Handler] = {
    "cast": step_cast, "activate_mana": step_activate_mana, "activate": step_activate,
    "attack": step_attack, "block": step_block, "combat_damage": step_combat_damage,
    "deal_damage": step_deal_damage, "move_to": step_move_to, "next_turn": step_next_turn,
    "resolve": step_resolve,
    "destroy": _zone_action("graveyard", "destroyed"), "exile": _zone_action("exile", "exiled", True),
    "return_to_hand": _zone_action("hand", "returned to hand"), "sacrifice": _zone_action("graveyard", "sacrificed"),
    "blink": step_blink, "return_to_battlefield": step_return_to_battlefield,
    "change_control": step_change_control, "change_types": step_change_types,
    "copy_spell": step_copy_spell, "copy_spell_for_each": step_copy_spell_for_each,
    "copy_permanent": step_copy_permanent,
    "become_copy": step_become_copy, "leave_game": step_leave_game,
    "lose_life": _life(-1), "gain_life": _life(+1), "pay_mana_cost": step_pay_mana_cost,
    "special_action": step_special_action,
}


def run_step(state: State, step: Mapping[str, Any], trace: Trace) -> tuple[State, dict]:
    """Run one step; on an illegal action return the unchanged state and the reason."""
    if not isinstance(step, Mapping) or len(step) != 1:
        raise RequestError(f"a step is a mapping with exactly one key, got {step!r}")
    (kind, body), = step.items()
    handler = HANDLERS.get(kind)
    if handler is None:
        raise RequestError(f"unknown step kind {kind!r}")
    mark = len(trace.lines)
    try:
        if state.game_over:
            raise Illegal(_reason_invalid(), "the game is over: no further action can be taken", rules=("104.1",))
        new_state, result = handler(state, body or {}, trace)
        new_state = flush_pending(new_state, trace)
        new_state = state_based_actions(new_state, trace)
        return new_state, {k: v for k, v in result.items() if v is not None}
    except Illegal as exc:
        substep = exc.substep if kind == "cast" else None
        if kind == "cast" and substep is None and exc.reason.substeps:
            substep = exc.reason.substeps[0]
        trace.add((substep or "730", *exc.rules), f"illegal: {exc.reason.value}: {exc.note}; the game returns to before the step")
        result: dict = {"legal": False, "reason": exc.reason.value}
        if substep:
            result["substep"] = substep
        if exc.total_cost is not None:
            result["total_cost"] = exc.total_cost
            if exc.life_paid is not None:
                result["life_paid"] = exc.life_paid
        return state, result
    except (KeyError, TypeError) as exc:
        raise RequestError(f"step {kind}: malformed ({exc!r})") from exc


def flush_pending(state: State, trace: Trace) -> State:
    """Triggered abilities that waited (during a cast or a mana ability) go on the stack (603.3)."""
    if not state.pending:
        return state
    pending = []
    for sid, index in state.pending:
        src = state.obj(sid)
        ab = next(a for a in src.base.abilities if a.index == index)
        pending.append(PendingTrigger(sid, ab))
    state = replace(state, pending=())
    return put_triggers(state, pending, None, trace)


def run_case(case: Mapping[str, Any], cards: Mapping[str, Any], observe=()) -> dict:
    """Run a case request (docs/case-format.md, "What an engine receives")."""
    catalog: dict[str, CardDef] = parse_catalog(cards)
    trace = Trace(0)
    state = build_state(case.get("setup") or {}, catalog)
    trace.add("103", "the game starts from the case's setup")
    wanted = {int(n) for n in observe}
    snaps: dict[str, dict] = {}
    if 0 in wanted:
        snaps["0"] = snapshot(state)
    results = []
    for n, step in enumerate(case.get("steps") or (), start=1):
        trace.step = n
        state, result = rules().run_step(state, step, trace)
        results.append(result)
        if n in wanted:
            snaps[str(n)] = snapshot(state)
    return {"status": "ok", "steps": results, "snapshots": snaps,
            "trace": [line.as_dict() for line in trace.lines]}
