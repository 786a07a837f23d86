"""The steps of a case: one frozen type per step kind, the cast with every choice spelled out.
`STEP_TYPES` maps each step kind (a step document's single key) to its type; `read_step` builds
one. The harness checks, the generator and the oracle all dispatch on these types, so a step kind
exists in one place (tests/model/test_model_contract.py ties it to the schema). A string naming an
object or a player is typed so (`castrules.model.refs`): the checks that names exist walk them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .build import Model, key
from .errors import ModelError, excerpt
from .refs import AnyRef, NewObjectId, ObjectRef, PlayerRef
from .vocab import ManaType, PayMode, SpecialActionName, TurnStep, TypeChangeMode


@dataclass(frozen=True)
class ManaActivation(Model):
    """A mana ability activated while paying (605.3): which one, which mana, what it sacrifices
    and in which order replacement effects apply (616.1); None = the engine chooses."""

    object: ObjectRef
    ability: int = 0
    produce: ManaType | None = None
    sacrifice: tuple[ObjectRef, ...] | None = None
    replacements: tuple[ObjectRef, ...] | None = None


@dataclass(frozen=True)
class Reduction(Model):
    """A cost reduction the caster applies, with its choice if it asks for one (601.2f)."""

    source: ObjectRef
    choice: str | None = None


@dataclass(frozen=True)
class Step(Model):
    """Base of every step; `kind` is its key in the case file."""

    kind: ClassVar[str] = ""

    def wrap_document(self, body: dict) -> Any:
        return {self.kind: body}

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        """`Step.from_document` reads a `{kind: body}` document; a step type reads its body."""
        if cls is Step:
            return read_step(doc, where)
        return super().from_document(doc, where)


def pays_automatically(pay: str | None, lists_mana_abilities: bool) -> bool:
    """Whether a paying step leaves finding the payment to the engine (docs/case-format.md):
    `pay: auto`; without `pay`, only when the step gives no `mana_abilities` at all (an empty
    list pays from the pool only). The one definition: the model's steps and the harness's
    contract (which reads raw documents) both ask it."""
    return pay == PayMode.AUTO if pay is not None else not lists_mana_abilities


@dataclass(frozen=True)
class Paying(Step):
    """A step whose costs are paid with listed mana abilities, then (pay: auto) by the engine."""

    mana_abilities: tuple[ManaActivation, ...] = ()
    pay: PayMode | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        """`mana_abilities` given without `pay` is the long form's `pay: listed`: an empty list
        then still means "from the pool only" once read (and written back by to_document)."""
        listed = isinstance(doc, Mapping) and "pay" not in doc and "mana_abilities" in doc
        return {**doc, "pay": PayMode.LISTED.value} if listed else doc

    @property
    def auto_pay(self) -> bool:
        return pays_automatically(self.pay, bool(self.mana_abilities))


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
    life_for_mana: Mapping[str, int] | None = None  # 601.2h: colour -> symbols paid with life (K'rrik)

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        doc = super().normalise(_require(doc, where, "player", "object"), where)
        alt = doc.get("alternative_cost")
        return {**doc, "alternative_cost": [alt]} if isinstance(alt, str) else doc


@dataclass(frozen=True)
class ActivateMana(Step):
    """Activate a mana ability outside a payment (605.3a)."""

    kind: ClassVar[str] = "activate_mana"
    player: PlayerRef = ""
    object: ObjectRef = ""
    ability: int = 0
    produce: ManaType | None = None
    sacrifice: tuple[ObjectRef, ...] | None = None
    replacements: tuple[ObjectRef, ...] | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "player", "object")


@dataclass(frozen=True)
class Activate(Paying):
    """Activate a non-mana activated ability (602.2)."""

    kind: ClassVar[str] = "activate"
    player: PlayerRef = ""
    object: ObjectRef = ""
    ability: int = 0
    x: int | None = None
    targets: tuple[AnyRef, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return super().normalise(_require(doc, where, "player", "object"), where)


@dataclass(frozen=True)
class SpecialAction(Paying):
    """Take a special action (116); suspend is the one modelled."""

    kind: ClassVar[str] = "special_action"
    player: PlayerRef = ""
    object: ObjectRef = ""
    action: SpecialActionName = SpecialActionName.SUSPEND
    x: int | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return super().normalise(_require(doc, where, "player", "object", "action"), where)


@dataclass(frozen=True)
class Attack(Step):
    """Declare attackers (508.1)."""

    kind: ClassVar[str] = "attack"
    player: PlayerRef
    attackers: tuple[ObjectRef, ...]
    defender: PlayerRef


@dataclass(frozen=True)
class Block(Step):
    """Declare blockers (509.1): blocker -> attacker."""

    kind: ClassVar[str] = "block"
    player: PlayerRef
    blockers: Mapping[ObjectRef, ObjectRef]


@dataclass(frozen=True)
class CombatDamage(Step):
    """Combat damage is dealt (510)."""

    kind: ClassVar[str] = "combat_damage"


@dataclass(frozen=True)
class DealDamage(Step):
    """A test action: `source` deals damage to a player or an object (120)."""

    kind: ClassVar[str] = "deal_damage"
    source: ObjectRef
    to: AnyRef
    amount: int


@dataclass(frozen=True)
class MoveTo(Step):
    """The game moves on to a step of this turn."""

    kind: ClassVar[str] = "move_to"
    step: TurnStep


@dataclass(frozen=True)
class NextTurn(Step):
    """The game moves on to the next turn."""

    kind: ClassVar[str] = "next_turn"


@dataclass(frozen=True)
class Resolve(Step):
    """The top object of the stack resolves (608), with the choices it asks for."""

    kind: ClassVar[str] = "resolve"
    choices: Mapping[str, Any] | None = None      # read by what resolves (castrules.model.choices)


@dataclass(frozen=True)
class ObjectAction(Step):
    """A test action on one object."""

    object: ObjectRef


@dataclass(frozen=True)
class Destroy(ObjectAction):
    kind: ClassVar[str] = "destroy"


@dataclass(frozen=True)
class Exile(ObjectAction):
    kind: ClassVar[str] = "exile"


@dataclass(frozen=True)
class ReturnToHand(ObjectAction):
    kind: ClassVar[str] = "return_to_hand"


@dataclass(frozen=True)
class Sacrifice(ObjectAction):
    kind: ClassVar[str] = "sacrifice"


@dataclass(frozen=True)
class Blink(ObjectAction):
    """Exile an object and return it to the battlefield (a new object, 400.7)."""

    kind: ClassVar[str] = "blink"


@dataclass(frozen=True)
class ReturnToBattlefield(ObjectAction):
    kind: ClassVar[str] = "return_to_battlefield"
    controller: PlayerRef | None = None


@dataclass(frozen=True)
class ChangeControl(ObjectAction):
    kind: ClassVar[str] = "change_control"
    to: PlayerRef = ""

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "to")


@dataclass(frozen=True)
class ChangeTypes(ObjectAction):
    """An effect changes an object's creature types until end of turn (613.1d)."""

    kind: ClassVar[str] = "change_types"
    mode: TypeChangeMode = TypeChangeMode.SET
    creature_types: tuple[str, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "mode")


@dataclass(frozen=True)
class CopySpell(ObjectAction):
    """Copy a spell (707.10), keeping or changing its targets (707.10c, 707.10e)."""

    kind: ClassVar[str] = "copy_spell"
    new_id: NewObjectId = ""
    controller: PlayerRef | None = None
    targets: tuple[AnyRef, ...] | None = None
    target: AnyRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "new_id")


@dataclass(frozen=True)
class CopySpellForEach(ObjectAction):
    """Copy a spell for each candidate it could target (707.10d): candidate -> copy id."""

    kind: ClassVar[str] = "copy_spell_for_each"
    new_ids: Mapping[AnyRef, NewObjectId] = key("new_ids", None)
    controller: PlayerRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "new_ids")


@dataclass(frozen=True)
class CopyPermanent(ObjectAction):
    kind: ClassVar[str] = "copy_permanent"
    new_id: NewObjectId = ""
    controller: PlayerRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "new_id")


@dataclass(frozen=True)
class BecomeCopy(ObjectAction):
    """A permanent becomes a copy of another (707.2)."""

    kind: ClassVar[str] = "become_copy"
    of: ObjectRef = ""

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return _require(doc, where, "object", "of")


@dataclass(frozen=True)
class LeaveGame(Step):
    kind: ClassVar[str] = "leave_game"
    player: PlayerRef


@dataclass(frozen=True)
class LifeChange(Step):
    player: PlayerRef
    amount: int


@dataclass(frozen=True)
class LoseLife(LifeChange):
    kind: ClassVar[str] = "lose_life"


@dataclass(frozen=True)
class GainLife(LifeChange):
    kind: ClassVar[str] = "gain_life"


@dataclass(frozen=True)
class PayManaCost(Step):
    """A test action: a player pays an object's mana cost (107.3h)."""

    kind: ClassVar[str] = "pay_mana_cost"
    player: PlayerRef
    object: ObjectRef


STEP_TYPES: Mapping[str, type[Step]] = {t.kind: t for t in (
    Cast, ActivateMana, Activate, Attack, Block, CombatDamage, DealDamage, MoveTo, NextTurn, Resolve,
    Destroy, Exile, ReturnToHand, Sacrifice, Blink, ReturnToBattlefield, ChangeControl, ChangeTypes,
    CopySpell, CopySpellForEach, CopyPermanent, BecomeCopy, SpecialAction, LeaveGame, LoseLife, GainLife,
    PayManaCost)}


def read_step(doc: Any, where: str = "") -> Step:
    """A step document, `{kind: body}`, as its typed step."""
    if not isinstance(doc, Mapping) or len(doc) != 1:
        raise ModelError(where, f"a step is a mapping with exactly one key, got {excerpt(doc)}")
    (kind, body), = doc.items()
    cls = STEP_TYPES.get(kind)
    if cls is None:
        raise ModelError(where, f"unknown step kind {kind!r}; expected one of {sorted(STEP_TYPES)}")
    return cls.from_document({} if body is None else body, f"{where}/{kind}")


def _require(doc: Any, where: str, *keys: str) -> Any:
    """Required fields of a step whose type gives them defaults (a dataclass ordering need)."""
    if isinstance(doc, Mapping):
        missing = [k for k in keys if k not in doc]
        if missing:
            raise ModelError(where, f"needs {', '.join(repr(k) for k in missing)}")
    return doc
