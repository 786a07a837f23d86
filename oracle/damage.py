"""Damage dealt to a player or a permanent (120.3), by a spell's effect or in combat (510.2), with
lifelink's life gain (702.15b); each damage event to a player is logged for what reads it later
(prowl, 702.76a)."""
from __future__ import annotations

from .characteristics import chars
from .frozen import replace
from .state import DamageEvent, Obj, State
from .trace import Trace


def damage_player(state: State, source: Obj, player: str, amount: int, combat: bool, trace: Trace,
                  source_controller: str | None = None) -> State:
    if amount <= 0 or not state.player(player).in_game:
        return state
    c = chars(state, source)
    p = state.player(player)
    state = state.with_player(replace(p, life=p.life - amount))
    event = DamageEvent(source=source.id, source_name=c.name, player=player, amount=amount, combat=combat,
                        controller=source_controller or source.controller,
                        creature_types=c.creature_types, all_creature_types=c.all_creature_types)
    state = replace(state, damage_log=state.damage_log + (event,))
    trace.add("120.3a" if not combat else "510.2",
              f"{c.name} ({source.id}) deals {amount} {'combat ' if combat else ''}damage to {player}")
    if "lifelink" in c.keywords:
        state = gain_life(state, event.controller, amount)
    return state


def damage_object(state: State, source: Obj, oid: str, amount: int, trace: Trace) -> State:
    obj = state.obj(oid)
    if amount <= 0 or obj.zone != "battlefield":
        return state
    c = chars(state, source)
    state = state.with_obj(replace(obj, damage=obj.damage + amount,
                                   deathtouched=obj.deathtouched or "deathtouch" in c.keywords))
    trace.add("120.3e", f"{c.name} ({source.id}) deals {amount} damage to {oid}")
    if "lifelink" in c.keywords:
        state = gain_life(state, source.controller, amount)
    return state


def gain_life(state: State, player: str, n: int) -> State:
    p = state.player(player)
    return state.with_player(replace(p, life=p.life + n))
