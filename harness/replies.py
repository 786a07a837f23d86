"""What an engine's reply may hold: JSON data of bounded size, checked before anything reads it.

An in-process engine can hand back any Python object and a protocol engine any JSON text;
both go through these checks so that NaN, a 5,000-digit number, an int-keyed dict or a
cyclic structure is that case's error, never a crash of the comparison or of the report.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from castrules.harness.excerpts import quoted

MAX_INT = 2**63                 # the largest magnitude an observation needs (life totals, counts)
MAX_INT_DIGITS = len(str(MAX_INT))
MAX_DEPTH = 64                  # a snapshot is about six levels deep
MAX_NODES = 200_000             # values in one reply
MAX_PROBLEMS = 5


class ReplyError(ValueError):
    """A reply that is not bounded JSON data; the message names the place (a JSON pointer)."""


def problems(value: Any, sets_as_arrays: bool = False) -> list[str]:
    """What makes ``value`` more than plain, bounded JSON data (at most a few, with pointers)."""
    arrays = (list, tuple, set, frozenset) if sets_as_arrays else (list, tuple)
    if _plain(value, 0, [MAX_NODES], arrays):
        return []   # the common case: no pointers to build (every reply of every case comes here)
    found: list[str] = []
    _walk(value, "", 0, found, [MAX_NODES], arrays)
    return found[:MAX_PROBLEMS]


def _plain(value: Any, depth: int, budget: list[int], arrays: tuple) -> bool:
    """Whether ``_walk`` would find nothing: the same checks, no text built. Every reply of
    every case comes here, so it walks one depth at a time instead of recursing (no depth kept
    per value), counts a container's items against the budget all at once, takes the exact
    JSON types (str, int, dict, list, ...) by identity before any isinstance check, strings
    and whole numbers inline, and a list of strings by one ``str.join`` (a snapshot's colours
    and types, a trace line's rules). The answer does not depend on the order values are
    visited: any bad value or key, any value deeper than MAX_DEPTH, or more values than the
    budget make it False."""
    left = budget[0] - 1
    if left < 0 or depth > MAX_DEPTH:
        return False
    level = [value]
    while level:
        below: list = []
        push = below.append
        for value in level:
            kind = type(value)
            if kind is dict:
                for key in value:
                    if type(key) is not str and not isinstance(key, str):
                        return False
                items = value.values()
            elif kind is list or kind is tuple:
                items = value
            else:
                items = _other_items(value, arrays)
                if items is None:
                    continue
                if items is False:
                    return False
            left -= len(items)
            if left < 0 or (items and depth >= MAX_DEPTH):
                return False        # more values than the budget, or items deeper than MAX_DEPTH
            for item in items:
                kind = type(item)
                if kind is str or item is None or kind is bool:
                    continue
                if kind is int:
                    if item > MAX_INT or item < -MAX_INT:
                        return False
                    continue
                if kind is list:
                    if not item:
                        continue    # an empty container holds nothing to check (it is counted already)
                    if type(item[0]) is str and depth < MAX_DEPTH - 1 and left >= len(item) and _strings(item):
                        left -= len(item)
                        continue    # what its own visit would do: count its items, all strings
                elif kind is dict and not item:
                    continue
                push(item)
        level = below
        depth += 1
    budget[0] = left
    return True


def _strings(items: list) -> bool:
    """Whether every item is a string (str.join takes only those), at C speed."""
    try:
        _join(items)
    except TypeError:
        return False
    return True


_join = "".join


def _other_items(value: Any, arrays: tuple) -> Any:
    """For ``_plain``, a value of no exact JSON container type: None when it is a good scalar,
    False when it is bad, else its items (a mapping taken before an array, as ``_walk`` does)."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, int):
        return None if abs(value) <= MAX_INT else False
    if isinstance(value, float):
        return None if math.isfinite(value) else False
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            return False
        return list(value.values())
    if isinstance(value, arrays):
        return list(value)
    return False


def _walk(value: Any, where: str, depth: int, found: list[str], budget: list[int], arrays: tuple) -> None:
    if len(found) >= MAX_PROBLEMS:
        return
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            found.append(f"the reply holds more than {MAX_NODES} values")
        return
    if depth > MAX_DEPTH:
        found.append(f"at {_at(where)}: nested more than {MAX_DEPTH} levels deep")
        return
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            found.append(f"at {_at(where)}: an integer beyond ±2**63")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            found.append(f"at {_at(where)}: {value!r} is not a JSON number")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                found.append(f"at {_at(where)}: key {_short(key)} is a {type(key).__name__}, expected a string")
                continue
            _walk(item, f"{where}/{_escape(key)}", depth + 1, found, budget, arrays)
        return
    if isinstance(value, arrays):
        for index, item in enumerate(value):
            _walk(item, f"{where}/{index}", depth + 1, found, budget, arrays)
        return
    found.append(f"at {_at(where)}: a {type(value).__name__}, which is not JSON data")


def _at(where: str) -> str:
    return (where if len(where) <= 80 else where[:80] + "...") or "/"


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")[:60]


def _short(value: Any) -> str:
    return quoted(value)


def _refuse_constant(name: str) -> Any:
    raise ReplyError(f"{name} is not a JSON number")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ReplyError(f"an integer of {len(text.lstrip('-'))} digits")
    return int(text)


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ReplyError(f"{text[:20]} overflows a JSON number")
    return number


def loads(data: bytes | str) -> Any:
    """Parse one protocol line: strict JSON (no NaN/Infinity, bounded numbers and nesting).

    Every reply line comes here, so clean data takes a fast path: parsed with no hook per
    integer (the C parser builds the same ints), then the fast check. Anything else (a parse
    error, a value the check refuses) is parsed again by ``_strict_loads``, whose answer and
    error messages are the reference."""
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass") if isinstance(data, (bytes, bytearray)) else data
        value = _FAST.decode(text)
    except (ValueError, RecursionError):
        return _strict_loads(data)
    if _plain(value, 0, [MAX_NODES], (list, tuple)):
        return value
    return _strict_loads(data)


# the fast path's parser, made once: json.loads with hooks builds a new decoder for every line.
# It reads text as json.loads does (bytes decoded by their detected encoding); whatever it
# refuses goes to _strict_loads, whose json.loads gives the reference answer and error.
_FAST = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def _strict_loads(data: bytes | str) -> Any:
    try:
        value = json.loads(data, parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except RecursionError:
        raise ReplyError(f"nested more than {MAX_DEPTH} levels deep") from None
    found = problems(value)
    if found:
        raise ReplyError("; ".join(found))
    return value
