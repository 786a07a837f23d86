"""Abilities that trigger on casting a spell (603.2, 601.2i; prowess, 702.108a).

They trigger once the spell has become cast (601.2i) and wait, like every triggered ability, to
be put on the stack the next time a player would receive priority (603.3): in a case, at the end
of the step, above the spell. Only permanents' abilities are looked at (a card's own trigger
doesn't see itself being cast: it is on the stack, not the battlefield), and only casts do it:
a copy put on the stack is not cast (707.10)."""
from __future__ import annotations

from castrules.model.abilities import TriggeredAbility

from .characteristics import chars, matches
from .frozen import replace
from .state import CARD, State
from .trace import Trace


def _whose(whose: str | None, controller: str, caster: str) -> bool:
    """Does a trigger of a permanent controlled by `controller` watch `caster`'s spells?"""
    if whose in (None, "you"):
        return caster == controller
    return whose == "all" or caster != controller


def spell_cast(state: State, spell_id: str, caster: str, trace: Trace) -> State:
    """601.2i: the spell has become cast; each matching cast trigger waits (603.2, 603.3)."""
    spell = state.obj(spell_id)
    c = chars(state, spell)
    waiting = []
    for obj in state.battlefield():
        if obj.kind is not CARD:
            continue
        for ab in chars(state, obj).abilities:
            on = ab.trigger.cast if isinstance(ab, TriggeredAbility) else None
            if (on is not None and _whose(on.whose, obj.controller, caster)
                    and matches(c, spell, on.spells, obj.controller, obj.id)):
                waiting.append((obj.id, ab))
                trace.add(("603.2", "601.2i"), f"{obj.base.name} ({obj.id}) triggers: {caster} cast {c.name} "
                                                f"({spell_id}); it waits to be put on the stack")
    return replace(state, pending=state.pending + tuple(waiting)) if waiting else state
