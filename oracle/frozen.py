"""``replace`` for the oracle's frozen dataclasses: what ``dataclasses.replace`` does, cheaper.

Every action builds new values (a new State, Obj, Player, ...) by replacing a few fields of the
old ones, some 25,000 times a suite run. ``dataclasses.replace`` goes through the class's
``__init__``, which sets every field one by one with ``object.__setattr__`` (the class is
frozen): for an Obj that is dozens of calls to change one field. A plain frozen dataclass
(no ``InitVar``, no ``__slots__``) holds its fields in its ``__dict__``, so the new value is a
copy of that dict with the changes written over it, its fields that ``__init__`` does not take
(``init=False``) made anew, and its ``__post_init__`` called, as ``__init__`` would (one that
sets an attribute beyond the fields must set it every time: the copy holds the old one, as
Obj.base). Any other class, and any change ``dataclasses.replace`` would refuse, go to
``dataclasses.replace`` itself: same result, same errors.

The dict is a plain one of the value's own (``dict(...)``; ``make`` copies a plain template):
CPython 3.11 reads an attribute fast at a given place in the code only while the objects seen
there are laid out alike. An object built by ``__init__`` keeps its fields in the instance
itself, and reading its ``__dict__`` turns that into a dict sharing its keys with the class
(``.copy()`` keeps it so), a third layout, which the fast read of a dict also refuses. So the
oracle's hot values (objects, states, players, and the shared plain face, announcements and
combat) are made by ``make`` or ``replace`` only: every one holds a plain dict, and the reads
of their fields stay fast (third pass of the suite: -4% instructions for the objects alone).
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Any, TypeVar

T = TypeVar("T")

# class -> (names __init__ takes, (name, default factory) of the fields it does not take, its
# __post_init__ or None), or () when the class needs its own __init__. Keyed by class: bounded by the oracle's classes.
_PLANS: dict[type, tuple] = {}
_new, _set_dict = object.__new__, object.__setattr__


def replace(value: T, /, **changes: Any) -> T:
    """``dataclasses.replace(value, **changes)``."""
    cls = type(value)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _plan(cls)
    if not plan or not plan[0].issuperset(changes):
        return dataclasses.replace(value, **changes)
    fields = dict(value.__dict__)       # a plain dict of its own (see above), handed to the new value whole
    fields.update(changes)
    for name, factory in plan[1]:
        fields[name] = factory()
    new = _new(cls)
    _set_dict(new, "__dict__", fields)
    if plan[2] is not None:
        plan[2](new)
    return new


def _plan(cls: type) -> tuple:
    plan: tuple = ()
    if dataclasses.is_dataclass(cls) and "__slots__" not in cls.__dict__ and not any(
            isinstance(v, functools.cached_property) for k in cls.__mro__ for v in vars(k).values()):
        # (a cached_property keeps its value in the instance's __dict__: a copy of it would carry a stale one)
        fields = dataclasses.fields(cls)
        taken = frozenset(f.name for f in fields if f.init)
        fresh = tuple((f.name, f.default_factory if f.default_factory is not dataclasses.MISSING
                       else (lambda default=f.default: default)) for f in fields if not f.init)
        parameters = set(inspect.signature(cls.__init__).parameters) - {"self"}
        # an InitVar is a parameter but no field; an init=False field with no default is never set
        if parameters == taken and all(f.init or f.default is not dataclasses.MISSING
                                       or f.default_factory is not dataclasses.MISSING for f in fields):
            plan = (taken, fresh, getattr(cls, "__post_init__", None))
    _PLANS[cls] = plan
    return plan


def make(cls: type[T], /, **values: Any) -> T:
    """``cls(**values)`` for a plain frozen dataclass (as ``replace`` takes them), its fields
    written in its ``__dict__`` in field order instead of one ``object.__setattr__`` each; any
    other class, or values ``__init__`` would refuse, go to ``cls(**values)`` itself."""
    template = _TEMPLATES.get(cls)
    if template is None:
        template = _template(cls)
    if not template or not template[0].issuperset(values) or not template[1].issubset(values):
        return cls(**values)
    fields = template[2].copy()
    fields.update(values)
    for name, factory in template[3]:
        if name not in values:
            fields[name] = factory()
    new = _new(cls)
    _set_dict(new, "__dict__", fields)
    if template[4] is not None:
        template[4](new)
    return new


# class -> (names __init__ takes, names it requires, every field in order with its default (None
# for a required one or one made by a factory), (name, factory) of the fields made by one, its
# __post_init__ or None), or ()
_TEMPLATES: dict[type, tuple] = {}


def _template(cls: type) -> tuple:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _plan(cls)
    template: tuple = ()
    if plan:
        fields = dataclasses.fields(cls)
        required = frozenset(f.name for f in fields if f.init and f.default is dataclasses.MISSING
                             and f.default_factory is dataclasses.MISSING)
        defaults = {f.name: None if f.default is dataclasses.MISSING else f.default for f in fields}
        made = tuple((f.name, f.default_factory) for f in fields if f.default_factory is not dataclasses.MISSING)
        template = (plan[0], required, defaults, made, plan[2])
    _TEMPLATES[cls] = template
    return template


def read_fast(cls: type[T]) -> type[T]:
    """A class decorator, over ``@dataclass``: drops the class attributes dataclass leaves for the
    fields whose default is an instance of a Python class (an enum member, a shared frozen value).
    CPython 3.11 never specialises a read of such a field, on any instance (the class attribute's
    type could still gain a ``__get__``), so each read took the slow generic lookup (Obj's kind,
    face, announced, combat: -1% of the third pass). The defaults stay in the fields and in
    ``__init__``, which never reads those class attributes; every instance holds every field."""
    for f in dataclasses.fields(cls):
        default = cls.__dict__.get(f.name, _ABSENT)
        if default is not _ABSENT and not type(default).__flags__ & _IMMUTABLE_TYPE:
            delattr(cls, f.name)
    return cls


_IMMUTABLE_TYPE = 1 << 8        # Py_TPFLAGS_IMMUTABLETYPE: int, str, tuple, None's type...


def same_or_replaced(value: T, /, **changes: Any) -> T:
    """``value`` itself when each changed field already holds its new value (an equal frozen
    value: the shared ones, such as an object's plain face, stay the shared ones, which
    characteristics.chars keys by identity instead of hashing them), else ``replace``."""
    fields = getattr(value, "__dict__", {})
    for name, new in changes.items():
        old = fields.get(name, _ABSENT)
        if type(old) is not type(new) or old != new:
            return replace(value, **changes)
    return value


_ABSENT = object()
