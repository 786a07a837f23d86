"""Mana costs as printed: a sequence of mana symbols (107.4, 202.1), with mana value (202.3)
and color (105.2, 202.2).

Canonical printing order (``str(cost)``, ``ManaCost.canonical()``):

1. variable symbols: every ``{X}``, then ``{Y}``, then ``{Z}``;
2. generic mana as one number (``{2}{1}`` becomes ``{3}``); a zero is dropped unless the
   cost would otherwise be empty, so ``{0}`` alone still prints ``{0}``;
3. snow ``{S}``; 4. colorless ``{C}``;
5. colored symbols, grouped by color, colors in card order (``types.card_color_order``:
   ``{R}{W}``, ``{G}{W}{U}``, ``{W}{B}{G}``);
6. hybrid symbols by pair (W/U, U/B, B/R, R/G, G/W, W/B, U/R, B/G, R/W, G/U);
7. twobrid ``{2/W}``..., 8. colorless hybrid ``{C/W}``..., 9. Phyrexian ``{W/P}``...: each
   group in card order of its colors; 10. hybrid Phyrexian by pair, as in 6.

This matches costs such as ``{X}{2}{U}``, ``{3}{C}``, ``{2}{R}{R/G}``, ``{4}{B}{B/P}{B/P}``
and ``{2/W}{2/U}{2/B}{2/R}{2/G}``.  ``ManaCost.parse(str(c)) == c.canonical()`` for every
cost ``c``; equality of two costs is equality of their symbol sequences, so compare
``canonical()`` forms to ignore order.  The empty cost prints ``""``; an object with no mana
cost at all (202.1b) is represented above this layer (by None), not by the empty cost.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .symbols import VARIABLES, ManaSymbol, SymbolKind, tokenize
from .types import Color, card_color_order, pair_rank

_GROUP = {
    SymbolKind.X: 0,
    SymbolKind.GENERIC: 1,
    SymbolKind.SNOW: 2,
    SymbolKind.COLORLESS: 3,
    SymbolKind.COLORED: 4,
    SymbolKind.HYBRID: 5,
    SymbolKind.TWOBRID: 6,
    SymbolKind.COLORLESS_HYBRID: 7,
    SymbolKind.PHYREXIAN: 8,
    SymbolKind.HYBRID_PHYREXIAN: 9,
}


# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_GENERIC, _X = SymbolKind.GENERIC, SymbolKind.X
_BY_CARD_ORDER = (SymbolKind.COLORED, SymbolKind.TWOBRID, SymbolKind.COLORLESS_HYBRID, SymbolKind.PHYREXIAN)


@dataclass(frozen=True)
class ManaCost:
    """A mana cost: the symbols in the order they were written (see the module docstring for
    the canonical order that ``str`` prints)."""

    symbols: tuple[ManaSymbol, ...] = ()

    def __post_init__(self) -> None:
        symbols = tuple(self.symbols)
        if not all(isinstance(s, ManaSymbol) for s in symbols):
            raise TypeError("a ManaCost is made of ManaSymbol values")
        object.__setattr__(self, "symbols", symbols)

    @classmethod
    def parse(cls, text: str) -> "ManaCost":
        """Read cost text such as ``"{1}{W/U}{B/P}"``; ``""`` is the empty cost.

        Raises ManaCostError (with the text, position and what was expected) on anything
        that is not a sequence of 107.4 symbols; see ``symbols`` for the accepted spellings.
        """
        if cls is ManaCost and type(text) is str:
            return _parse(text)
        return cls(tuple(symbol for _, symbol in tokenize(text)))

    @classmethod
    def of(cls, *symbols: ManaSymbol) -> "ManaCost":
        return cls(symbols)

    # -- printing -----------------------------------------------------------------------

    def canonical(self) -> "ManaCost":
        """The equal cost in canonical order with generic symbols merged (module docstring)."""
        generic = sum(s.number for s in self.symbols if s.kind is _GENERIC)
        has_generic = any(s.kind is _GENERIC for s in self.symbols)
        others = [s for s in self.symbols if s.kind is not _GENERIC]
        color_rank: dict[SymbolKind, dict[Color, int]] = {}
        for kind in _BY_CARD_ORDER:
            order = card_color_order(c for s in others if s.kind is kind for c in s.components)
            color_rank[kind] = {c: i for i, c in enumerate(order)}

        def key(s: ManaSymbol) -> tuple[int, int]:
            group = _GROUP[s.kind]
            if s.kind is _X:
                return group, VARIABLES.index(s.variable)
            if s.kind in color_rank:
                return group, color_rank[s.kind][s.components[0]]
            if len(s.components) == 2:
                return group, pair_rank(s.components)  # type: ignore[arg-type]
            return group, 0

        ordered = sorted(others, key=key)
        if generic or (has_generic and not others):
            position = sum(1 for s in ordered if s.kind is _X)
            ordered.insert(position, ManaSymbol.generic(generic))
        return ManaCost(tuple(ordered))

    def __str__(self) -> str:
        # kept by the cost's identity (frozen; parsed costs are shared): the symbols' tuple as
        # _canonical_text's key hashes every symbol in Python code
        hit = _TEXTS.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        text = _canonical_text(self.symbols)
        if len(_TEXTS) >= COST_CACHE_SIZE:
            _TEXTS.clear()
        _TEXTS[id(self)] = (self, text)      # the cost kept alive by its entry: its id stays its own
        return text

    def as_written(self) -> str:
        """The symbols in their stored order, unmerged (``parse(c.as_written()) == c``)."""
        return "".join(str(s) for s in self.symbols)

    def __repr__(self) -> str:
        return f"ManaCost.parse({self.as_written()!r})"

    # -- meaning ------------------------------------------------------------------------

    def __iter__(self) -> Iterator[ManaSymbol]:
        return iter(self.symbols)

    def __add__(self, other: "ManaCost") -> "ManaCost":
        """Both costs' symbols, as when a cost increase or an additional cost is added to a
        cost (601.2f).  Not canonicalized: call ``canonical()`` to merge."""
        if not isinstance(other, ManaCost):
            return NotImplemented
        return ManaCost(self.symbols + other.symbols)

    def mana_value(self, x: int | None = None, *, y: int | None = None, z: int | None = None) -> int:
        """Total mana in the cost regardless of color (202.3).

        Each ``{X}`` counts ``x`` (each ``{Y}`` counts ``y``, 107.3p): pass the announced
        value for a spell on the stack, None (counted as 0) anywhere else (202.3e).  Hybrid
        symbols count their larger half (202.3f), Phyrexian symbols 1 (202.3g).
        """
        if not self.has_x:
            return self._fixed_mana_value       # no variable: the same whatever is announced
        values = {"X": x, "Y": y, "Z": z}
        return sum(s.mana_value(values[s.variable] if s.kind is SymbolKind.X else None) for s in self.symbols)

    @functools.cached_property
    def _fixed_mana_value(self) -> int:
        """The mana value of a cost with no variable symbol, worked out once (see has_x)."""
        return sum(s.mana_value(None) for s in self.symbols)

    @property
    def colors(self) -> frozenset[Color]:
        """The colors of an object with this mana cost (105.2, 202.2): every color of every
        colored, hybrid and Phyrexian symbol."""
        return frozenset(c for s in self.symbols for c in s.components)

    # has_x and variables are read tens of thousands of times a suite run, of the few costs the
    # cards print (parsed once each): kept in the instance's own dict, which the frozen fields,
    # equality and hashing never read (a new cost, from any constructor, starts without them)
    @functools.cached_property
    def has_x(self) -> bool:
        """Whether the cost has a variable symbol (``{X}``, ``{Y}`` or ``{Z}``, 107.3)."""
        return any(s.kind is SymbolKind.X for s in self.symbols)

    @functools.cached_property
    def variables(self) -> frozenset[str]:
        """The variable letters that appear (a subset of X, Y, Z)."""
        return frozenset(s.variable for s in self.symbols if s.kind is SymbolKind.X)

    @property
    def generic(self) -> int:
        """The total of the numeric generic symbols (not counting X or hybrid halves)."""
        return sum(s.number for s in self.symbols if s.kind is SymbolKind.GENERIC)

    @property
    def is_empty(self) -> bool:
        return not self.symbols

    def count(self, kind: SymbolKind, color: Color | None = None) -> int:
        """How many symbols of ``kind`` there are (optionally: having ``color``).  Each
        generic symbol counts once, whatever its number; see ``generic`` for the amount."""
        return sum(
            1 for s in self.symbols if s.kind is kind and (color is None or color in s.components)
        )

    def symbols_of(self, kinds: Iterable[SymbolKind]) -> tuple[ManaSymbol, ...]:
        """The symbols of the given kinds, in stored order."""
        wanted = frozenset(kinds)
        return tuple(s for s in self.symbols if s.kind in wanted)


# Costs are immutable values and the oracle reads and prints the same few costs over and over
# (every case parses its cards' and its steps' cost text again): both are pure, so cached.
COST_CACHE_SIZE = 4096


@functools.lru_cache(maxsize=COST_CACHE_SIZE)
def _parse(text: str) -> ManaCost:
    return ManaCost(tuple(symbol for _, symbol in tokenize(text)))


_TEXTS: dict[int, tuple["ManaCost", str]] = {}


@functools.lru_cache(maxsize=COST_CACHE_SIZE)
def _canonical_text(symbols: tuple[ManaSymbol, ...]) -> str:
    return "".join(str(s) for s in ManaCost(symbols).canonical().symbols)
