"""Cards of the catalog (schema/card.schema.json): the card and its faces, its costs and modes.
Abilities are in `abilities`, effects in `effects` (one type per kind), filters, targets and
activation costs in `parts`."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .abilities import Ability
from .build import Model
from .effects import Effect, read_effects
from .errors import ModelError
from .parts import (AbilityCost, CouldProduceSpec, Filter, Produce, ProduceCouldProduce, ProduceOneOf, ProducePower,
                    SpellFilter, TargetSpec)
from .vocab import Color


@dataclass(frozen=True)
class PrototypeFace(Model):
    """The inset prototype characteristics (702.160, 718)."""

    mana_cost: str
    power: str
    toughness: str


@dataclass(frozen=True)
class AlternativeCost(Model):
    """A named alternative cost (118.9): emerge also sacrifices a creature (`cast: {emerge: id}`)
    and is reduced by its mana value (702.119a), or with `emerge_from` a permanent of that quality
    (702.119b); surge needs another spell cast this turn (702.117a); a permanent whose dash cost
    was paid has haste (702.109a); return_permanent returns a permanent its caster controls
    matching `returns` to its owner's hand (`cast: {returned: id}`; Daze: an Island)."""

    name: Literal["awaken", "dash", "emerge", "evoke", "surge", "return_permanent", "test_alternative"]
    cost: str
    emerge_from: Filter | None = None
    returns: Filter | None = None


@dataclass(frozen=True)
class Flashback(Model):
    """Flashback (702.34a): cast from its owner's graveyard for this cost, then exiled; the
    cost may have mana, life and one permanent to sacrifice."""

    cost: str | None = None
    life: int = 0
    sacrifice: Filter | None = None


@dataclass(frozen=True)
class Suspend(Model):
    """Suspend N-cost (702.62a); N may be X, the X chosen for the cost (107.3d)."""

    time_counters: int | Literal["X"]
    cost: str


@dataclass(frozen=True)
class AdditionalCost(Model):
    """A cost paid with objects (118.8): sacrifice, reveal or discard `count` matching objects.
    A mandatory additional cost of the card, or the cost of entwine or escalate when it is not
    mana (Betrayal of Flesh's three lands, Collective Brutality's discard)."""

    sacrifice: Filter | None = None
    reveal: Filter | None = None
    discard: Filter | None = None
    count: int = 1

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping) and sum(k in doc for k in ("sacrifice", "reveal", "discard")) != 1:
            raise ModelError(where, "a cost paid with objects is a sacrifice, a reveal or a discard (from your hand)")
        return doc


@dataclass(frozen=True)
class TextX(Model):
    """An X in the text only: defined by a count (107.3c) or chosen (107.3f)."""

    count: Filter | None = None
    domain: Literal["you"] | None = None   # the number of basic land types among lands you control
    choose: Literal["cast", "resolution"] | None = None

    @property
    def defined(self) -> bool:
        """Defined by the text (107.3c), so never chosen."""
        return self.count is not None or self.domain is not None


@dataclass(frozen=True)
class ModeOption(Model):
    """One mode: its effects, and what it targets if chosen (601.2c)."""

    spell: tuple[Effect, ...]
    targets: tuple[TargetSpec, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping) and isinstance(doc.get("spell"), Mapping):
            doc = {**doc, "spell": [doc["spell"]]}
        return doc


@dataclass(frozen=True)
class Modes(Model):
    """A modal spell (700.2): choose `choose` different options, or up to `max` ("one or more"),
    or, kicked, any number up to `kicked_max`, none included (601.4: the later kicker choice
    opens them; 107.1c: any number includes zero). `chooser: opponent`: an opponent of the
    caster, whom the caster picks, makes the choice (601.6, 601.6a)."""

    choose: int
    options: tuple[ModeOption, ...]
    max: int | None = None
    kicked_max: int | None = None
    chooser: Literal["opponent"] | None = None


@dataclass(frozen=True)
class Face(Model):
    """One face or half of a card with several faces (202.3b-d); fields as on a card."""

    name: str
    type_line: str
    mana_cost: str | None = None
    power: str | None = None
    toughness: str | None = None
    colors: tuple[Color, ...] | None = None
    keywords: tuple[str, ...] = ()
    text: str = ""
    targets: tuple[TargetSpec, ...] = ()
    spell: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    divide: int | None = None


@dataclass(frozen=True)
class Meld(Model):
    """A meld card (202.3c): its partner, and (on one of the pair) the melded face."""

    partner: str
    melded: Face | None = None


@dataclass(frozen=True)
class Card(Model):
    """One catalog entry, as printed (its characteristics and structured abilities)."""

    name: str
    real: bool
    mana_cost: str | None
    type_line: str
    text: str
    power: str | None = None
    toughness: str | None = None
    colors: tuple[Color, ...] | None = None
    keywords: tuple[str, ...] = ()
    prowl: str | None = None
    prototype: PrototypeFace | None = None
    flashback: Flashback | None = None
    kicker: str | None = None
    multikicker: str | None = None                  # 702.33c: paid any number of times
    buyback: str | None = None                      # 702.27a
    entwine: str | AdditionalCost | None = None     # 702.42a: mana, or objects (Betrayal of Flesh)
    escalate: str | AdditionalCost | None = None    # 702.120a: mana, or objects (Collective Brutality)
    alternative_costs: tuple[AlternativeCost, ...] = ()
    suspend: Suspend | None = None
    additional_costs: tuple[AdditionalCost, ...] = ()
    targets: tuple[TargetSpec, ...] = ()
    enchant: TargetSpec | None = None          # an Aura (702.5a): its one target as a spell (303.4a)
    spell: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    unmodelled: tuple[str, ...] = ()
    checked: str | None = None
    text_x: TextX | None = None
    divide: int | None = None
    modes: Modes | None = None
    halves: tuple[Face, ...] = ()
    back_face: Face | None = None
    meld: Meld | None = None


def read_catalog(cards: Mapping[str, Any] | list, where: str = "/cards") -> dict[str, Card]:
    """A request's `cards` (name -> entry, or a list of entries) as cards by name."""
    if isinstance(cards, Mapping):
        return {name: Card.from_document(c, f"{where}/{name}") for name, c in cards.items()}
    out = {}
    for i, c in enumerate(cards):
        card = Card.from_document(c, f"{where}/{i}")
        out[card.name] = card
    return out


__all__ = ["AbilityCost", "AdditionalCost", "AlternativeCost", "Card", "CouldProduceSpec", "Face", "Filter", "Flashback",
           "Meld", "ModeOption", "Modes", "Produce", "ProduceCouldProduce", "ProduceOneOf", "ProducePower",
           "PrototypeFace", "SpellFilter", "Suspend", "TargetSpec", "TextX", "read_catalog", "read_effects"]
