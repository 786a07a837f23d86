"""A state's objects by id: a map that is never changed, and cheap to update into a new one.

Every step of the game makes a new State with one or a few objects replaced. Copying the whole
map each time is what a small game wants (a plain dict copy, and lookups at C speed), but it
makes a game with thousands of permanents quadratic: paying X = 10,000 from 10,000 Forests
copied a 10,000-entry dict 10,000 times. Past ``LAYER_FROM`` objects the map becomes a
shared base dict with a small overlay of the objects changed since; the overlay is folded into
a new base once it outgrows the square root of the base, so an update costs O(sqrt n)
amortised. Both kinds iterate like a dict that had the changed objects assigned in turn
(a replaced object keeps its place, a new one comes last), so no result depends on the kind.
Both carry ``watching``, the state's index of watching abilities (oracle.state), valid for
exactly these objects, and ``sources``, a token that oracle.state carries from one map to the
next while no permanent with a watching ability changes (characteristics.chars keys on it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from itertools import chain
from typing import Any

LAYER_FROM = 512          # below this many objects a plain copy is cheaper than the overlay


class Objects(dict):
    """The small kind: a dict (C-speed lookups), copied whole on update."""

    __slots__ = ("watching", "sources")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.watching = None
        self.sources = object()


class LayeredObjects(Mapping):
    """The large kind: ``base`` (shared, never changed) overlaid by ``over`` (the objects
    replaced or added since the base was made)."""

    __slots__ = ("_base", "_over", "watching", "sources")

    def __init__(self, base: dict, over: dict) -> None:
        self._base = base
        self._over = over
        self.watching = None
        self.sources = object()

    def __getitem__(self, key: str) -> Any:
        over = self._over
        if key in over:
            return over[key]
        return self._base[key]

    def get(self, key: str, default: Any = None) -> Any:
        over = self._over
        if key in over:
            return over[key]
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._over or key in self._base

    def __len__(self) -> int:
        base = self._base
        return len(base) + sum(1 for k in self._over if k not in base)

    def __iter__(self) -> Iterator[str]:
        base = self._base
        yield from base
        yield from (k for k in self._over if k not in base)

    def values(self) -> Iterator[Any]:      # type: ignore[override]
        base, over = self._base, self._over
        if not over:
            return iter(base.values())
        return chain((over.get(k, v) for k, v in base.items()), (v for k, v in over.items() if k not in base))

    def items(self) -> Iterator[tuple[str, Any]]:   # type: ignore[override]
        return zip(iter(self), self.values())


def updated(objects: Mapping[str, Any], changed: Iterable[tuple[str, Any]]) -> Objects | LayeredObjects:
    """A new map: ``objects`` with each (id, object) of ``changed`` assigned in turn."""
    changed = list(changed)
    if isinstance(objects, LayeredObjects):
        over = dict(objects._over)
        over.update(changed)
        base = objects._base
        if len(over) * len(over) <= len(base):
            return LayeredObjects(base, over)
        return LayeredObjects({**base, **over}, {})
    if len(objects) + len(changed) >= LAYER_FROM:
        return LayeredObjects(dict(objects), dict(changed))
    out = _new_dict(Objects)      # Objects(objects) without its __init__ frame: every step makes several
    out.update(objects)
    out.update(changed)
    out.watching = None
    out.sources = object()
    return out


_new_dict = dict.__new__

