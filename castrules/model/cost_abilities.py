"""Abilities that act on a spell's total cost once increases and reductions applied (601.2f):
a floor (Trinisphere) and a set amount (Test Fixed Toll)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from .ability_base import Ability
from .build import key
from .parts import SpellFilter, Whose


@dataclass(frozen=True)
class CostFloor(Ability):
    """A spell costs at least `minimum` mana (Trinisphere), after other changes (601.2f)."""

    kind: ClassVar[str] = "cost_floor"
    required: ClassVar[tuple[str, ...]] = ("minimum",)
    minimum: int = 0
    whose: Whose | None = None
    spells: SpellFilter | None = None
    while_: Literal["untapped"] | None = key("while", None)


@dataclass(frozen=True)
class CostSet(Ability):
    """The mana of a spell's total cost becomes `cost` once increases and reductions are
    applied, whatever it was (601.2f: an effect on the total as it is determined); life and
    other parts stay. No printed card does this: Test Fixed Toll, for the coverage matrix."""

    kind: ClassVar[str] = "cost_set"
    required: ClassVar[tuple[str, ...]] = ("cost",)
    cost: str = ""
    whose: Whose | None = None
    spells: SpellFilter | None = None
    while_: Literal["untapped"] | None = key("while", None)
