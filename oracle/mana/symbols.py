"""Single mana symbols (107.4) and the tokenizer that reads them from text.

Accepted spellings are exactly those of 107.4, in upper case, with no spaces:

====================  ===========================  =================================
kind                  spelling                     notes
====================  ===========================  =================================
COLORED               {W} {U} {B} {R} {G}          107.4a
COLORLESS             {C}                          107.4c
GENERIC               {0} {1} ... {16} ...         107.4b/d; no leading zeros
X                     {X} {Y} {Z}                  107.3, 107.3p (Y and Z work like X)
SNOW                  {S}                          107.4h
HYBRID                {W/U} ... {G/U}              107.4e; the pair in printed order
TWOBRID               {2/W} ... {2/G}              107.4e (monocolored hybrid)
COLORLESS_HYBRID      {C/W} ... {C/G}              107.4 (monocolored hybrid, 2024)
PHYREXIAN             {W/P} ... {G/P}              107.4f
HYBRID_PHYREXIAN      {W/U/P} ... {G/U/P}          107.4f; the pair in printed order
====================  ===========================  =================================

Decisions (documented because the rules leave spelling to print): lower case, spaces,
reversed pairs such as ``{U/W}``, ``{W/2}`` or ``{P/W}``, leading zeros, ``{H}`` (107.4g, a
rules-text placeholder) and the non-mana symbols ``{T}``/``{Q}`` (107.5, 107.6) are all
rejected with a ``ManaCostError`` that says what was expected.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import ManaCostError
from .types import COLORS, Color, ManaType, pair_order


class SymbolKind(enum.Enum):
    """What a mana symbol asks for when it is paid (107.4)."""

    COLORED = "colored"
    COLORLESS = "colorless"
    GENERIC = "generic"
    X = "x"
    SNOW = "snow"
    HYBRID = "hybrid"
    TWOBRID = "twobrid"
    COLORLESS_HYBRID = "colorless_hybrid"
    PHYREXIAN = "phyrexian"
    HYBRID_PHYREXIAN = "hybrid_phyrexian"


VARIABLES = ("X", "Y", "Z")
_MONO = frozenset(
    {SymbolKind.COLORED, SymbolKind.TWOBRID, SymbolKind.COLORLESS_HYBRID, SymbolKind.PHYREXIAN}
)
_PAIRED = frozenset({SymbolKind.HYBRID, SymbolKind.HYBRID_PHYREXIAN})
# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_TWOBRID, _COLORLESS_HYBRID = SymbolKind.TWOBRID, SymbolKind.COLORLESS_HYBRID
_GENERIC, _X, _COLORLESS, _SNOW = SymbolKind.GENERIC, SymbolKind.X, SymbolKind.COLORLESS, SymbolKind.SNOW
_COLORED, _PHYREXIAN = SymbolKind.COLORED, SymbolKind.PHYREXIAN
_HYBRID, _HYBRID_PHYREXIAN = SymbolKind.HYBRID, SymbolKind.HYBRID_PHYREXIAN
# Kinds whose payment the player picks among several ways (118.13): these need a 601.2b choice.
HYBRID_KINDS = frozenset(
    {SymbolKind.HYBRID, SymbolKind.TWOBRID, SymbolKind.COLORLESS_HYBRID, SymbolKind.HYBRID_PHYREXIAN}
)
PHYREXIAN_KINDS = frozenset({SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN})


def _check_fields(symbol: "ManaSymbol") -> None:
    """A symbol's fields agree with its kind (colour components, number, variable letter); the
    constructors always make such symbols, so only a hand-built one can fail."""
    kind, comps = symbol.kind, symbol.components
    if not isinstance(kind, SymbolKind):
        raise TypeError(f"kind must be a SymbolKind, not {kind!r}")
    if not isinstance(comps, tuple) or not all(isinstance(c, Color) for c in comps):
        raise TypeError("components must be a tuple of Color")
    want = 1 if kind in _MONO else 2 if kind in _PAIRED else 0
    if len(comps) != want:
        raise ValueError(f"a {kind.value} symbol has {want} color component(s), not {len(comps)}")
    if want == 2 and pair_order(*comps) != comps:
        raise ValueError(f"hybrid colors must be two different colors in printed order, not {comps}")
    if isinstance(symbol.number, bool) or not isinstance(symbol.number, int):
        raise TypeError("number must be an int")
    expected_number = 2 if kind is _TWOBRID else None
    if kind is _GENERIC:
        if symbol.number < 0:
            raise ValueError("a generic symbol cannot be negative (107.1b)")
    elif symbol.number != (expected_number or 0):
        raise ValueError(f"a {kind.value} symbol has number {expected_number or 0}")
    if kind is _X:
        if symbol.variable not in VARIABLES:
            raise ValueError(f"a variable symbol is one of {VARIABLES}, not {symbol.variable!r}")
    elif symbol.variable:
        raise ValueError("only X symbols have a variable letter")


@dataclass(frozen=True)
class ManaSymbol:
    """One mana symbol.

    ``components`` holds the colors of a colored, hybrid or Phyrexian symbol (pairs in
    printed order, see ``types.pair_order``); ``number`` is the amount of a generic symbol
    (and the generic half, 2, of a twobrid one); ``variable`` is the letter of an X symbol.
    Use the class-method constructors; ``__post_init__`` rejects inconsistent fields.
    """

    kind: SymbolKind
    components: tuple[Color, ...] = ()
    number: int = 0
    variable: str = ""

    def __post_init__(self) -> None:
        _check_fields(self)

    # -- constructors -------------------------------------------------------------------

    @classmethod
    def colored(cls, color: Color) -> "ManaSymbol":
        return cls(SymbolKind.COLORED, (color,))

    @classmethod
    def colorless(cls) -> "ManaSymbol":
        return cls(SymbolKind.COLORLESS)

    @classmethod
    def generic(cls, amount: int) -> "ManaSymbol":
        return cls(SymbolKind.GENERIC, number=amount)

    @classmethod
    def x(cls, letter: str = "X") -> "ManaSymbol":
        return cls(SymbolKind.X, variable=letter)

    @classmethod
    def snow(cls) -> "ManaSymbol":
        return cls(SymbolKind.SNOW)

    @classmethod
    def hybrid(cls, a: Color, b: Color) -> "ManaSymbol":
        """A two-color hybrid symbol; the colors may be given in either order."""
        return cls(SymbolKind.HYBRID, pair_order(a, b))

    @classmethod
    def twobrid(cls, color: Color) -> "ManaSymbol":
        return cls(SymbolKind.TWOBRID, (color,), number=2)

    @classmethod
    def colorless_hybrid(cls, color: Color) -> "ManaSymbol":
        return cls(SymbolKind.COLORLESS_HYBRID, (color,))

    @classmethod
    def phyrexian(cls, color: Color) -> "ManaSymbol":
        return cls(SymbolKind.PHYREXIAN, (color,))

    @classmethod
    def hybrid_phyrexian(cls, a: Color, b: Color) -> "ManaSymbol":
        return cls(SymbolKind.HYBRID_PHYREXIAN, pair_order(a, b))

    @classmethod
    def parse(cls, text: str) -> "ManaSymbol":
        """Read exactly one symbol, e.g. ``"{W/U}"``."""
        found = list(tokenize(text))
        if len(found) != 1:
            raise ManaCostError(text, 0 if not found else found[1][0], "exactly one mana symbol")
        return found[0][1]

    # -- meaning ------------------------------------------------------------------------

    @property
    def colors(self) -> frozenset[Color]:
        """The colors this symbol gives an object (105.2, 202.2d: a hybrid or Phyrexian
        symbol is each of its colors; generic, colorless, X and snow have none)."""
        return frozenset(self.components)

    def mana_value(self, x: int | None = None) -> int:
        """This symbol's share of a mana value (202.3).

        ``x`` is the value of this symbol's variable if it is an X (202.3e: the announced
        value on the stack; None, i.e. 0, anywhere else).  A hybrid symbol counts its larger
        half (202.3f), so ``{2/W}`` is 2; a Phyrexian symbol counts 1 (202.3g).
        """
        if self.kind is SymbolKind.X:
            if x is None:
                return 0
            if isinstance(x, bool) or not isinstance(x, int) or x < 0:
                raise ValueError(f"X must be a non-negative integer (107.1b), not {x!r}")
            return x
        if self.kind is SymbolKind.GENERIC or self.kind is SymbolKind.TWOBRID:
            return self.number
        return 1

    @property
    def halves(self) -> tuple[str, ...]:
        """The ways a hybrid symbol can be paid, as the letters a 601.2b choice uses:
        ``("W", "U")`` for ``{W/U}``, ``("2", "W")`` for ``{2/W}``, ``("C", "W")`` for
        ``{C/W}``.  Empty for symbols without a hybrid choice."""
        kind = self.kind
        if kind is _TWOBRID:
            return ("2", self.components[0].value)
        if kind is _COLORLESS_HYBRID:
            return ("C", self.components[0].value)
        if kind is _HYBRID or kind is _HYBRID_PHYREXIAN:      # _PAIRED, by identity
            return tuple(c.value for c in self.components)
        return ()

    def accepts(self) -> frozenset[ManaType]:
        """Types of mana that pay this symbol with one mana (107.4a-f); generic, X and snow
        accept any type; a twobrid symbol's one-mana way is its color."""
        kind = self.kind
        if kind is SymbolKind.COLORLESS:
            return frozenset({ManaType.C})
        if kind is SymbolKind.COLORLESS_HYBRID:
            return frozenset({ManaType.C, self.components[0].mana_type})
        if self.components:
            return frozenset(c.mana_type for c in self.components)
        return frozenset(ManaType)

    def __str__(self) -> str:
        kind = self.kind
        if kind is _GENERIC:
            body = str(self.number)
        elif kind is _X:
            body = self.variable
        elif kind is _COLORLESS:
            body = "C"
        elif kind is _SNOW:
            body = "S"
        elif kind is _COLORED:
            body = self.components[0]._value_
        elif kind is _TWOBRID:
            body = f"2/{self.components[0]._value_}"
        elif kind is _COLORLESS_HYBRID:
            body = f"C/{self.components[0]._value_}"
        elif kind is _PHYREXIAN:
            body = f"{self.components[0]._value_}/P"
        elif kind is _HYBRID:
            body = "/".join(c._value_ for c in self.components)
        else:
            body = "/".join(c._value_ for c in self.components) + "/P"
        return "{" + body + "}"


# -- tokenizer ------------------------------------------------------------------------------

_SYMBOL_HINT = "a mana symbol (107.4) such as {2}, {X}, {W}, {C}, {S}, {W/U}, {2/W}, {C/W}, {W/P} or {W/U/P}"
_COLOR_LETTERS = {c.value: c for c in COLORS}
_SIMPLE = {
    **{c.value: ManaSymbol.colored(c) for c in COLORS},
    "C": ManaSymbol.colorless(),
    "S": ManaSymbol.snow(),
    **{v: ManaSymbol.x(v) for v in VARIABLES},
}


def tokenize(text: str) -> Iterator[tuple[int, ManaSymbol]]:
    """Yield ``(position of '{', symbol)`` for each symbol of ``text``; raise ManaCostError at
    the first problem."""
    if not isinstance(text, str):
        raise TypeError(f"mana cost text must be a str, not {type(text).__name__}")
    i, n = 0, len(text)
    while i < n:
        if text[i] != "{":
            raise ManaCostError(text, i, "'{' opening a mana symbol", text[i])
        j = i + 1
        while j < n and text[j] not in "{}":
            j += 1
        if j >= n:
            expected = "'}' closing the symbol" if j > i + 1 else _SYMBOL_HINT
            raise ManaCostError(text, n, expected, "end of text")
        if text[j] == "{":
            raise ManaCostError(text, j, "'}' closing the symbol opened at position %d" % i, "{")
        yield i, _symbol_body(text, i, text[i + 1 : j])
        i = j + 1


def _symbol_body(text: str, start: int, body: str) -> ManaSymbol:
    def fail(expected: str) -> ManaCostError:
        return ManaCostError(text, start, expected, "{" + body + "}")

    if not body:
        raise fail(_SYMBOL_HINT)
    if body != body.upper():
        raise fail(_SYMBOL_HINT + " (mana symbols are written in upper case)")
    if body in _SIMPLE:
        return _SIMPLE[body]
    if body.isdigit() and body.isascii():
        if len(body) > 1 and body[0] == "0":
            raise fail("a number without leading zeros")
        return ManaSymbol.generic(int(body))
    if body in ("T", "Q"):
        what = "the tap symbol (107.5)" if body == "T" else "the untap symbol (107.6)"
        raise fail(f"{_SYMBOL_HINT}; {{{body}}} is {what}, not mana")
    parts = body.split("/")
    if len(parts) == 2:
        first, second = parts
        if first in ("2", "C"):
            color = _COLOR_LETTERS.get(second)
            if color is None:
                raise fail(f"a color letter W, U, B, R or G after '{first}/'")
            return ManaSymbol.twobrid(color) if first == "2" else ManaSymbol.colorless_hybrid(color)
        a = _COLOR_LETTERS.get(first)
        if a is None:
            raise fail("a color letter, '2' or 'C' before '/'")
        if second == "P":
            return ManaSymbol.phyrexian(a)
        return ManaSymbol(SymbolKind.HYBRID, _pair(fail, a, second))
    if len(parts) == 3:
        a = _COLOR_LETTERS.get(parts[0])
        if a is None:
            raise fail("a color letter first in a hybrid Phyrexian symbol such as {W/U/P}")
        pair = _pair(fail, a, parts[1])
        if parts[2] != "P":
            raise fail("'P' as the third part of a hybrid Phyrexian symbol such as {W/U/P}")
        return ManaSymbol(SymbolKind.HYBRID_PHYREXIAN, pair)
    raise fail(_SYMBOL_HINT)


def _pair(fail, a: Color, second: str) -> tuple[Color, Color]:
    b = _COLOR_LETTERS.get(second)
    if b is None:
        raise fail("a color letter W, U, B, R or G, or 'P', after '/'")
    if a is b:
        raise fail("two different colors in a hybrid symbol (105.5)")
    ordered = pair_order(a, b)
    if ordered != (a, b):
        raise fail(f"the printed order {{{ordered[0].value}/{ordered[1].value}}} for this color pair")
    return ordered
