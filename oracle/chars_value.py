"""An object's characteristics as one frozen value (109.3): what the layers give
(oracle.characteristics computes it), with the questions the rest of the oracle asks of it."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from castrules.model.abilities import Ability, ActivatedAbility, ManaAbility

from .cards import CardDef
from .costs import ManaCost
from .creature_types import CREATURE_TYPES


@dataclass(frozen=True)
class Chars:
    name: str
    mana_cost: ManaCost | None
    colors: tuple[str, ...]
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    other_subtypes: tuple[str, ...]          # land / artifact / enchantment subtypes
    creature_types: frozenset[str]
    all_creature_types: bool
    power: int | None
    toughness: int | None
    keywords: frozenset[str]
    abilities: tuple[Ability, ...]
    base: CardDef
    base_power: int | None = None            # 208.4b: before counters and modifying effects

    def is_(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def has_creature_types(self) -> bool:
        return self.all_creature_types or bool(self.creature_types)

    def has_creature_type(self, t: str) -> bool:
        return t in self.creature_types or (self.all_creature_types and t in CREATURE_TYPES)

    def shares_creature_type(self, types: frozenset[str], all_types: bool) -> str | None:
        """A creature type both have (for prowl), or None. Every-type objects share all."""
        if not self.has_creature_types or not (all_types or types):
            return None
        if self.all_creature_types and all_types:
            return "every creature type"
        if self.all_creature_types:
            return sorted(types)[0]
        if all_types:
            return sorted(self.creature_types)[0]
        common = self.creature_types & types
        return sorted(common)[0] if common else None

    @property
    def subtypes(self) -> tuple[str, ...]:
        if self.all_creature_types:
            ct = tuple(sorted(CREATURE_TYPES))
        else:
            printed = [t for t in self.base.subtypes if t in self.creature_types]
            ct = tuple(printed + sorted(self.creature_types - set(printed)))
        return self.other_subtypes + ct

    def mana_abilities(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if isinstance(a, ManaAbility))

    def activated_abilities(self) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if isinstance(a, ActivatedAbility))


_CHARS_FIELDS = tuple(f.name for f in fields(Chars))


def new_chars(**values: Any) -> Chars:
    """``Chars(**values)`` given every field: its fields written in their order, without the
    frozen ``__init__``'s call per field (characteristics are computed thousands of times a run)."""
    if values.keys() != _CHARS_KEYS:
        return Chars(**values)          # a field missing or unknown: the constructor's own answer
    value = object.__new__(Chars)
    value.__dict__.update({name: values[name] for name in _CHARS_FIELDS})
    return value


_CHARS_KEYS = frozenset(_CHARS_FIELDS)


# Characteristics of objects no effect and no watching ability reaches, by their `like` key
# (characteristics.chars), shared by every run under one rules table (a variant of the rules, a
# mutant, has its own): a pure function of the object's fields then (each entry's object keeps
# the ids of its key valid). Bounded: a store is emptied when full, tables beyond a few dropped.
SHARED_SIZE = 4096
_SHARED: dict[int, tuple[object, dict]] = {}


def shared_store(table: object) -> dict:
    """The store of the runs under ``table`` (a ``seams.Rules``)."""
    entry = _SHARED.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_SHARED) >= 8:             # tables come and go with mutation runs: keep a few
            _SHARED.clear()
        entry = _SHARED[id(table)] = (table, {})
    elif len(entry[1]) >= SHARED_SIZE:
        entry[1].clear()
    return entry[1]
