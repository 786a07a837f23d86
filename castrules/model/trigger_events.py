"""What a triggered ability waits for (card.schema.json's `trigger`): tapping for mana, a creature
dying, a spell being cast. Plain parts of `abilities.TriggeredAbility`."""
from __future__ import annotations

from dataclasses import dataclass

from .build import Model
from .parts import Filter, SpellFilter, Whose


@dataclass(frozen=True)
class TappedForMana(Model):
    filter: Filter | None = None
    mana_type: str | None = None


@dataclass(frozen=True)
class Dies(Model):
    """A creature matching `creatures` (self: the source) is put into a graveyard from the
    battlefield (700.4); judged as things were just before it left (603.10a)."""

    creatures: SpellFilter = None  # type: ignore[assignment]


@dataclass(frozen=True)
class SpellCast(Model):
    """`whose` player casts a spell matching `spells` (603.2); it triggers once the spell has
    become cast (601.2i). Prowess is one (702.108a)."""

    spells: Filter | None = None
    whose: Whose | None = None


@dataclass(frozen=True)
class Trigger(Model):
    """What a triggered ability waits for: exactly one of these."""

    tapped_for_mana: TappedForMana | None = None
    dies: Dies | None = None
    cast: SpellCast | None = None
