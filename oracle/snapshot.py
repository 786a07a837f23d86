"""Snapshots: the observable state in the case format's vocabulary."""
from __future__ import annotations

from .characteristics import chars, mana_value
from .chars_value import Chars
from .costs import ManaType, cost_text
from .seams import rules
from .state import CARD, GONE, Obj, State
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
    name, cost_symbols, colors, types, subtypes, supertypes = _chars_part(c)
    has_x = cost is not None and cost.has_x
    x = x_value(obj, has_x)
    if zone == "stack" and obj.kind is CARD and x is None:
        x = text_x_value(state, obj)          # 107.3c / 107.3f: an X only in the text
    return {
        "zone": zone, "controller": obj.controller, "owner": obj.owner, "name": name,
        "mana_cost": cost_symbols, "mana_value": mana_value(c, obj), "colors": list(colors),
        "types": list(types), "subtypes": list(subtypes), "supertypes": list(supertypes),
        "power": c.power, "toughness": c.toughness, "tapped": obj.tapped,
        "counters": {k: v for k, v in obj.counters if v} if obj.counters else {}, "damage": obj.damage,
        "prowl_paid": announced.prowl_paid, "prototyped": obj.prototyped and zone in ("stack", "battlefield"),
        "x": x, "y": y_value(obj, c, has_x), "kicked": announced.kicked > 0, "is_copy": obj.is_copy,
    }


# What a view reads of the characteristics alone, by the Chars value (frozen; the runs share
# most of them): the mana cost's text and the ordered subtypes are worked out once per value.
_PARTS: dict[int, tuple[Chars, tuple]] = {}
_TEXTS: dict[int, tuple[object, str]] = {}     # a pool (frozen) -> its text
_BOUND = 4096


def _chars_part(c: Chars) -> tuple:
    hit = _PARTS.get(id(c))
    if hit is not None and hit[0] is c:
        return hit[1]
    part = (c.name, cost_text(c.mana_cost), c.colors, c.types, c.subtypes, c.supertypes)
    if len(_PARTS) >= _BOUND:
        _PARTS.clear()
    _PARTS[id(c)] = (c, part)
    return part


def _pool_text(p) -> str:
    """The pool as the case format prints it: restricted mana (106.6) counts like any other."""
    pool = p.pool
    if p.restricted:
        for entry in p.restricted:
            pool = pool.add(ManaType(entry[0]))
        return str(pool)
    hit = _TEXTS.get(id(pool))
    if hit is not None and hit[0] is pool:
        return hit[1]
    if len(_TEXTS) >= _BOUND:
        _TEXTS.clear()
    text = str(pool)
    _TEXTS[id(pool)] = (pool, text)
    return text


def snapshot(state: State) -> dict:
    view = rules().object_view     # the table in effect, looked up once per snapshot
    return {
        "players": {p.name: {"life": p.life, "mana_pool": _pool_text(p), "in_game": p.in_game}
                    for p in state.players},
        "objects": {oid: view(state, o) for oid, o in state.objects.items()},
        "stack": list(state.stack),
    }
