"""Quoting user input in messages: at most a short excerpt, never a whole value.

Case files, expectations files, command lines and engine replies can hold anything, and a
message quoting all of it can flood a terminal or a CI log (or show a file's contents where
they do not belong). Every quotation of such input goes through here: at most
``EXCERPT_LIMIT`` characters, an ellipsis marking what was cut.
"""

from __future__ import annotations

import re
from typing import Any

EXCERPT_LIMIT = 80
_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def shorten(text: str, limit: int = EXCERPT_LIMIT) -> str:
    """``text`` itself when short enough, else its start and ``...``, ``limit`` characters in all."""
    return text if len(text) <= limit else text[:max(limit - 3, 1)] + "..."


def excerpt(text: Any, limit: int = EXCERPT_LIMIT) -> str:
    """``text`` (as a string) quoted like ``repr``, cut inside the quotes: ``'abc...'``, at most
    ``limit`` characters whatever escapes the text needs."""
    text = str(text)
    quoted = repr(text)
    keep = min(len(text), limit)
    while len(quoted) > limit and keep > 0:   # at most ``limit`` short tries: escapes take 2-10 characters
        keep -= 1
        quoted = repr(text[:keep] + "...")
    return quoted


def quoted(value: Any, limit: int = EXCERPT_LIMIT) -> str:
    """``repr(value)`` when short (a string's excerpt otherwise): for any value a message names."""
    if isinstance(value, str):
        return excerpt(value, limit)
    return shorten(repr(value), limit)


def shorten_quotations(message: str, instance: Any = None, limit: int = EXCERPT_LIMIT) -> str:
    """A message built by a library (jsonschema) with user input in it: the value's ``repr``
    and every other quoted string longer than ``limit`` cut down to an excerpt."""
    whole = repr(instance)
    if instance is not None and len(whole) > limit and whole in message:
        before, _, after = message.partition(whole)
        return _shorten_each(before, limit) + shorten(whole, limit) + _shorten_each(after, limit)
    return _shorten_each(message, limit)


def _shorten_each(text: str, limit: int) -> str:
    return _QUOTED.sub(lambda m: m.group(0) if len(m.group(0)) <= limit else shorten(m.group(0), limit), text)
