"""Running a case: build the state from `setup`, execute each step, collect results,
snapshots and the trace. An illegal step leaves the state exactly as it was (730)."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from castrules.model import ModelError, read_step, steps

from . import combat, copying, resolution, turns
from .by_content import by_content
from .activations import step_activate, step_pay_mana_cost, step_special_action
from .cards import CardDef, read_cards
from .casting import cast, parse_cast
from .errors import Illegal, RequestError
from .frozen import replace
from .mana_abilities import activate as activate_mana_ability
from .players import leave_game
from .refs import is_player, object_of, plain, player_of
from .resolution import PendingTrigger, enter_battlefield, put_triggers, state_based_actions
from .seams import rules
from .setup import build_state
from .snapshot import snapshot
from .state import State
from .trace import Trace
from .zones import move

Handler = Callable[[State, Any, Trace], tuple[State, dict]]   # (state, a typed step, trace)


def _ok(state: State) -> tuple[State, dict]:
    return state, {"legal": True}


def _on_battlefield(state: State, oid: str, what: str) -> None:
    if state.obj(oid).zone != "battlefield":
        raise Illegal(_reason_invalid(), f"{what}: {oid} is not on the battlefield")


def _reason_invalid():
    from .reasons import Reason
    return Reason.INVALID_ACTION


def step_cast(state: State, step: steps.Cast, trace: Trace) -> tuple[State, dict]:
    return cast(state, parse_cast(step), trace)


def step_activate_mana(state: State, step: steps.ActivateMana, trace: Trace) -> tuple[State, dict]:
    player = player_of(state, step.player)
    oid = object_of(state, step.object)
    return _ok(activate_mana_ability(state, player, oid, step.ability, plain(step.produce), trace,
                                     None, step.sacrifice, step.replacements))


def step_attack(state: State, step: steps.Attack, trace: Trace) -> tuple[State, dict]:
    return _ok(combat.attack(state, player_of(state, step.player), list(step.attackers),
                             player_of(state, step.defender), trace))


def step_block(state: State, step: steps.Block, trace: Trace) -> tuple[State, dict]:
    return _ok(combat.block(state, player_of(state, step.player), dict(step.blockers), trace))


def step_combat_damage(state: State, step: steps.CombatDamage, trace: Trace) -> tuple[State, dict]:
    return _ok(combat.combat_damage(state, trace))


def step_deal_damage(state: State, step: steps.DealDamage, trace: Trace) -> tuple[State, dict]:
    from .damage import damage_object, damage_player
    src = state.obj(object_of(state, step.source))
    amount = step.amount
    if is_player(step.to):
        return _ok(damage_player(state, src, player_of(state, step.to), amount, False, trace))
    oid = object_of(state, step.to)
    _on_battlefield(state, oid, "deal_damage")
    return _ok(damage_object(state, src, oid, amount, trace))


def step_move_to(state: State, step: steps.MoveTo, trace: Trace) -> tuple[State, dict]:
    state = turns.move_to(state, plain(step.step), trace)
    return _ok(resolution.fire_delayed(state, state.turn.step, trace))


def step_next_turn(state: State, step: steps.NextTurn, trace: Trace) -> tuple[State, dict]:
    from .state import STEPS
    if any(d.step == "end" for d in state.delayed) and STEPS.index(state.turn.step) < STEPS.index("end"):
        raise RequestError("a delayed trigger waits for this turn's end step: move_to end (and resolve it) before "
                           "next_turn (passing through the end step with next_turn is not modelled)")
    return _ok(rules().next_turn(state, trace))


def step_resolve(state: State, step: steps.Resolve, trace: Trace) -> tuple[State, dict]:
    return _ok(resolution.resolve_top(state, step.choices, trace))


def _zone_action(zone: str, note: str, from_stack: bool = False) -> Handler:
    def handler(state: State, step: steps.ObjectAction, trace: Trace) -> tuple[State, dict]:
        oid = object_of(state, step.object)
        obj = state.obj(oid)
        if obj.zone != "battlefield" and not (from_stack and obj.zone == "stack"):
            raise Illegal(_reason_invalid(), f"{note}: {oid} is in {obj.zone}")
        return _ok(move(state, oid, zone, trace, note=note))
    return handler


def step_blink(state: State, step: steps.Blink, trace: Trace) -> tuple[State, dict]:
    oid = object_of(state, step.object)
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


def step_return_to_battlefield(state: State, step: steps.ReturnToBattlefield, trace: Trace) -> tuple[State, dict]:
    oid = object_of(state, step.object)
    controller = player_of(state, step.controller) if step.controller else None
    if state.obj(oid).zone not in ("graveyard", "exile", "hand"):
        raise Illegal(_reason_invalid(), f"return_to_battlefield: {oid} is in {state.obj(oid).zone}")
    return _ok(_enter(state, oid, controller, trace))


def step_change_control(state: State, step: steps.ChangeControl, trace: Trace) -> tuple[State, dict]:
    oid = object_of(state, step.object)
    to = player_of(state, step.to)
    _on_battlefield(state, oid, "change_control")
    obj = state.obj(oid)
    state, ts = state.tick()
    state = state.with_obj(replace(obj, controller=to, summoning_sick=obj.summoning_sick or to != obj.controller,
                                   timestamp=ts, combat=replace(obj.combat, attacking=None, blocking=None)))
    trace.add("108.4", f"{to} gains control of {oid}")
    if obj.combat.attacking is not None or obj.combat.blocking is not None:
        trace.add("506.4", f"{oid} changed controller: it is removed from combat")
    return _ok(state)


def step_change_types(state: State, step: steps.ChangeTypes, trace: Trace) -> tuple[State, dict]:
    oid = object_of(state, step.object)
    obj = state.obj(oid)
    if obj.zone == "gone":
        raise Illegal(_reason_invalid(), f"change_types: {oid} no longer exists")
    mode = plain(step.mode)
    types = step.creature_types
    state = state.with_timed_effect(obj, step)
    trace.add("613.1d", f"{oid}'s creature types: {mode} {', '.join(types)} until end of turn")
    return _ok(state)


def step_copy_spell(state: State, step: steps.CopySpell, trace: Trace) -> tuple[State, dict]:
    controller = player_of(state, step.controller) if step.controller else None
    if step.target is not None:
        if step.targets is not None:
            raise RequestError("copy_spell: `targets` and `target` are mutually exclusive")
        return _ok(copying.copy_with_target(state, object_of(state, step.object), step.new_id, controller,
                                            step.target, trace))
    state = rules().copy_spell(state, object_of(state, step.object), step.new_id, controller, trace)
    if step.targets is not None:
        state = copying.choose_new_targets(state, step.new_id, list(step.targets), trace)
    return _ok(state)


def step_copy_ability(state: State, step: steps.CopyAbility, trace: Trace) -> tuple[State, dict]:
    controller = player_of(state, step.controller) if step.controller else None
    return _ok(rules().copy_ability(state, object_of(state, step.object), step.new_id, controller, trace))


def step_copy_spell_for_each(state: State, step: steps.CopySpellForEach, trace: Trace) -> tuple[State, dict]:
    controller = player_of(state, step.controller) if step.controller else None
    if not step.new_ids:
        raise RequestError("copy_spell_for_each: new_ids must map candidates to new ids")
    return _ok(rules().copy_for_each(state, object_of(state, step.object), dict(step.new_ids), controller, trace))


def step_copy_permanent(state: State, step: steps.CopyPermanent, trace: Trace) -> tuple[State, dict]:
    controller = player_of(state, step.controller) if step.controller else None
    return _ok(rules().copy_permanent(state, object_of(state, step.object), step.new_id, controller, trace))


def step_become_copy(state: State, step: steps.BecomeCopy, trace: Trace) -> tuple[State, dict]:
    return _ok(copying.become_copy(state, object_of(state, step.object), object_of(state, step.of), trace))


def step_leave_game(state: State, step: steps.LeaveGame, trace: Trace) -> tuple[State, dict]:
    name = player_of(state, step.player)
    if not state.player(name).in_game:
        raise Illegal(_reason_invalid(), f"{name} has already left the game")
    return _ok(leave_game(state, name, trace))


def _life(sign: int) -> Handler:
    def handler(state: State, step: steps.LifeChange, trace: Trace) -> tuple[State, dict]:
        name = player_of(state, step.player)
        amount = step.amount
        p = state.player(name)
        trace.add("119.3", f"{name} {'gains' if sign > 0 else 'loses'} {amount} life")
        return _ok(state.with_player(replace(p, life=p.life + sign * amount)))
    return handler


HANDLERS: Mapping[type[steps.Step], Handler] = {
    steps.Cast: step_cast, steps.ActivateMana: step_activate_mana, steps.Activate: step_activate,
    steps.Attack: step_attack, steps.Block: step_block, steps.CombatDamage: step_combat_damage,
    steps.DealDamage: step_deal_damage, steps.MoveTo: step_move_to, steps.NextTurn: step_next_turn,
    steps.Resolve: step_resolve,
    steps.Destroy: _zone_action("graveyard", "destroyed"), steps.Exile: _zone_action("exile", "exiled", True),
    steps.ReturnToHand: _zone_action("hand", "returned to hand"),
    steps.Sacrifice: _zone_action("graveyard", "sacrificed"),
    steps.Blink: step_blink, steps.ReturnToBattlefield: step_return_to_battlefield,
    steps.ChangeControl: step_change_control, steps.ChangeTypes: step_change_types,
    steps.CopySpell: step_copy_spell, steps.CopySpellForEach: step_copy_spell_for_each,
    steps.CopyAbility: step_copy_ability,
    steps.CopyPermanent: step_copy_permanent,
    steps.BecomeCopy: step_become_copy, steps.LeaveGame: step_leave_game,
    steps.LoseLife: _life(-1), steps.GainLife: _life(+1), steps.PayManaCost: step_pay_mana_cost,
    steps.SpecialAction: step_special_action,
}


_read_step = by_content(read_step)     # every run of a case sends the same steps


def run_step(state: State, step: Mapping[str, Any], trace: Trace) -> tuple[State, dict]:
    """Run one step; on an illegal action return the unchanged state and the reason."""
    try:
        typed = _read_step(step, f"/steps/{trace.step - 1}" if trace.step else "")
    except ModelError as exc:
        raise RequestError(str(exc)) from exc
    casting_step = isinstance(typed, steps.Cast)
    handler = HANDLERS[type(typed)]
    try:
        if state.game_over:
            raise Illegal(_reason_invalid(), "the game is over: no further action can be taken", rules=("104.1",))
        new_state, result = handler(state, typed, trace)
        new_state = flush_pending(new_state, trace)
        new_state = state_based_actions(new_state, trace)
        new_state = flush_pending(new_state, trace)     # creatures that died to state-based actions (704.3)
        return new_state, {k: v for k, v in result.items() if v is not None}
    except Illegal as exc:
        substep = exc.substep if casting_step else None
        if casting_step and substep is None and exc.reason.substeps:
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
        raise RequestError(f"step {type(typed).__name__}: malformed ({exc!r})") from exc


def flush_pending(state: State, trace: Trace) -> State:
    """Triggered abilities that waited (during a cast or a mana ability) go on the stack (603.3)."""
    if not state.pending:
        return state
    pending = [PendingTrigger(*entry) for entry in state.pending]
    state = replace(state, pending=())
    return put_triggers(state, pending, None, trace)


def run_case(case: Mapping[str, Any], cards: Mapping[str, Any], observe=()) -> dict:
    """Run a case request (docs/case-format.md, "What an engine receives")."""
    catalog: dict[str, CardDef] = read_cards(cards)
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
