"""The base of every card ability (card.schema.json's `ability`), apart from the kinds, so that
a module of kinds can build on it without importing the registry (castrules.model.abilities)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .build import Model
from .errors import ModelError, excerpt

# every kind's type by its tag: castrules.model.abilities fills it (ABILITY_TYPES) once all are defined
REGISTRY: dict[str, type] = {}


def _effects(doc: Any) -> Any:
    """`effect` may be one effect or a list."""
    if isinstance(doc, Mapping) and isinstance(doc.get("effect"), Mapping):
        return {**doc, "effect": [doc["effect"]]}
    return doc


@dataclass(frozen=True)
class Ability(Model):
    """Base of every ability; `kind` is its tag in the card file."""

    kind: ClassVar[str] = ""

    def wrap_document(self, body: dict) -> Any:
        return {"kind": self.kind, **body}

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        """`Ability.from_document` reads any ability by its `kind`; a kind reads its own."""
        if cls is not Ability:
            return super().from_document(doc, where)
        kind = doc.get("kind") if isinstance(doc, Mapping) else None
        if kind not in REGISTRY:
            raise ModelError(where, f"unknown ability kind {excerpt(kind)}; expected one of {sorted(REGISTRY)}")
        return REGISTRY[kind].from_document(doc, where)

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping):
            doc = _effects({k: v for k, v in doc.items() if k != "kind"})
            missing = [k for k in cls.required if k not in doc]
            if missing:
                raise ModelError(where, f"a {cls.kind} ability needs {missing}")
        return doc

    required: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def document_keys(cls) -> frozenset[str]:
        return super().document_keys() | {"kind"}
