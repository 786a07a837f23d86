"""What an engine answers for one request (protocol.schema.json's `result`).

Engines may add fields of their own to a step result or a snapshot; the model reads the
fields the format defines and ignores the rest (`open` types), as the schema does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping

from .build import Model, build
from .case import UNSET, Unset
from .errors import ModelError, excerpt


class OpenModel(Model):
    """A model whose documents may carry extra fields (kept out of the typed value)."""

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        if isinstance(doc, Mapping):
            known = cls.document_keys()
            doc = {k: v for k, v in doc.items() if k in known}
        return build(cls, doc, where)


@dataclass(frozen=True)
class StepResult(OpenModel):
    """One step's outcome: legal or not, why (a reason code) and at which 601.2 sub-step, the
    locked total cost (None when the step had none) and the life paid."""

    legal: bool
    reason: str | None = None
    substep: str | None = None
    total_cost: str | None | Unset = UNSET
    life_paid: int | None = None


@dataclass(frozen=True)
class ObservedPlayer(OpenModel):
    life: int | None = None
    mana_pool: str | None = None
    in_game: bool | None = None


@dataclass(frozen=True)
class ObservedObject(OpenModel):
    """An object as a snapshot shows it (the fields an expectation may look at)."""

    zone: str | None = None
    controller: str | None = None
    owner: str | None = None
    name: str | None = None
    mana_cost: str | None = None
    mana_value: int | None = None
    colors: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None
    subtypes: tuple[str, ...] | None = None
    supertypes: tuple[str, ...] | None = None
    power: int | None = None
    toughness: int | None = None
    tapped: bool | None = None
    counters: Mapping[str, int] | None = None
    damage: int | None = None
    prowl_paid: bool | None = None
    prototyped: bool | None = None
    x: int | None = None
    y: int | None = None
    kicked: bool | None = None
    is_copy: bool | None = None


@dataclass(frozen=True)
class Snapshot(OpenModel):
    """The game after a step: players, objects by id, the stack from bottom to top."""

    players: Mapping[str, ObservedPlayer] | None = None
    objects: Mapping[str, ObservedObject] | None = None
    stack: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Result(Model):
    """Base of the three answers; `status` is its tag."""

    status: ClassVar[str] = ""

    def wrap_document(self, body: dict) -> Any:
        return {"status": self.status, **body}

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        """`Result.from_document` reads any answer, by its `status`."""
        if cls is not Result:
            return super().from_document(doc, where)
        status = doc.get("status") if isinstance(doc, Mapping) else None
        for kind in (Observations, Skipped, Errored):
            if kind.status == status:
                return kind.from_document(doc, where)
        raise ModelError(where, f"a result's status is ok, skipped or errored, got {excerpt(status)}")

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return {k: v for k, v in doc.items() if k != "status"} if isinstance(doc, Mapping) else doc


@dataclass(frozen=True)
class Observations(Result):
    """status ok: one result per step, the snapshots asked for (by step number), a trace."""

    status: ClassVar[str] = "ok"
    steps: tuple[StepResult, ...]
    snapshots: Mapping[str, Snapshot]
    trace: tuple[Mapping[str, Any], ...] = ()

    def snapshot(self, after: int) -> Snapshot | None:
        return self.snapshots.get(str(after))


@dataclass(frozen=True)
class Skipped(Result):
    """status skipped: the engine declines the case, saying why."""

    status: ClassVar[str] = "skipped"
    reason: str
    issue_url: str | None = None


@dataclass(frozen=True)
class Errored(Result):
    """status errored: the engine could not run the case."""

    status: ClassVar[str] = "errored"
    message: str
    context: Any = None


RESULT_TYPES: tuple[type[Result], ...] = (Observations, Skipped, Errored)
