"""The record of a copy effect an Aura's static ability generates (707.2c; Metamorphic Alteration).

The copiable values it grants were fixed when it began, so the record holds them; `before` is what
the enchanted permanent copied until then (its own card: None), given back when the effect ends
(611.3a) unless a later copy effect has replaced it meanwhile (613.7: the later one wins anyway)."""
from __future__ import annotations

from dataclasses import dataclass

from .cards import CardDef


@dataclass(frozen=True)
class StaticCopy:
    """An Aura (`aura`) makes the permanent it enchants (`enchanted`, that object: `incarnation`) a
    copy of `values`, the copiable values `chosen` had as the Aura entered."""

    aura: str
    enchanted: str
    incarnation: int
    chosen: str
    values: CardDef
    before: CardDef | None
    before_prototyped: bool = False
