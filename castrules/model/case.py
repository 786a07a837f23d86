"""A case: its setup, its steps and what must be observed (schema/case.schema.json).

`Case` is a whole case file; `PublicCase` is what an engine receives of it (the case without
`HIDDEN_FIELDS`). Both are built with `from_document` from a schema-valid document.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .build import Model, key
from .steps import Step
from .vocab import CardTypeChoice, Color, TurnStep, Zone

# Fields an engine must never see: the answers, and the prose that gives them away.
HIDDEN_FIELDS: tuple[str, ...] = ("expect", "why", "rulings", "title", "notes", "matrix")
# Expectation fields about the state (a snapshot is wanted) and about one step's result.
STATE_FIELDS: tuple[str, ...] = ("players", "objects", "stack")
STEP_FIELDS: tuple[str, ...] = ("legal", "reason", "substep", "total_cost", "life_paid")


class _Unset:
    """A field absent from the document (where null is a meaningful value)."""

    _instance: "_Unset | None" = None

    def __new__(cls) -> "_Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "UNSET"

    @classmethod
    def from_document(cls, doc: Any, where: str) -> "_Unset":
        from .errors import ModelError
        raise ModelError(where, "a value is present")


UNSET = _Unset()
Unset = _Unset


@dataclass(frozen=True)
class PlayerSetup(Model):
    """A player at the start (103.4): life, and mana already in the pool."""

    life: int = 20
    mana_pool: str = ""


@dataclass(frozen=True)
class TurnSetup(Model):
    """Whose turn, which step, which turn number (None: the first player, the precombat main
    phase, turn 1)."""

    active: str | None = None
    step: TurnStep = TurnStep.PRECOMBAT_MAIN
    number: int = 1


@dataclass(frozen=True)
class SetupObject(Model):
    """One object at the start: its card, zone and status."""

    id: str
    card: str
    zone: Zone
    owner: str | None = None
    controller: str | None = None
    tapped: bool = False
    summoning_sick: bool = False
    counters: Mapping[str, int] | None = None
    damage: int = 0
    prototyped: bool = False
    token: bool = False
    transformed: bool = False
    melded_with: str | None = None
    face_down: bool = False                 # exile only: a card exiled face down (406.3)
    may_look: tuple[str, ...] = ()          # the players allowed to look at it while it stays face down (406.3)


@dataclass(frozen=True)
class SetupChoice(Model):
    """A choice made before the case starts for an object ("as it enters, choose ...")."""

    creature_type: str | None = None
    card_type: CardTypeChoice | None = None
    color: Color | None = None
    imprinted: str | None = None
    exiled: str | None = None


@dataclass(frozen=True)
class Setup(Model):
    """The starting state of a case."""

    players: Mapping[str, PlayerSetup]
    turn: TurnSetup = TurnSetup()
    objects: tuple[SetupObject, ...] = ()
    choices: Mapping[str, SetupChoice] | None = None

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping) and isinstance(doc.get("players"), Mapping):
            doc = {**doc, "players": {k: v or {} for k, v in doc["players"].items()}}
        return doc

    def card_names(self) -> frozenset[str]:
        """The catalog cards the case uses: each object's card, and a melded permanent's
        partner card (both cards represent it, 202.3c)."""
        return frozenset({o.card for o in self.objects} | {o.melded_with for o in self.objects if o.melded_with})


@dataclass(frozen=True)
class Ruling(Model):
    """A ruling of a seed document the case checks."""

    seed: str
    ref: str
    card: str | None = None


@dataclass(frozen=True)
class MatrixCell(Model):
    """The coverage-matrix cell a case fills (cases/coverage-matrix.yaml); never sent to engines."""

    modifier: str
    base: str
    zone: str
    step: int | None = None


@dataclass(frozen=True)
class PlayerExpectation(Model):
    life: int | None = None
    mana_pool: str | None = None
    in_game: bool | None = None


@dataclass(frozen=True)
class ObjectExpectation(Model):
    """What an object must look like; UNSET fields are not looked at (None is a value)."""

    zone: str | None = None            # a zone, or "gone"
    controller: str | None = None
    owner: str | None = None
    name: str | None = None
    mana_cost: str | None | Unset = UNSET
    mana_value: int | None = None
    colors: tuple[Color, ...] | None = None
    types: tuple[str, ...] | None = None
    subtypes: tuple[str, ...] | None = None
    supertypes: tuple[str, ...] | None = None
    power: int | None | Unset = UNSET
    toughness: int | None | Unset = UNSET
    tapped: bool | None = None
    counters: Mapping[str, int] | None = None
    damage: int | None = None
    prowl_paid: bool | None = None
    prototyped: bool | None = None
    x: int | None | Unset = UNSET
    y: int | None | Unset = UNSET
    kicked: bool | None = None
    is_copy: bool | None = None


@dataclass(frozen=True)
class Expectation(Model):
    """What must hold after step `after` (an index, or "final" for the last step)."""

    after: int | Literal["final"]
    legal: bool | None = None
    reason: str | None = None
    substep: str | None = None
    total_cost: str | None = None
    life_paid: int | None = None
    players: Mapping[str, PlayerExpectation] | None = None
    objects: Mapping[str, ObjectExpectation] | None = None
    stack: tuple[str, ...] | None = None

    def index(self, steps: int) -> int:
        """The step number this expectation looks after, in a case of `steps` steps."""
        return steps if self.after == "final" else int(self.after)

    @property
    def wants_state(self) -> bool:
        """Whether it looks at the state (so a snapshot is wanted), not only a step result."""
        return any(getattr(self, f) is not None for f in STATE_FIELDS)


@dataclass(frozen=True)
class PublicCase(Model):
    """The case an engine receives: setup and steps, without expectations or prose."""

    id: str
    features: tuple[str, ...]
    setup: Setup
    steps: tuple[Step, ...] = key("steps", ())
    rules: tuple[str, ...] = ()
    format: int = 1
    schema: str | None = key("$schema", None)

    @property
    def area(self) -> str:
        return self.id.split("/", 1)[0]


@dataclass(frozen=True)
class Case(PublicCase):
    """A whole case file."""

    title: str = ""
    why: str = ""
    notes: str | None = None
    matrix: MatrixCell | None = None
    rulings: tuple[Ruling, ...] = ()
    expect: tuple[Expectation, ...] = ()

    def observe_points(self) -> tuple[int, ...]:
        """Step numbers after which the expectations look at the state."""
        last = len(self.steps)
        return tuple(sorted({e.index(last) for e in self.expect if e.wants_state}))


def public_document(doc: Mapping[str, Any]) -> dict:
    """A case document without the fields an engine must not see."""
    return {k: v for k, v in doc.items() if k not in HIDDEN_FIELDS}
