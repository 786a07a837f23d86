"""Awaken's spell ability (702.113a): the land it targets gets +1/+1 counters and becomes a 0/0
Elemental creature with haste that is still a land, an effect with no end."""
from __future__ import annotations

from .frozen import replace
from .state import Awakened, State
from .trace import Trace


def awaken_land(state: State, oid: str, n: int, trace: Trace) -> State:
    """702.113a: N +1/+1 counters on the land, then the lasting animation (types, 0/0, haste:
    characteristics reads the `Awakened` effect); it outlasts the turn, not the land's leaving."""
    o = state.obj(oid)
    counters = dict(o.counters)
    counters["+1/+1"] = counters.get("+1/+1", 0) + n
    state = state.with_obj(replace(o, counters=tuple(sorted((a, b) for a, b in counters.items() if b))))
    state = state.with_timed_effect(state.obj(oid), Awakened(), lasting=True)
    trace.add(("702.113a", "122.6"), f"{oid} gets {n} +1/+1 counter(s) and becomes a 0/0 Elemental creature with "
                                     "haste, still a land, with no end")
    return state
