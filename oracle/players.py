"""Players leaving the game (800.4a)."""
from __future__ import annotations

from dataclasses import replace

from .state import GONE, State
from .trace import Trace


def leave_game(state: State, name: str, trace: Trace) -> State:
    """The player leaves; objects they own leave the game with them (800.4a). The turn's
    damage record is untouched: prowl still sees damage dealt to them (ruling)."""
    p = state.player(name)
    state = state.with_player(replace(p, in_game=False, pool=type(p.pool)()))
    objs = []
    for o in state.objects.values():
        if o.owner == name and o.zone != GONE:
            objs.append(replace(o, zone=GONE, incarnation=o.incarnation + 1))
    state = state.with_objs(objs)
    gone_ids = {o.id for o in objs}
    state = replace(state, stack=tuple(s for s in state.stack if s not in gone_ids))
    trace.add("800.4a", f"{name} leaves the game" + (f"; {', '.join(sorted(gone_ids))} leave with them" if gone_ids else ""))
    return state
