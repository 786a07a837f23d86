"""Snapshots: the observable state in the case format's vocabulary."""
from __future__ import annotations

from .characteristics import chars, mana_value
from .costs import ManaType, cost_text
from .seams import rules
from .state import GONE, Obj, ObjKind, State
from .variables import text_x_value


def x_value(obj: Obj, has_x: bool) -> int | None:
    """On the stack: the announced X (107.3a). Elsewhere X is 0 when the mana cost has {X}
    (107.3g, 107.3m), else there is no X."""
    if obj.zone == "stack":
        return obj.announced.x
    return 0 if has_x else None


def y_value(obj: Obj, c, has_x: bool = True) -> int | None:
    """Y (107.3p) follows the X rules: the announced value on the stack, 0 elsewhere when the
    mana cost has {Y}, else no value. (``has_x`` False: the cost has no variable symbol at
    all, so no {Y} either.)"""
    has_y = has_x and c.mana_cost is not None and "Y" in c.mana_cost.variables
    if obj.zone == "stack":
        return obj.announced.y if has_y else None
    return 0 if has_y else None


def object_view(state: State, obj: Obj) -> dict:
    c = chars(state, obj)
    cost, zone, announced = c.mana_cost, obj.zone, obj.announced
    has_x = cost is not None and cost.has_x
    x = x_value(obj, has_x)
    if zone == "stack" and obj.kind is ObjKind.CARD and x is None:
        x = text_x_value(state, obj)          # 107.3c / 107.3f: an X only in the text
    return {
        "zone": zone, "controller": obj.controller, "owner": obj.owner, "name": c.name,
        "mana_cost": cost_text(cost), "mana_value": mana_value(c, obj), "colors": list(c.colors),
        "types": list(c.types), "subtypes": list(c.subtypes), "supertypes": list(c.supertypes),
        "power": c.power, "toughness": c.toughness, "tapped": obj.tapped,
        "counters": {k: v for k, v in obj.counters if v} if obj.counters else {}, "damage": obj.damage,
        "prowl_paid": announced.prowl_paid, "prototyped": obj.prototyped and zone in ("stack", "battlefield"),
        "x": x, "y": y_value(obj, c, has_x), "kicked": announced.kicked > 0, "is_copy": obj.is_copy,
    }


def _pool_text(p) -> str:
    """The pool as the case format prints it: restricted mana (106.6) counts like any other."""
    pool = p.pool
    for entry in p.restricted:
        pool = pool.add(ManaType(entry[0]))
    return str(pool)


def snapshot(state: State) -> dict:
    view = rules().object_view     # the table in effect, looked up once per snapshot
    return {
        "players": {p.name: {"life": p.life, "mana_pool": _pool_text(p), "in_game": p.in_game}
                    for p in state.players},
        "objects": {oid: view(state, o) for oid, o in state.objects.items()},
        "stack": list(state.stack),
    }
