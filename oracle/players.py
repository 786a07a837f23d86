"""Players leaving the game (800.4a) and losing it (104.3, 704.5a); the end of the game (104.1)."""
from __future__ import annotations

from typing import Sequence

from .frozen import replace
from .state import GONE, State
from .trace import Rules, Trace, rule_numbers


def leave_game(state: State, name: str, trace: Trace) -> State:
    """The player leaves; objects they own leave the game with them (800.4a). The turn's
    damage record is untouched: prowl still sees damage dealt to them (ruling). When fewer
    than two players remain, the game is over instead (104.2a, 104.1): nothing else moves."""
    return players_leave(state, (name,), "800.4a", f"{name} leaves the game", trace)


def players_leave(state: State, names: Sequence[str], rule: Rules, note: str, trace: Trace) -> State:
    """`names` leave the game at once (conceding, or losing: 104.3a-b, 704.5a)."""
    remaining = [p.name for p in state.players if p.in_game and p.name not in names]
    if len(remaining) < 2:
        for name in names:
            p = state.player(name)
            state = state.with_player(replace(p, in_game=False))
        result, why = (f"{remaining[0]} wins the game", "104.2a") if remaining else ("the game is a draw", "104.4a")
        trace.add((*rule_numbers(rule), "104.1", why), f"{note}; {result}; the game is over")
        return replace(state, game_over=True)
    gone_ids: set[str] = set()
    for name in names:
        p = state.player(name)
        state = state.with_player(replace(p, in_game=False, pool=type(p.pool)(), restricted=()))
        objs = []
        for o in state.objects.values():
            if o.owner == name and o.zone != GONE:
                objs.append(replace(o, zone=GONE, incarnation=o.incarnation + 1))
        state = state.with_objs(objs)
        gone_ids |= {o.id for o in objs}
    state = replace(state, stack=tuple(s for s in state.stack if s not in gone_ids))
    trace.add((*rule_numbers(rule), "800.4a"), note + (f"; {', '.join(sorted(gone_ids))} leave with them" if gone_ids else ""))
    return state
