"""Comparing mana texts from engines without caring about symbol order.

Engines print costs in their own order ({B}{1} or {1}{B}); two texts are the same cost when
they hold the same symbols, generic numbers summed. The harness parses only what it needs for
that and knows nothing of the rules.
"""

from __future__ import annotations

import re

_SYMBOL = re.compile(r"\{([^{}]+)\}")


def normalize(text: str | None) -> tuple | None:
    if text is None:
        return None
    if not isinstance(text, str) or _SYMBOL.sub("", text).strip():
        return ("unparsed", str(text))
    generic = 0
    others: list[str] = []
    for symbol in _SYMBOL.findall(text):
        symbol = symbol.strip().upper()
        if symbol.isdigit():
            generic += int(symbol)
        else:
            others.append(symbol)
    return (generic, tuple(sorted(others)))


def same_cost(expected: str | None, observed: str | None) -> bool:
    return expected == observed and isinstance(expected, str) or normalize(expected) == normalize(observed)
