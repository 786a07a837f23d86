"""What the string fields of a step name: an object, a player, either, or an object it makes.

The case schema types those strings as `object_id`, `player` and `ref`; the model says the
same with the `Annotated` aliases below (plain `str` to the reader, which strips them). So a
tool that must follow references, such as `castrules validate` checking that every name a step
uses exists by then, walks `ref_fields(StepType)` and lists no field names of its own; a new
step kind or field is checked as soon as the model has it (tests/model/test_model_refs.py ties
the roles to the schema).
"""
from __future__ import annotations

import collections.abc
import dataclasses
import functools
import types
import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from .build import Model, doc_key


class RefRole(StrEnum):
    """What one string names."""

    OBJECT = "object"          # an object set up, made by an earlier step, or a token an effect made (schema: object_id)
    PLAYER = "player"          # a player of the setup (schema: player)
    EITHER = "either"          # a player or an object, such as a target (schema: ref)
    NEW_OBJECT = "new_object"  # the id of an object this step makes (schema: object_id, not yet known)
    ABILITY = "ability"        # an object or an ability on the stack a known object made, `spear_trigger` (schema: object_id)


ObjectRef = Annotated[str, RefRole.OBJECT]
PlayerRef = Annotated[str, RefRole.PLAYER]
AnyRef = Annotated[str, RefRole.EITHER]
NewObjectId = Annotated[str, RefRole.NEW_OBJECT]
AbilityRef = Annotated[str, RefRole.ABILITY]


@dataclass(frozen=True)
class RefField:
    """One field of a model type that names things, directly or in a nested value.

    `role` is what the value names (each item of a list, each value of a mapping); `key_role`
    what each key of a mapping names; `nested` a model type (or a list of them) whose own fields
    name things."""

    key: str
    role: RefRole | None = None
    key_role: RefRole | None = None
    many: bool = False
    mapping: bool = False
    nested: type[Model] | None = None


@functools.cache
def ref_fields(cls: type) -> tuple[RefField, ...]:
    """The fields of `cls` that name things, in declaration order (document keys).

    Cached per class: a class's fields never change, and resolving its type hints for every step
    of every case made this the largest single cost of loading the suite."""
    hints = typing.get_type_hints(cls, include_extras=True)
    found = (_describe(doc_key(f), hints[f.name]) for f in dataclasses.fields(cls))
    return tuple(f for f in found if f is not None)


def role_of(hint: Any) -> RefRole | None:
    """The role an `Annotated` alias gives a string (None for any other type)."""
    if typing.get_origin(hint) is Annotated:
        return next((m for m in hint.__metadata__ if isinstance(m, RefRole)), None)
    return None


def _describe(key: str, hint: Any) -> RefField | None:
    hint = _without_none(hint)
    if (role := role_of(hint)) is not None:
        return RefField(key, role)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and args:
        inner = _without_none(args[0])
        if (role := role_of(inner)) is not None:
            return RefField(key, role, many=True)
        return RefField(key, many=True, nested=inner) if _is_model(inner) else None
    if origin in (dict, collections.abc.Mapping):
        key_role, role = (role_of(args[0]), role_of(args[1])) if len(args) == 2 else (None, None)
        return RefField(key, role, key_role, mapping=True) if key_role or role else None
    return RefField(key, nested=hint) if _is_model(hint) else None


def _without_none(hint: Any) -> Any:
    """`X | None` as `X` (an optional field names the same thing when present)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return hint


def _is_model(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Model)
