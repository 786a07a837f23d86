"""Mana that may still be made while paying: activations of mana abilities (605, 601.2g).

A ``Source`` is one activation of one mana ability, free to activate (its other costs, such
as {T}, are the caller's concern).  It adds all of its ``units`` at once; for each unit the
player picks one type among ``types`` (e.g. a dual land: one unit of {W} or {U}; Sol Ring:
two units of {C}).  A unit from a snow source can pay {S} (107.4h).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .types import MANA_TYPES, Color, ManaType

_ANY_COLOR = frozenset(ManaType(c.value) for c in Color)
# a set of types -> the same in WUBRGC order: at most 63 entries (the solver asks per unit, often)
_ORDERED: dict[frozenset[ManaType], tuple[ManaType, ...]] = {}


@dataclass(frozen=True)
class ManaUnit:
    """One mana a source adds; the player picks its type from ``types`` (106.1b)."""

    types: frozenset[ManaType]
    snow: bool = False

    def __post_init__(self) -> None:
        types = frozenset(self.types)
        if not types or not all(isinstance(t, ManaType) for t in types):
            raise ValueError("a mana unit needs at least one ManaType (106.5: no undefined mana)")
        object.__setattr__(self, "types", types)
        if not isinstance(self.snow, bool):
            raise TypeError("snow must be a bool")

    @classmethod
    def of(cls, types: str | Iterable[ManaType | Color | str], snow: bool = False) -> "ManaUnit":
        """``ManaUnit.of("WU")``, ``ManaUnit.of("C")``, ``ManaUnit.of([ManaType.G])``."""
        return cls(frozenset(ManaType.coerce(t) for t in types), snow)

    @classmethod
    def any_color(cls, snow: bool = False) -> "ManaUnit":
        return cls(_ANY_COLOR, snow)

    @property
    def ordered_types(self) -> tuple[ManaType, ...]:
        """``types`` in WUBRGC order."""
        found = _ORDERED.get(self.types)
        if found is None:
            found = _ORDERED[self.types] = tuple(t for t in MANA_TYPES if t in self.types)
        return found

    def __str__(self) -> str:
        return "{" + "|".join(t.value for t in self.ordered_types) + "}" + ("[snow]" if self.snow else "")


@dataclass(frozen=True)
class Source:
    """One activation of one mana ability, identified by ``key``."""

    key: str
    units: tuple[ManaUnit, ...]

    def __post_init__(self) -> None:
        units = tuple(self.units)
        if not isinstance(self.key, str) or not self.key:
            raise ValueError("a source needs a non-empty string key")
        if not units or not all(isinstance(u, ManaUnit) for u in units):
            raise ValueError("a source adds at least one ManaUnit")
        object.__setattr__(self, "units", units)

    @classmethod
    def of(cls, key: str, *units: str | ManaUnit, snow: bool = False) -> "Source":
        """``Source.of("sol", "C", "C")`` (Sol Ring), ``Source.of("tundra", "WU")``,
        ``Source.of("forest", "G", snow=True)`` (a snow Forest)."""
        return cls(key, tuple(u if isinstance(u, ManaUnit) else ManaUnit.of(u, snow) for u in units))
