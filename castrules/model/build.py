"""Building frozen values from schema-shaped documents: the one place documents become types.

Every model class is a frozen dataclass deriving from `Model`. Its fields name the document's
keys (a field whose key differs, such as `from`, says so with `key(...)`), and its type hints
say how each value is converted: nested models, tuples, mappings, enums, optional values. So
the model and the schema can be compared field by field (tests/model/test_model_contract.py) and no
consumer restates the format by hand.
"""
from __future__ import annotations

import collections.abc
import dataclasses
import enum
import functools
import inspect
import re
import sys
import types
import typing
from collections.abc import Mapping   # not typing's: isinstance checks against it are several times slower
from typing import Any, Callable, ClassVar

from .errors import ModelError, excerpt

Converter = Callable[[Any, str], Any]
_MISSING = dataclasses.MISSING


def key(name: str, default: Any = _MISSING, **kwargs: Any) -> Any:
    """A field whose document key is `name` (a Python keyword or a clearer attribute name)."""
    if default is not _MISSING:
        kwargs["default"] = default
    return dataclasses.field(metadata={"key": name}, **kwargs)


def doc_key(f: dataclasses.Field) -> str:
    """The document key of a dataclass field."""
    return f.metadata.get("key", f.name)


class Model:
    """Base of every model value: `from_document` builds it from a schema-valid document.

    A subclass may override `normalise` to turn a shorthand spelling into the long form before
    the fields are read (the schema allows both); it never invents values the document lacks.
    """

    __plans__: ClassVar[dict[type, tuple]] = {}

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return doc

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        """Build this value from `doc` (a mapping as the schema describes it); `where` is the
        JSON pointer of `doc` for error messages."""
        return build(cls, cls.normalise(doc, where), where)

    def wrap_document(self, body: dict) -> Any:
        """The document of this value given its fields' document (a tagged type adds its tag)."""
        return body

    @classmethod
    def document_keys(cls) -> frozenset[str]:
        """The document keys this type reads (for the contract test and for checks)."""
        return frozenset(doc_key(f) for f in dataclasses.fields(cls))  # type: ignore[arg-type]


def build(cls: type, doc: Any, where: str) -> Any:
    """The generic reader: every key known, required ones present, each value converted."""
    if type(doc) is not dict and not isinstance(doc, Mapping):     # a dict first: the ABC check is slower
        raise ModelError(where, f"expected a mapping for {cls.__name__}, got {excerpt(doc)}")
    plan = _plan(cls)
    known = _KNOWN[cls]
    extra = [k for k in doc if k not in known] if not known.issuperset(doc) else ()
    if extra:
        raise ModelError(where, f"unknown field(s) {sorted(map(str, extra))} for {cls.__name__}; "
                                f"expected some of {sorted(known)}")
    values = {}
    for name, k, convert, required, exact, members in plan:
        if k in doc:
            v = doc[k]
            kind = type(v)
            if kind in exact:           # a value the converter returns as it is: no call, no pointer
                values[name] = v
            elif kind is str and members is not None and v in members:
                values[name] = members[v]
            else:
                values[name] = convert(v, f"{where}/{k}")
        elif required:
            raise ModelError(where, f"{cls.__name__} needs {k!r}")
    defaults = _DEFAULTS[cls]
    if defaults is None:
        return cls(**values)
    value = object.__new__(cls)     # what the generated __init__ does, without a call per field
    fields = value.__dict__
    fields.update(defaults)
    fields.update(values)
    return value


def _plan(cls: type) -> tuple:
    plan = Model.__plans__.get(cls)
    if plan is None:
        hints = field_hints(cls)
        plan = tuple((f.name, doc_key(f), *_reading(hints[f.name],
                                                    f.default is _MISSING and f.default_factory is _MISSING))
                     for f in dataclasses.fields(cls) if f.init)
        Model.__plans__[cls] = plan
        _KNOWN[cls] = frozenset(k for _, k, *_ in plan)
        _DEFAULTS[cls] = _defaults(cls)
    return plan


def _reading(hint: Any, required: bool) -> tuple:
    """A plan entry's (converter, required, *shortcuts) for a field typed ``hint``: the converter
    and shortcuts kept per hint object (``field_hints`` gives one object per annotation text and
    module, and a class such as ``str`` is one object everywhere)."""
    kept = _READING.get(id(hint))
    if kept is None or kept[0] is not hint:     # (an entry holds its hint: its id stays its own)
        kept = _READING[id(hint)] = (hint, converter(hint), shortcuts(hint))
    return kept[1], required, *kept[2]


_READING: dict[int, tuple] = {}


def field_hints(cls: type) -> dict[str, Any]:
    """What ``typing.get_type_hints(cls)`` gives for each dataclass field of ``cls``, each
    annotation's text compiled and evaluated once per module rather than once per class (a
    process's first pass builds ~100 plans, and ``get_type_hints`` made a ``ForwardRef`` and a
    ``compile`` per annotation of every class in the MRO: a tenth of that pass's instructions).
    A class with an annotation that is not a string, or one whose text could mean something
    else in the class than in its module, is left to ``typing.get_type_hints`` whole."""
    hints = {}
    for f in dataclasses.fields(cls):
        for base in cls.__mro__:    # the first class in the MRO that annotates it (get_type_hints' order)
            text = base.__dict__.get("__annotations__", {}).get(f.name, _MISSING)
            if text is not _MISSING:
                break
        hint = _hint(text, base) if type(text) is str else _MISSING
        if hint is _MISSING:
            every = typing.get_type_hints(cls)
            return {f.name: every[f.name] for f in dataclasses.fields(cls)}
        hints[f.name] = hint
    return hints


_HINTS: dict[tuple[str, str], tuple[dict, tuple, Any]] = {}   # (module, text) -> (its names, what they named, the type)
_CODE: dict[str, types.CodeType] = {}      # annotation text -> its code, the same in every module
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _hint(text: str, base: type) -> Any:
    """The type ``text`` names in ``base``'s annotations, as ``get_type_hints`` evaluates it, kept
    per module; ``_MISSING`` for a text that could name something else in ``base`` than in its
    module (``get_type_hints`` looks a name up in the module, then in the class, then in the
    builtins) or that ``get_type_hints`` cannot evaluate (its own error is raised then)."""
    module = sys.modules.get(base.__module__)
    if module is None:
        return _MISSING
    names = module.__dict__
    local = base.__dict__
    found = _NAME.findall(text)
    for name in found:
        if name not in names and name in local:
            return _MISSING
    # what the text's names are now: a module imported anew, or reloaded into the same dict, or
    # a name rebound since, gives other objects, so the text is evaluated again
    now = tuple(names.get(name, _MISSING) for name in found)
    kept = _HINTS.get((base.__module__, text))
    if kept is None or kept[0] is not names or any(a is not b for a, b in zip(kept[1], now)):   # (one text: the same names)
        kept = _HINTS[(base.__module__, text)] = names, now, _evaluated(text, names)
    return kept[2]


def _evaluated(text: str, names: dict[str, Any]) -> Any:
    """``text`` evaluated in a module's names: by ``eval`` when it names plain types (what
    ``get_type_hints`` returns unchanged), else by ``get_type_hints`` itself (an ``Annotated``
    alias stripped, a nested forward reference resolved)."""
    try:
        code = _CODE.get(text) or _CODE.setdefault(text, compile(text, "<annotation>", "eval"))
        value = eval(code, names)    # noqa: S307 - an annotation's own text, as typing evaluates it
    except Exception:
        value = None
    if value is not None and not any(value is t for t in _NOT_TYPES) and _plain_hint(value):
        return value
    try:    # the module's names as both namespaces: what a class's lookup gives when the class has none of them
        return typing.get_type_hints(types.SimpleNamespace(__annotations__={"hint": text}), names)["hint"]
    except Exception:
        return _MISSING


_NOT_TYPES = (typing.Generic, typing.Protocol, Ellipsis)     # what get_type_hints refuses as a hint


def _plain_hint(hint: Any) -> bool:
    """Classes, and unions and generics of them (a ``Literal``'s values too), with no forward
    reference or ``Annotated`` left for ``get_type_hints`` to resolve or strip."""
    if isinstance(hint, type) or hint is Ellipsis:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    if origin is None or origin is typing.Annotated:
        return False
    return all(_plain_hint(a) for a in typing.get_args(hint))


def _defaults(cls: type) -> dict[str, Any] | None:
    """Every field's default, in field order, for a class whose ``__init__`` only stores its
    arguments (a dataclass with no ``__post_init__``, ``InitVar``, ``__slots__``, default
    factory or field left out of ``__init__``); None for any other class, built by its
    ``__init__``. A model value is built thousands of times a run (every step and setup of
    every request): setting each field with ``object.__setattr__``, as a frozen dataclass's
    ``__init__`` does, cost more than reading the document."""
    fields = dataclasses.fields(cls)
    parameters = _parameters(cls.__init__) - {"self"}
    if (hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__ or parameters != {f.name for f in fields}
            or any(not f.init or f.default_factory is not _MISSING for f in fields)):  # type: ignore[misc]
        return None
    # every field in order (as __init__ sets them); a required one is always among the values
    return {f.name: None if f.default is _MISSING else f.default for f in fields}


def _parameters(function: Any) -> set[str]:
    """The names of ``inspect.signature(function).parameters``, read from a plain function's code
    object (the signature object cost a tenth of building a plan)."""
    code = getattr(function, "__code__", None)
    if type(function) is not types.FunctionType or code is None or hasattr(function, "__wrapped__") \
            or hasattr(function, "__signature__"):
        return set(inspect.signature(function).parameters)
    flags = code.co_flags
    count = code.co_argcount + code.co_kwonlyargcount + bool(flags & inspect.CO_VARARGS) \
        + bool(flags & inspect.CO_VARKEYWORDS)
    return set(code.co_varnames[:count])


_KNOWN: dict[type, frozenset[str]] = {}     # per model class: the document keys its plan reads
_DEFAULTS: dict[type, dict[str, Any] | None] = {}   # per model class: see _defaults


_EXACT: dict[Any, frozenset[type]] = {bool: frozenset({bool}), int: frozenset({int}), str: frozenset({str})}


def shortcuts(hint: Any) -> tuple[frozenset[type], dict[str, enum.Enum] | None]:
    """What ``build`` may take without calling the field's converter: the exact types whose
    values the converter returns unchanged (a document's strings, booleans, whole numbers and
    nulls), and an enum's members by their string value (what its reader finds for them). A
    union of anything but scalars and None has only None (another member could claim a value)."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        none = frozenset({type(None)}) if len(rest) < len(args) else frozenset()
        if len(rest) == 1:
            exact, members = shortcuts(rest[0])
            return exact | none, members
        if all(a in _EXACT for a in rest):
            return none.union(*(_EXACT[a] for a in rest)), None
        return none, None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return frozenset(), _members(hint)
    return _EXACT.get(hint, frozenset()), None


def converter(hint: Any) -> Converter:
    """How a value of type `hint` is read from a document."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is Any or hint is object:
        return lambda v, w: v
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if origin is typing.Literal:
        return _literal(args)
    if origin is tuple:
        inner = converter(args[0])
        return lambda v, w: _tuple(v, w, inner)
    if origin in (dict, collections.abc.Mapping) or hint in (dict, Mapping):
        inner = converter(args[1]) if args else (lambda v, w: v)
        return lambda v, w: _mapping(v, w, inner)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum_reader(hint)
    if isinstance(hint, type) and issubclass(hint, Model):
        return hint.from_document
    # the exact type first (a document's values are exactly bool, int or str), the full check otherwise
    if hint is bool:
        return lambda v, w: v if type(v) is bool else _scalar(v, w, bool, "a boolean")
    if hint is int:
        return lambda v, w: v if type(v) is int else _scalar(v, w, int, "an integer")
    if hint is str:
        return lambda v, w: v if type(v) is str else _scalar(v, w, str, "a string")
    if callable(getattr(hint, "from_document", None)):
        return hint.from_document
    raise TypeError(f"no document converter for {hint!r}")


def _scalar(v: Any, where: str, kind: type, what: str) -> Any:
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise ModelError(where, f"expected {what}, got {excerpt(v)}")
    return v


def _tuple(v: Any, where: str, inner: Converter) -> tuple:
    if not isinstance(v, (list, tuple)):
        raise ModelError(where, f"expected a list, got {excerpt(v)}")
    return tuple([inner(item, f"{where}/{i}") for i, item in enumerate(v)])


def _mapping(v: Any, where: str, inner: Converter) -> dict:
    if type(v) is not dict and not isinstance(v, Mapping):
        raise ModelError(where, f"expected a mapping, got {excerpt(v)}")
    return {k: inner(item, f"{where}/{k}") for k, item in v.items()}


def _enum_reader(cls: type[enum.Enum]) -> Converter:
    """``_enum`` for one class, a string value looked up in a table of the members by value
    first (what ``cls(v)`` finds for it)."""
    members = _members(cls)

    def read(v: Any, where: str) -> enum.Enum:
        if type(v) is str:
            member = members.get(v)
            if member is not None:
                return member
        return _enum(cls, v, where)
    return read


@functools.cache
def _members(cls: type[enum.Enum]) -> dict[str, enum.Enum]:
    """An enum's members by their string value, one table per class (every field of its type reads it)."""
    return {m.value: m for m in cls if type(m.value) is str}


def _enum(cls: type[enum.Enum], v: Any, where: str) -> enum.Enum:
    try:
        return cls(v)
    except ValueError:
        raise ModelError(where, f"expected one of {[m.value for m in cls]}, got {excerpt(v)}") from None


def _literal(options: tuple) -> Converter:
    def read(v: Any, where: str) -> Any:
        if isinstance(v, bool) != any(isinstance(o, bool) for o in options) or v not in options:
            raise ModelError(where, f"expected one of {list(options)}, got {excerpt(v)}")
        return v
    return read


def _union(args: tuple) -> Converter:
    """`X | None` reads None as None; a union of scalars takes the first that fits."""
    optional = type(None) in args
    rest = [a for a in args if a is not type(None)]
    if len(rest) == 1:
        inner = converter(rest[0])
        return lambda v, w: None if v is None and optional else inner(v, w)
    convs = [converter(a) for a in rest]

    def read(v: Any, where: str) -> Any:
        if v is None and optional:
            return None
        for conv in convs:
            try:
                return conv(v, where)
            except ModelError:
                continue
        raise ModelError(where, f"unexpected value {excerpt(v)}")
    return read


def to_document(value: Any) -> Any:
    """The document form of a model value (empty fields at their defaults left out), for engines and
    tools that write requests or cases from typed values."""
    if isinstance(value, Model) and dataclasses.is_dataclass(value):
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if v is None or v is False or v == () or repr(v) == "UNSET":
                if f.default is not _MISSING and v == f.default or f.default is v:
                    continue
            out[doc_key(f)] = to_document(v)
        return value.wrap_document(out)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_document(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_document(v) for k, v in value.items()}
    return value
