"""Checking that parsed data is plain JSON data within bounds, and strict JSON parsing.

Every document castrules reads must be JSON data: objects with string keys, arrays, strings,
booleans, null, integers no larger than JSON's exact range (2**53) and finite floats, nested
no deeper than a limit. The fast YAML parser's output is checked here (any breach sends the
file to the reference parser, which reports the line); JSON is parsed with hooks that mark
duplicate keys, oversized integers and NaN/Infinity instead of raising, so that the walk can
name the JSON pointer of the first offence.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from castrules.harness.excerpts import excerpt
from castrules.harness.problems import pointer_of


@dataclass(frozen=True)
class Limits:
    """Bounds on one document; small enough that no file can exhaust time or memory."""

    max_bytes: int = 1 << 20            # a case or catalog file is a few KB; 1 MiB is generous
    max_depth: int = 64                 # the suite nests 12 deep at most
    max_alias_nodes: int = 10_000       # nodes reachable through YAML aliases, expanded
    max_int: int = 2 ** 53              # JSON's exact integers; a cost or a life total is far smaller
    max_int_chars: int = 24             # longer integer literals are refused before conversion


DEFAULT = Limits()
LARGE = Limits(max_bytes=64 << 20)      # bundles, reports: the whole suite in one file


class _DuplicateKeys(dict):
    """An object in which a key appeared twice (the walk reports it with its pointer)."""

    duplicate: str = ""


@dataclass(frozen=True)
class _BadNumber:
    text: str
    why: str


def strict_json(text: str, limits: Limits = DEFAULT) -> Any:
    """``json.loads`` that marks duplicate keys, huge integers and NaN/Infinity for ``problem``."""

    def pairs(items: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for key, value in items:
            if key in out:
                marked = _DuplicateKeys(out)
                marked.duplicate = key
                out = marked
            out[key] = value
        return out

    def integer(literal: str) -> Any:
        if len(literal.lstrip("-")) > limits.max_int_chars:
            return _BadNumber(literal, f"an integer of {len(literal.lstrip('-'))} digits")
        return int(literal)

    def constant(name: str) -> Any:
        return _BadNumber(name, f"{name}, which is not a number JSON allows")

    return json.loads(text, object_pairs_hook=pairs, parse_int=integer, parse_constant=constant)


def problem(data: Any, limits: Limits = DEFAULT) -> tuple[str, str] | None:
    """(JSON pointer, what is wrong) for the first value that is not bounded JSON data, or None.

    Every document read comes here: clean data (the common case) is accepted by ``_clean``,
    which builds no pointers; anything it does not accept is walked by ``_first_problem``, whose
    answer is the reference."""
    if _clean(data, limits):
        return None
    return _first_problem(data, limits)


def _clean(data: Any, limits: Limits) -> bool:
    """True only when ``_first_problem`` finds nothing: exact JSON types (dict, list, str, int,
    float, bool, None), string keys, integers and depth in bounds, finite floats. Anything else
    (a subclass, a marked duplicate key or bad number) answers False and the full walk decides."""
    if type(data) is not dict and type(data) is not list:
        return False
    max_depth, max_int, isfinite = limits.max_depth, limits.max_int, math.isfinite
    pending = [(data, 0)]
    pop, push = pending.pop, pending.append
    while pending:
        value, depth = pop()
        if depth > max_depth:
            return False
        if type(value) is dict:
            for key in value:
                if type(key) is not str:
                    return False
            children: Any = value.values()
        else:
            children = value
        for child in children:
            kind = type(child)
            if kind is str or child is None or kind is bool:
                continue
            if kind is int:
                if -max_int <= child <= max_int:
                    continue
                return False
            if kind is dict or kind is list:
                push((child, depth + 1))
            elif kind is not float or not isfinite(child):
                return False
    return True


def _first_problem(data: Any, limits: Limits) -> tuple[str, str] | None:
    """The reference walk: iterative, so that depth cannot overflow the interpreter's stack."""
    stack: list[tuple[Any, int, tuple]] = [(data, 0, ())]
    while stack:
        value, depth, path = stack.pop()
        if depth > limits.max_depth:
            return pointer_of(list(path)), f"nested more than {limits.max_depth} levels deep"
        if isinstance(value, dict):
            if isinstance(value, _DuplicateKeys):
                return pointer_of([*path, value.duplicate]), f"duplicate key {excerpt(value.duplicate)}; each key appears once"
            for key, child in value.items():
                if not isinstance(key, str):
                    return pointer_of(list(path)), f"a key that is not a string ({excerpt(key)}); keys are strings"
                if type(child) is str:
                    continue
                found = _scalar(child, limits)
                if found is None:
                    stack.append((child, depth + 1, (*path, key)))
                elif found:
                    return pointer_of([*path, key]), found
        elif isinstance(value, list):
            for index, child in enumerate(value):
                if type(child) is str:
                    continue
                found = _scalar(child, limits)
                if found is None:
                    stack.append((child, depth + 1, (*path, index)))
                elif found:
                    return pointer_of([*path, index]), found
        else:
            found = _scalar(value, limits)
            if found:
                return pointer_of(list(path)), found
    return None


def _scalar(value: Any, limits: Limits) -> str | None:
    """"" for an acceptable scalar, None for a container to walk, else what is wrong."""
    if value is None or isinstance(value, (str, bool)):
        return ""
    if isinstance(value, int):
        return "" if -limits.max_int <= value <= limits.max_int else f"an integer of {value.bit_length()} bits, beyond ±2**53"
    if isinstance(value, float):
        return "" if math.isfinite(value) else f"{value}, which is not a number JSON allows"
    if isinstance(value, (dict, list)):
        return None
    if isinstance(value, _BadNumber):
        return f"{value.why} ({excerpt(value.text)}); numbers here are small integers"
    return f"a value of type {type(value).__name__}; only JSON types are allowed (no sets, dates, binaries or tags)"
