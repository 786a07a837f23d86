"""Drain Power's effect (106.13): a player made to tap their lands for mana loses it to another.

The target player activates a mana ability of each land they control (the first ability of each
untapped land, in setup order; the oracle makes the choices of colour the player would make,
taking the first), then their pool is emptied and the spell's controller adds that mana: the
mana keeps its source (snow mana stays snow) and its spending restrictions (106.6).
"""
from __future__ import annotations

from castrules.model.effects import DrainMana

from .characteristics import chars
from .errors import Illegal
from .frozen import replace
from .mana.pool import ManaPool
from .state import State
from .trace import Trace


def drain_mana(state: State, e: DrainMana, caster: str, targets: tuple, trace: Trace) -> State:
    """106.13: the target player's lands each activate a mana ability; the mana they then lose,
    and whatever was in their pool, goes to `caster`'s pool unchanged."""
    from .mana_abilities import activate
    victim = targets[e.target] if e.target < len(targets) else None
    if victim is None or not state.has_player(victim):
        return state
    for obj in state.battlefield():
        if obj.controller != victim or obj.tapped or not chars(state, obj).is_("Land"):
            continue
        try:
            state = activate(state, victim, obj.id, 0, None, trace, chooser=lambda opts: sorted(opts)[0])
        except Illegal:
            continue
    lost = state.player(victim)
    if lost.pool.is_empty and not lost.restricted:
        return state
    state = state.with_player(replace(lost, pool=ManaPool(), restricted=()))
    gainer = state.player(caster)
    state = state.with_player(replace(gainer, pool=gainer.pool + lost.pool,
                                      restricted=gainer.restricted + lost.restricted))
    trace.add("106.13", f"{victim} loses the mana in their pool and {caster} adds it, its sources and "
                        "restrictions unchanged")
    return state
