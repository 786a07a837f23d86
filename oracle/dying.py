"""Leaves-the-battlefield triggers on a creature dying (700.4), which look back in time (603.10a).

Whether such an ability triggers is judged on the game as it was just before the creature left:
the abilities that existed then (the dying creature's own included) and the creature's
characteristics then (a creature only because of an effect still counts; a stolen creature
counts as its then controller's). The triggered abilities wait (State.pending) until a player
would receive priority (603.3), so one that triggers while a spell is being cast (a creature
sacrificed to pay a cost) goes on the stack above that spell once it has been cast.
"""
from __future__ import annotations

from castrules.model.abilities import TriggeredAbility

from .characteristics import chars, matches
from .state import CARD, Obj, State


def dies_triggers(before: State, dying: Obj) -> tuple[tuple[str, TriggeredAbility], ...]:
    """(source id, ability) of each dies trigger the death of `dying` sets off, seen in `before`
    (the state just before it left the battlefield, 603.10a)."""
    if dying.zone != "battlefield" or dying.kind is not CARD:
        return ()
    seen = chars(before, dying)
    if not seen.is_creature:
        return ()
    out: list[tuple[str, TriggeredAbility]] = []
    for src in before.battlefield():
        if src.kind is not CARD:
            continue
        for ab in chars(before, src).abilities:
            if not isinstance(ab, TriggeredAbility) or ab.trigger.dies is None:
                continue
            if matches(seen, dying, ab.trigger.dies.creatures, src.controller, src.id):
                out.append((src.id, ab))
    return tuple(out)
