"""The parts cards are made of: filters, target requirements, activation costs, what a mana
ability produces (schema/card.schema.json's filter, target, ability_cost, produce)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from .build import Model
from .errors import ModelError
from .vocab import Color


Whose = Literal["you", "opponents", "all"]   # whose objects or spells an ability looks at

@dataclass(frozen=True)
class Filter(Model):
    """Which objects qualify; every given field must hold (an empty filter matches all)."""

    types: tuple[str, ...] = ()
    types_any: tuple[str, ...] = ()
    any_of: tuple["Filter", ...] = ()           # at least one of these holds ("creature or Vehicle")
    not_types: tuple[str, ...] = ()
    colors: tuple[Color, ...] = ()
    not_colors: tuple[Color, ...] = ()
    multicolored: bool = False                  # 105.2b: two or more colours
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    not_supertypes: tuple[str, ...] = ()
    controller: Literal["you", "opponent", "any"] = "any"
    type: str | None = None
    subtype: str | None = None
    mana_value: Literal["even", "odd"] | None = None
    mana_value_min: int | None = None
    mana_value_max: int | None = None
    power_min: int | None = None
    power_max: int | None = None
    base_power: int | None = None
    toughness_min: int | None = None
    toughness_max: int | None = None

    @property
    def all_types(self) -> tuple[str, ...]:
        """`types` with the `type` shorthand folded in."""
        return self.types + ((self.type,) if self.type else ())

    @property
    def all_subtypes(self) -> tuple[str, ...]:
        """`subtypes` with the `subtype` shorthand folded in."""
        return self.subtypes + ((self.subtype,) if self.subtype else ())


SpellFilter = Filter | Literal["self"]


@dataclass(frozen=True)
class CopyExceptions(Model):
    """Changes a copy effect makes to what it copies (707.9): the results are the copy's
    copiable values (707.9b). Added card types, subtypes or keywords (707.9a-b), a specific name
    (Superior Spider-Man), specific power and
    toughness (707.9b; a characteristic-defining ability for them is then not copied, 707.9d),
    the copy's own colours kept (707.9c; nor is a colour indicator copied, 707.9d), the Legendary
    supertype left out (707.9b), and an extra counter the copy enters with only if it would be a
    creature (707.9e-f: an effect beside the copy, judged on the copy made without it)."""

    add_types: tuple[str, ...] = ()
    add_keywords: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    name: str | None = None
    add_subtypes: tuple[str, ...] = ()
    keep_colors: bool = False
    not_legendary: bool = False
    creature_counter: str | None = None


@dataclass(frozen=True)
class TargetSpec(Model):
    """One target requirement (601.2c, 115)."""

    what: Literal["player", "opponent", "creature", "permanent", "any", "spell", "card_in_your_graveyard"]
    filter: Filter = Filter()
    up_to: bool = False
    divided: bool = False
    per_opponent: bool = False
    per_kick: bool = False          # 702.33c: one more, different target for each time the spell was kicked
    another: bool = False           # 601.2c: one more target of the previous requirement's word "target"
    awakened: bool = False          # 702.113b: chosen only when the awaken cost was paid
    chooser_controls: bool = False  # 601.6: controlled by the opponent who chose the spell's mode ("that player")


_SYMBOL = re.compile(r"\{[^{}]+\}")


@dataclass(frozen=True)
class AbilityCost(Model):
    """An activation cost: {T}, {Q}, mana, life, sacrificing the source or another permanent.
    The printed form ("{1}{W}, {Q}") reads as the same value."""

    tap: bool = False
    untap: bool = False
    mana: str | None = None
    life: int | None = None
    sacrifice_self: bool = False
    sacrifice: Literal["self", "creature"] | Filter | None = None

    @property
    def sacrifices_self(self) -> bool:
        """The cost sacrifices the source (`sacrifice_self`, or its spelling `sacrifice: self`)."""
        return self.sacrifice_self or self.sacrifice == "self"

    @property
    def sacrifice_filter(self) -> Filter | None:
        """Which other permanent the cost sacrifices (`creature` is a creature), or None."""
        if self.sacrifice == "creature":
            return Filter(types=("Creature",))
        return self.sacrifice if isinstance(self.sacrifice, Filter) else None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if not isinstance(doc, str):
            return doc
        symbols = _SYMBOL.findall(doc)
        if _SYMBOL.sub("", doc).replace(",", "").strip():
            raise ModelError(where, f"cost text {doc!r} may hold only symbols")
        mana = "".join(s for s in symbols if s not in ("{T}", "{Q}"))
        out: dict[str, Any] = {"tap": "{T}" in symbols, "untap": "{Q}" in symbols}
        return {**out, "mana": mana} if mana else out


@dataclass(frozen=True)
class ProduceOneOf(Model):
    """One mana of one of these types."""

    one_of: tuple[str, ...]


@dataclass(frozen=True)
class CouldProduceSpec(Model):
    lands: Literal["you", "opponents"] = "you"
    colors_only: bool = False


@dataclass(frozen=True)
class ProduceCouldProduce(Model):
    """One mana of a type a land could produce (106.7)."""

    could_produce: CouldProduceSpec


@dataclass(frozen=True)
class ProducePower(Model):
    """An amount of one type equal to the source's power."""

    amount: Literal["power"]
    type: str


Produce = str | ProduceOneOf | ProduceCouldProduce | ProducePower
