"""Flashback a card has (702.34a): its own keyword, or flashback another object's effect gives it
until end of turn, with the card's mana cost as its flashback cost (Snapcaster Mage)."""
from __future__ import annotations

from castrules.model.cards import Flashback

from .state import GrantedFlashback, Obj, State


def flashback_of(state: State, obj: Obj) -> Flashback | None:
    """702.34a: the flashback `obj` has now: its printed one, else the first one granted to this
    object (its incarnation: a card that left the graveyard and came back is a new object, 400.7).
    A card with no mana cost gets no flashback cost from it. Several flashback costs to choose
    from are not modelled: a printed one is used."""
    if obj.base.flashback is not None:
        return obj.base.flashback
    if obj.base.mana_cost is None:
        return None
    for e in state.effects:
        if e.obj == obj.id and e.incarnation == obj.incarnation and isinstance(e.does, GrantedFlashback):
            return Flashback(cost=obj.base.mana_cost)
    return None


def granted_by(state: State, obj: Obj) -> str | None:
    """The object whose effect gave `obj` its flashback, if it has none of its own."""
    if obj.base.flashback is not None:
        return None
    return next((e.does.source for e in state.effects if e.obj == obj.id and e.incarnation == obj.incarnation
                 and isinstance(e.does, GrantedFlashback)), None)
