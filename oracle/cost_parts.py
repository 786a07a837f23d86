"""The parts of a cost the payer (oracle.payer) pays, one frozen value per kind: mana, life,
{T}, {Q}, a sacrifice, the source sacrificing itself, a reveal; the discards (oracle.discard_costs),
a permanent returned to its owner's hand (oracle.return_costs) and the objects paying generic
mana (delve, improvise: oracle.keyword_payment) have theirs beside their handlers. `Part` is any of them; the payer's table has one handler per kind."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from castrules.model.parts import Filter

from .costs import ConcreteCost
from .discard_costs import DiscardPart
from .keyword_payment import DelvePart, ImprovisePart
from .return_costs import ReturnPart


@dataclass(frozen=True)
class ManaPart:
    """The mana of a cost (its life part is a LifePart). `auto`: the engine may activate
    {T}-only mana abilities for it (601.2g, pay: auto), not those of the objects in `used`."""

    cost: ConcreteCost
    auto: bool = False
    used: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LifePart:
    """Life to pay (119.4, 118.3); `phyrexian`: it comes from Phyrexian symbols (118.3b)."""

    amount: int
    phyrexian: bool = False


@dataclass(frozen=True)
class TapPart:
    """{T}: tap this untapped permanent (107.5, 302.6)."""

    object: str


@dataclass(frozen=True)
class UntapPart:
    """{Q}: untap this tapped permanent (107.6, 302.6)."""

    object: str


@dataclass(frozen=True)
class SacrificePart:
    """Sacrifice one permanent the payer controls fitting one of `fits` (701.21a, 118.8 for a
    spell's additional cost): `chosen` names it (the player's choice); None leaves it to the
    engine (the first fitting one in setup order)."""

    fits: tuple[Filter, ...]
    chosen: tuple[str, ...] | None = None
    emerge: bool = False            # the creature an emerge cost sacrifices (702.119c), not an additional cost


@dataclass(frozen=True)
class SacrificeSourcePart:
    """The ability's source sacrifices itself ("Sacrifice this", 701.21a)."""

    object: str


@dataclass(frozen=True)
class RevealPart:
    """Reveal these cards from the payer's hand, each fitting one of `fits` (701.20a, 118.8)."""

    fits: tuple[Filter, ...]
    chosen: tuple[str, ...]


Part = Union[ManaPart, LifePart, TapPart, UntapPart, SacrificePart, SacrificeSourcePart, RevealPart, DelvePart,
             ImprovisePart, DiscardPart, ReturnPart]
