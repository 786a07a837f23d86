"""X that is not in a cost (107.3c, 107.3f) and the values effects read for X and Y.

An X in a spell's text only is either defined by the text (107.3c: here the number of
permanents on the battlefield matching a filter, seen from the spell's controller; it is
recomputed whenever it is read, so it can change while the spell is on the stack), or chosen
by the controller (107.3f) as the spell is put on the stack (`cast: {x: N}`, kept on the
spell) or as it resolves (`resolve: {choices: {x: N}}`).
"""
from __future__ import annotations

from .characteristics import chars, matches
from .state import Obj, State


BASIC_LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")     # 205.3i


def defined_x(state: State, obj: Obj) -> int | None:
    """The value of a text-defined X now (107.3c), or None when the X is not defined: a count of
    matching permanents, or (domain) how many basic land types the spell's controller's lands have."""
    tx = obj.base.text_x
    if tx is None or not tx.defined:
        return None
    if tx.domain is not None:
        types = {t for p in state.battlefield() if p.controller == obj.controller
                 for c in (chars(state, p),) if c.is_("Land") for t in c.subtypes}
        return sum(1 for t in BASIC_LAND_TYPES if t in types)
    return sum(1 for p in state.battlefield() if matches(chars(state, p), p, tx.count, obj.controller, obj.id))


def text_x_value(state: State, obj: Obj) -> int | None:
    """X of a spell whose X is only in its text: defined (107.3c) or announced as it was cast
    (107.3f); None when it is chosen on resolution (not yet chosen) or there is none."""
    tx = obj.base.text_x
    if tx is None:
        return None
    if tx.defined:
        return defined_x(state, obj)
    return obj.announced.x if tx.choose == "cast" else None
