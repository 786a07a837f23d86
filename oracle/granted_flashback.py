"""Flashback a card has (702.34a): its own keyword, or flashback another object's effect gives it
until end of turn, with the card's mana cost as its flashback cost (Snapcaster Mage)."""
from __future__ import annotations

from castrules.model.cards import Flashback

from .state import GrantedFlashback, Obj, State


def _granters(state: State, obj: Obj) -> list[str]:
    """The objects whose effects give this incarnation of `obj` flashback (a card that left the
    graveyard and came back is a new object, 400.7), oldest first."""
    return [e.does.source for e in state.effects if e.obj == obj.id and e.incarnation == obj.incarnation
            and isinstance(e.does, GrantedFlashback)]


def flashback_of(state: State, obj: Obj, via: str | None = None) -> Flashback | None:
    """702.34a: the flashback `obj` is cast with: the one `via` (the cast's `permission`) gave it,
    if that object gave it one; else its printed one; else the first one granted to it. A card
    with no mana cost gets no flashback cost from a granted one. A card with two flashback
    abilities may be cast with either: naming the granter picks its cost (the card's mana cost,
    with no life or sacrifice the printed one asks for)."""
    granted = _granters(state, obj) if obj.base.mana_cost is not None else []
    if via is not None and via in granted:
        return Flashback(cost=obj.base.mana_cost)
    if obj.base.flashback is not None:
        return obj.base.flashback
    return Flashback(cost=obj.base.mana_cost) if granted else None


def granted_by(state: State, obj: Obj, via: str | None = None) -> str | None:
    """The object whose effect gave `obj` the flashback it is cast with (`flashback_of`), if that
    is not its own."""
    granted = _granters(state, obj) if obj.base.mana_cost is not None else []
    if via is not None and via in granted:
        return via
    return None if obj.base.flashback is not None or not granted else granted[0]
