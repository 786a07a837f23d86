"""The steps of a case: one frozen type per step kind (the cast's, with every choice spelled out,
in `cast_step`; their base and `read_step` in `step_base`). `STEP_TYPES` maps each step kind (a
step document's single key) to its type. The harness checks, the generator and the oracle all
dispatch on these types, so a step kind exists in one place (tests/model/test_model_contract.py
ties it to the schema). A string naming an object or a player is typed so (`castrules.model.refs`):
the checks that names exist walk them."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .build import key
from .cast_step import Cast, Reduction
from .refs import AbilityRef, AnyRef, NewObjectId, ObjectRef, PlayerRef
from .step_base import ManaActivation, Paying, Step, pays_automatically, read_step, require_fields
from .vocab import ManaType, SpecialActionName, TurnStep, TypeChangeMode

# Cast, Reduction, ManaActivation, pays_automatically and read_step are still importable from here
__all__ = ["STEP_TYPES", "Cast", "ManaActivation", "Paying", "Reduction", "Step", "pays_automatically", "read_step"]


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
        return require_fields(doc, where, "player", "object")


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
        return super().normalise(require_fields(doc, where, "player", "object"), where)


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
        return super().normalise(require_fields(doc, where, "player", "object", "action"), where)


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
        return require_fields(doc, where, "object", "to")


@dataclass(frozen=True)
class ChangeTypes(ObjectAction):
    """An effect changes an object's creature types until end of turn (613.1d)."""

    kind: ClassVar[str] = "change_types"
    mode: TypeChangeMode = TypeChangeMode.SET
    creature_types: tuple[str, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return require_fields(doc, where, "object", "mode")


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
        return require_fields(doc, where, "object", "new_id")


@dataclass(frozen=True)
class CopySpellForEach(ObjectAction):
    """Copy a spell for each candidate it could target (707.10d): candidate -> copy id."""

    kind: ClassVar[str] = "copy_spell_for_each"
    new_ids: Mapping[AnyRef, NewObjectId] = key("new_ids", None)
    controller: PlayerRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return require_fields(doc, where, "object", "new_ids")


@dataclass(frozen=True)
class CopyAbility(ObjectAction):
    """Copy a triggered or activated ability on the stack (707.10; the effect of Strionic
    Resonator or Lithoform Engine): same source (707.10b), same targets and decisions."""

    kind: ClassVar[str] = "copy_ability"
    object: AbilityRef
    new_id: NewObjectId = ""
    controller: PlayerRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return require_fields(doc, where, "object", "new_id")


@dataclass(frozen=True)
class CopyPermanent(ObjectAction):
    kind: ClassVar[str] = "copy_permanent"
    new_id: NewObjectId = ""
    controller: PlayerRef | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return require_fields(doc, where, "object", "new_id")


@dataclass(frozen=True)
class BecomeCopy(ObjectAction):
    """A permanent becomes a copy of another (707.2)."""

    kind: ClassVar[str] = "become_copy"
    of: ObjectRef = ""

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return require_fields(doc, where, "object", "of")


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
    CopySpell, CopySpellForEach, CopyAbility, CopyPermanent, BecomeCopy, SpecialAction, LeaveGame, LoseLife,
    GainLife, PayManaCost)}
