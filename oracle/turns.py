"""Steps and turns (500): moving to a later step, the next turn, emptying mana pools."""
from __future__ import annotations

from .costs import ManaPool
from .errors import Illegal
from .frozen import replace
from .reasons import Reason
from .seams import rules
from .state import NOT_IN_COMBAT, STEPS, State, Turn
from .trace import Trace


def empty_pools(state: State, trace: Trace) -> State:
    """106.4: every mana pool empties at the end of each step and phase."""
    if not any(p.pool.total or p.restricted for p in state.players):
        return state    # nothing to empty: the same state (a step change with empty pools, the usual one)
    trace.add("106.4", "mana pools empty")
    return replace(state, players=tuple(replace(p, pool=ManaPool(), restricted=()) for p in state.players))


def change_step(state: State, step: str, trace: Trace) -> State:
    if state.turn.step == step:
        return state
    state = rules().empty_pools(state, trace)
    if STEPS.index(step) > STEPS.index("end_of_combat") >= STEPS.index(state.turn.step):
        state = _end_combat(state)
    if step == "cleanup":
        state = _cleanup(state, trace)
    return replace(state, turn=replace(state.turn, step=step))


def move_to(state: State, step: str, trace: Trace) -> State:
    if step not in STEPS:
        raise Illegal(Reason.INVALID_ACTION, f"unknown step {step!r}")
    if STEPS.index(step) <= STEPS.index(state.turn.step):
        raise Illegal(Reason.INVALID_ACTION, f"can't move from {state.turn.step} back to {step}", rules=("500.1",))
    state = change_step(state, step, trace)
    trace.add("500.1", f"the game moves to {step.replace('_', ' ')}")
    return state


def _end_combat(state: State) -> State:
    objs = [replace(o, combat=NOT_IN_COMBAT) for o in state.objects.values() if o.combat != NOT_IN_COMBAT]
    return state.with_objs(objs)


def _cleanup(state: State, trace: Trace) -> State:
    """514.2: damage wears off and "until end of turn" effects end."""
    objs = [replace(o, damage=0, deathtouched=False) for o in state.battlefield() if o.damage]
    state = replace(state.with_objs(objs), effects=tuple(e for e in state.effects if e.lasting))
    trace.add("514.2", "damage is removed and until-end-of-turn effects end")
    return state


def next_turn(state: State, trace: Trace) -> State:
    """The next player in turn order still in the game becomes active, at their precombat main
    phase after untapping (502.3) and losing summoning sickness (302.6); the turn's damage
    record is cleared (prowl looks at this turn only)."""
    if state.turn.step != "cleanup":
        state = change_step(state, "cleanup", trace)
    state = rules().empty_pools(state, trace)
    names = [p.name for p in state.players]
    i = names.index(state.turn.active)
    nxt = None
    for k in range(1, len(names) + 1):
        cand = state.players[(i + k) % len(names)]
        if cand.in_game:
            nxt = cand.name
            break
    if nxt is None:
        raise Illegal(Reason.INVALID_ACTION, "no player is left in the game")
    objs = [replace(o, tapped=False if o.controller == nxt else o.tapped,
                    summoning_sick=False if o.controller == nxt else o.summoning_sick)
            for o in state.battlefield() if o.controller == nxt]
    state = replace(state.with_objs(objs), turn=Turn(active=nxt, step="precombat_main", number=state.turn.number + 1),
                    damage_log=(), cast_log=(), effects=tuple(e for e in state.effects if e.lasting))
    trace.add(("500.1", "502.3"), f"turn {state.turn.number}: {nxt} is the active player; their permanents untap")
    return state
