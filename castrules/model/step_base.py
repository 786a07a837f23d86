"""The base of every step kind (`Step`), of those that pay with listed mana abilities (`Paying`,
`ManaActivation`), and `read_step`. A step kind's type is known by its kind as soon as its class
is defined, so reading a `{kind: body}` document needs no list here (`castrules.model.steps`
holds `STEP_TYPES`, the one list, which a test keeps equal to what is known here); the kinds
live in `steps` and, the cast with its many choices, in `cast_step`."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .build import Model
from .errors import ModelError, excerpt
from .refs import ObjectRef
from .vocab import ManaType, PayMode

_BY_KIND: dict[str, type[Step]] = {}


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
class Step(Model):
    """Base of every step; `kind` is its key in the case file."""

    kind: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A step kind's type is known by its kind once defined (a base such as `Paying` has none)."""
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind:
            _BY_KIND[kind] = cls

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


def read_step(doc: Any, where: str = "") -> Step:
    """A step document, `{kind: body}`, as its typed step."""
    if not isinstance(doc, Mapping) or len(doc) != 1:
        raise ModelError(where, f"a step is a mapping with exactly one key, got {excerpt(doc)}")
    (kind, body), = doc.items()
    cls = _BY_KIND.get(kind)
    if cls is None:
        raise ModelError(where, f"unknown step kind {kind!r}; expected one of {sorted(_BY_KIND)}")
    return cls.from_document({} if body is None else body, f"{where}/{kind}")


def require_fields(doc: Any, where: str, *keys: str) -> Any:
    """Required fields of a step whose type gives them defaults (a dataclass ordering need)."""
    if isinstance(doc, Mapping):
        missing = [k for k in keys if k not in doc]
        if missing:
            raise ModelError(where, f"needs {', '.join(repr(k) for k in missing)}")
    return doc
