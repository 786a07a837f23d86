"""Abilities of cards (card.schema.json's `ability`): one frozen type per `kind`.

`ABILITY_TYPES` maps each kind to its type; `Ability.from_document` reads any of them.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .ability_base import REGISTRY, Ability
from .build import Model, key
from .cost_abilities import CostFloor, CostSet
from .effects import Effect
from .errors import ModelError
from .parts import AbilityCost, CopyExceptions, Filter, Produce, SpellFilter, TargetSpec, Whose
from .trigger_events import Trigger

# what a cost modifier counts, at 601.2f, for its `per` (affinity 702.41a, undaunted 702.125a)
PerCount = Literal["artifacts_you_control", "creatures_you_control", "attacking_creatures_you_control", "creatures",
                   "opponents", "instant_and_sorcery_spells_you_cast_this_turn",
                   "total_power_of_creatures_you_control", "greatest_power_among_creatures_you_control"]
Permanents = Literal["you", "all"]


@dataclass(frozen=True)
class ManaAbility(Ability):
    """An activated mana ability (605.1a); `spend_only`, `spend_abilities` and `spend_not`
    restrict how its mana may be spent (106.6)."""

    kind: ClassVar[str] = "mana"
    required: ClassVar[tuple[str, ...]] = ("cost", "add")
    cost: AbilityCost = None  # type: ignore[assignment]
    add: Produce = ""
    spend_only: Filter | None = None
    spend_abilities: Filter | None = None
    spend_not: Filter | None = None


@dataclass(frozen=True)
class ActivatedAbility(Ability):
    """A non-mana activated ability (602)."""

    kind: ClassVar[str] = "activated"
    required: ClassVar[tuple[str, ...]] = ("cost", "effect")
    cost: AbilityCost = None  # type: ignore[assignment]
    targets: tuple[TargetSpec, ...] = ()
    effect: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class CostModifier(Ability):
    """Matching spells cost more or less (118.7), `per` times a count, `while` untapped. The
    count is taken once, as the total cost is determined (601.2f), and locked in with it."""

    kind: ClassVar[str] = "cost_modifier"
    required: ClassVar[tuple[str, ...]] = ("change", "amount", "spells")
    change: Literal["increase", "reduce"] = "increase"
    amount: str = ""
    spells: SpellFilter = None  # type: ignore[assignment]
    whose: Whose | None = None
    per: PerCount | None = None
    while_: Literal["untapped"] | None = key("while", None)
    only_coloured: bool = False     # a reduction of coloured mana that never spills onto generic
    chosen_type: bool = False       # only spells of the creature type chosen for its source
    chosen_card_type: bool = False  # only spells of the card type chosen for its source (Cloud Key)
    imprinted_types: bool = False   # only spells sharing a card type with the card it imprinted (Semblance Anvil)


@dataclass(frozen=True)
class Delve(Ability):
    """Delve (702.66a): once the total is locked, each card exiled from the caster's graveyard
    pays one generic mana of it (`cast: {delve: [...]}`); several instances are one (702.66c)."""

    kind: ClassVar[str] = "delve"


@dataclass(frozen=True)
class Improvise(Ability):
    """Improvise (702.126a): once the total is locked, each untapped artifact the caster taps
    pays one generic mana of it (`cast: {improvise: [...]}`); several instances are one (702.126c).
    With `spells`, a permanent's ability giving improvise to the spells matching the filter that
    its controller casts (Inspiring Statuary: nonartifact spells), not the permanent's own."""

    kind: ClassVar[str] = "improvise"
    spells: Filter | None = None


@dataclass(frozen=True)
class GrantProwl(Ability):
    kind: ClassVar[str] = "grant_prowl"
    required: ClassVar[tuple[str, ...]] = ("cost", "spells")
    cost: str = ""
    spells: Filter = None  # type: ignore[assignment]
    whose: Permanents | None = None


@dataclass(frozen=True)
class TypeChange(Ability):
    kind: ClassVar[str] = "type_change"
    required: ClassVar[tuple[str, ...]] = ("mode",)
    mode: Literal["set", "add", "all"] = "set"
    creature_type: str | None = None


@dataclass(frozen=True)
class DefinePT(Ability):
    """A characteristic-defining ability setting power and toughness from a count, in every
    zone (604.3, 208.2a): Tarmogoyf, Lhurgoyf."""

    kind: ClassVar[str] = "define_pt"
    required: ClassVar[tuple[str, ...]] = ("count",)
    count: Literal["card_types_in_graveyards", "creature_cards_in_graveyards"] = "card_types_in_graveyards"
    power_plus: int = 0
    toughness_plus: int = 0


@dataclass(frozen=True)
class AnimateAll(Ability):
    """Each noncreature permanent of `card_type` is also a creature with power and toughness each
    equal to its mana value (March of the Machines): layer 4 and layer 7b (613.1d, 613.4b)."""

    kind: ClassVar[str] = "animate_all"
    required: ClassVar[tuple[str, ...]] = ("card_type",)
    card_type: Literal["Artifact"] = "Artifact"


@dataclass(frozen=True)
class PumpPer(Ability):
    """The permanent itself gets +power/+toughness for each other permanent matching the filter
    (Zinnia, Valley's Voice: each other creature you control with base power 1, 208.4b); layer 7c
    (613.4c), on the battlefield only."""

    kind: ClassVar[str] = "pump_per"
    required: ClassVar[tuple[str, ...]] = ("permanents",)
    permanents: Filter = Filter()
    power: int = 0
    toughness: int = 0


@dataclass(frozen=True)
class AddColor(Ability):
    """Every card, spell and permanent is this colour as well as its own (105.3; Painter's
    Servant); `chosen` reads the source's chosen colour."""

    kind: ClassVar[str] = "add_color"
    required: ClassVar[tuple[str, ...]] = ("color",)
    color: Literal["chosen", "W", "U", "B", "R", "G"] = "chosen"


@dataclass(frozen=True)
class ManaReplacement(Ability):
    """Tapped for mana, a matching permanent produces other mana or more (106.12b)."""

    kind: ClassVar[str] = "mana_replacement"
    required: ClassVar[tuple[str, ...]] = ("permanents",)
    permanents: Filter = None  # type: ignore[assignment]
    whose: Permanents | None = None
    produce: str | None = None
    multiply: int | None = None


@dataclass(frozen=True)
class ManaTrigger(Ability):
    """Tapped for mana, a matching permanent triggers: more mana or an effect (106.12a, 605.4a)."""

    kind: ClassVar[str] = "mana_trigger"
    required: ClassVar[tuple[str, ...]] = ("permanents",)
    permanents: Filter = None  # type: ignore[assignment]
    whose: Permanents | None = None
    produced: str | None = None
    add: str | None = None
    to: Literal["tapper", "you"] | None = None
    effect: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class CastPermission(Ability):
    kind: ClassVar[str] = "cast_permission"
    required: ClassVar[tuple[str, ...]] = ("from",)
    from_zones: tuple[Literal["hand", "graveyard", "exile", "library", "command"], ...] = key("from", ())
    spells: Filter | None = None
    without_paying_mana_cost: bool = False
    own: bool = key("self", False)       # the card's own "you may cast this card from ..." (601.3)
    exiled_with: bool = False            # only the card exiled with the source (607.2: choices `exiled`)
    any_type: bool = False               # mana of any type can be spent on the spells cast through it (118.14)
    during: Literal["your_turn"] | None = None   # only during its controller's own turns (Lurrus, Karador, Kess)
    per_turn: int | None = None          # at most this many spells cast through it each turn


@dataclass(frozen=True)
class FlashPermission(Ability):
    """Matching spells may be cast as though they had flash (601.3b, 601.3c)."""

    kind: ClassVar[str] = "flash_permission"
    required: ClassVar[tuple[str, ...]] = ("spells",)
    spells: Filter = None  # type: ignore[assignment]
    extra_cost: str | None = None
    alternative_cost: Literal["prowl", "evoke", "test_alternative"] | None = None


@dataclass(frozen=True)
class ConditionalFlash(Ability):
    kind: ClassVar[str] = "conditional_flash"
    required: ClassVar[tuple[str, ...]] = ("permanents",)
    permanents: Filter = None  # type: ignore[assignment]


@dataclass(frozen=True)
class EnterAbility(Ability):
    """An enters-the-battlefield ability: a trigger, or (trigger: false) a replacement."""

    kind: ClassVar[str] = "etb"
    required: ClassVar[tuple[str, ...]] = ("effect",)
    trigger: bool = True
    condition: Literal["prowl_paid", "not_prowl_paid", "kicked", "not_kicked", "awakened", "cast"] | None = key("if", None)
    targets: tuple[TargetSpec, ...] = ()
    effect: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class EntersAsCopy(Ability):
    """As this permanent spell resolves its controller may have it enter as a copy of a
    permanent (`from: graveyard`: a card in a graveyard) matching `of`, with the exceptions
    `except` (707.9; Phyrexian Metamorph); the `resolve` step's choice `copy` names it, none: it
    enters as itself. `exile_copied`: a triggered ability linked to the copy effect exiles the
    card copied (Superior Spider-Man), unless another copy effect is applied after it (707.9g)."""

    kind: ClassVar[str] = "enters_as_copy"
    required: ClassVar[tuple[str, ...]] = ("of",)
    of: Filter = None  # type: ignore[assignment]
    zone: Literal["battlefield", "graveyard"] = key("from", "battlefield")
    exceptions: CopyExceptions = key("except", CopyExceptions())
    exile_copied: bool = False      # a linked trigger in its paragraph (603.11): exile the card copied (707.9g)


@dataclass(frozen=True)
class EnchantedCopy(Ability):
    """An Aura's static ability: the permanent it enchants is a copy of the permanent matching `of`
    chosen as the Aura entered (the `resolve` step's choice `copy`), with the copiable values it
    had then (707.2c; Metamorphic Alteration), while the Aura stays attached to it (611.3a)."""

    kind: ClassVar[str] = "enchanted_copy"
    required: ClassVar[tuple[str, ...]] = ("of",)
    of: Filter = None  # type: ignore[assignment]


@dataclass(frozen=True)
class SpendAsAnyType(Ability):
    """Its controller may spend mana as though it were mana of any type to cast matching spells
    (609.4b; Vizier of the Menagerie)."""

    kind: ClassVar[str] = "spend_as_any_type"
    required: ClassVar[tuple[str, ...]] = ("spells",)
    spells: Filter = None  # type: ignore[assignment]


@dataclass(frozen=True)
class ExileInsteadOfGraveyard(Ability):
    """A card or token that would be put into a graveyard from anywhere is exiled instead
    (614.1a; Rest in Peace); a cost paid that way is still paid (118.11)."""

    kind: ClassVar[str] = "exile_instead_of_graveyard"


@dataclass(frozen=True)
class LifeForMana(Ability):
    """For each symbol of `color` in a cost its controller pays, they may pay `life` life
    instead (K'rrik), chosen as the locked total is paid (601.2h)."""

    kind: ClassVar[str] = "life_for_mana"
    required: ClassVar[tuple[str, ...]] = ("color", "life")
    color: Literal["W", "U", "B", "R", "G"] = "B"
    life: int = 2


@dataclass(frozen=True)
class KeywordGrant(Ability):
    kind: ClassVar[str] = "keyword_grant"
    required: ClassVar[tuple[str, ...]] = ("keyword", "permanents")
    keyword: str = ""
    permanents: Filter = None  # type: ignore[assignment]
    whose: Permanents | None = None


@dataclass(frozen=True)
class CastProhibition(Ability):
    """Matching spells can't be cast (601.3); with `from`, only when cast from one of those zones
    (Grafdigger's Cage: graveyards and libraries), whatever the zone where the card is cast from."""

    kind: ClassVar[str] = "cast_prohibition"
    required: ClassVar[tuple[str, ...]] = ("spells",)
    players: Literal["opponents", "you", "all"] | None = None
    spells: Filter = None  # type: ignore[assignment]
    from_zones: tuple[Literal["hand", "graveyard", "exile", "library", "command"], ...] = key("from", ())


@dataclass(frozen=True)
class StaticCostChange(Model):
    """The body of a spelled-out static cost increase or reduction."""

    amount: str
    spells: SpellFilter
    whose: Whose | None = None
    per: str | None = None
    while_: Literal["untapped"] | None = key("while", None)


@dataclass(frozen=True)
class StaticProhibition(Model):
    spells: Filter
    players: Literal["opponents", "you", "all"] | None = None


@dataclass(frozen=True)
class StaticAbility(Ability):
    """The spelled-out form of a static ability: exactly one of its fields."""

    kind: ClassVar[str] = "static"
    cost_increase: StaticCostChange | None = None
    cost_reduction: StaticCostChange | None = None
    cast_prohibition: StaticProhibition | None = None
    abilities_of: Filter | None = None              # it has every activated ability of the other matching permanents
    activation_any_color: bool = False              # mana as though of any colour pays its abilities' activation costs (602.1e)
    activation_cost_increase: str | None = None     # non-mana activated abilities cost this much more (602.2b, 601.2f)
    activation_cost_reduction: str | None = None    # non-mana abilities its controller activates cost this much less, not below one mana

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        doc = super().normalise(doc, where)
        if isinstance(doc, Mapping) and len(doc) != 1:
            raise ModelError(where, "a static ability names exactly one effect")
        return doc


@dataclass(frozen=True)
class GrantAbility(Ability):
    """Matching permanents have this activated ability (107.3j)."""

    kind: ClassVar[str] = "grant_ability"
    required: ClassVar[tuple[str, ...]] = ("permanents", "ability")
    permanents: Filter = None  # type: ignore[assignment]
    whose: Permanents | None = None
    ability: Ability = None  # type: ignore[assignment]


@dataclass(frozen=True)
class TriggeredAbility(Ability):
    """The spelled-out form of a triggered ability: on tapping for mana, a creature dying, or a spell cast."""

    kind: ClassVar[str] = "triggered"
    required: ClassVar[tuple[str, ...]] = ("trigger", "effect")
    trigger: Trigger = None  # type: ignore[assignment]
    effect: tuple[Effect, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        doc = super().normalise(doc, where)
        trig = doc.get("trigger") if isinstance(doc, Mapping) else None
        if isinstance(trig, Mapping) and "tapped_for_mana" in trig and trig["tapped_for_mana"] is None:
            doc = {**doc, "trigger": {"tapped_for_mana": {}}}
        return doc


ABILITY_TYPES: Mapping[str, type[Ability]] = {t.kind: t for t in (
    ManaAbility, ActivatedAbility, CostModifier, CostFloor, CostSet, Delve, Improvise, GrantProwl, TypeChange, DefinePT, PumpPer, AnimateAll, AddColor,
    ManaReplacement, ManaTrigger,
    CastPermission, FlashPermission, ConditionalFlash, EnterAbility, EntersAsCopy, EnchantedCopy, KeywordGrant, CastProhibition, StaticAbility,
    GrantAbility, TriggeredAbility, LifeForMana, SpendAsAnyType, ExileInsteadOfGraveyard)}
REGISTRY.update(ABILITY_TYPES)
