"""The cast step (601.2): one frozen type with every announcement and choice of casting a spell
spelled out (docs/case-format.md), and the cost reductions the caster applies. In a module of its
own because it grows with each cost mechanic the format models; `castrules.model.steps` lists it
among the step kinds."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .build import Model, key
from .refs import AnyRef, ObjectRef, PlayerRef
from .step_base import Paying, require_fields


@dataclass(frozen=True)
class Reduction(Model):
    """A cost reduction the caster applies, with its choice if it asks for one (601.2f)."""

    source: ObjectRef
    choice: str | None = None


@dataclass(frozen=True)
class Cast(Paying):
    """Cast a spell (601.2), every announcement and choice given (docs/case-format.md)."""

    kind: ClassVar[str] = "cast"
    player: PlayerRef = ""
    object: ObjectRef = ""
    from_zone: str | None = key("from", None)
    alternative_cost: tuple[str, ...] = ()          # AlternativeCostName values; the engine judges others
    permission: ObjectRef | None = None
    prototype: bool = False
    kicker: bool = False
    multikicker: int = 0                            # 702.33c: times its multikicker is paid
    buyback: bool = False                           # 702.27a
    entwine: bool = False                           # 702.42a: every mode chosen
    sacrifice: tuple[ObjectRef, ...] = ()
    reveal: tuple[ObjectRef, ...] = ()
    discard: tuple[ObjectRef, ...] = ()             # 118.8: cards discarded for a discard cost (escalate's too)
    x: int | None = None
    y: int | None = None
    z: int | None = None
    modes: tuple[int, ...] = ()
    mode_chooser: PlayerRef | None = None           # 601.6, 601.6a: the opponent who picks the modes ("an opponent chooses")
    hybrid: tuple[str, ...] | None = None
    phyrexian: tuple[str, ...] | None = None        # PhyrexianChoice values; the engine judges others
    targets: tuple[AnyRef, ...] = ()
    division: Mapping[AnyRef, int] | None = None
    reductions: tuple[Reduction, ...] = ()
    half: int | None = None
    fuse: bool = False
    flash_cost: ObjectRef | None = None
    delve: tuple[ObjectRef, ...] = ()               # 702.66a: graveyard cards exiled to pay generic mana
    improvise: tuple[ObjectRef, ...] = ()           # 702.126a: untapped artifacts tapped to pay generic mana
    emerge: ObjectRef | None = None                 # 702.119a: the creature sacrificed for the emerge cost
    returned: ObjectRef | None = None               # 118.9: the permanent a return_permanent cost returns (Daze)
    life_for_mana: Mapping[str, int] | None = None  # 601.2h: colour -> symbols paid with life (K'rrik)

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        doc = super().normalise(require_fields(doc, where, "player", "object"), where)
        alt = doc.get("alternative_cost")
        return {**doc, "alternative_cost": [alt]} if isinstance(alt, str) else doc
