"""Closed vocabularies of the mana layer: colors, mana types, and counts of mana by type.

Colors (105.1) and mana types (106.1b) are different things: colorless is a type of mana
but not a color (105.4), so ``ManaType`` has a sixth member ``C`` that ``Color`` lacks.

The canonical order of colors is WUBRG (the enum order).  Cards, however, print a set of
colors in the order that walks the shortest way round the color wheel; ``card_color_order``
reproduces that, so that printed costs such as ``{R}{W}`` or ``{G}{W}{U}`` come out the way
they look on real cards.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from typing import Union


class Color(enum.Enum):
    """One of the five colors (105.1); the value is the letter used in mana symbols."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"

    @property
    def mana_type(self) -> "ManaType":
        """The type of mana of this color (106.1a, 106.1b)."""
        return ManaType(self.value)

    @property
    def index(self) -> int:
        """Position on the color wheel, W=0 ... G=4."""
        return _COLOR_INDEX[self]


class ManaType(enum.Enum):
    """One of the six types of mana (106.1b); the value is the letter of its symbol."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"
    C = "C"

    @property
    def color(self) -> Color | None:
        """The color of this type of mana, or None for colorless (105.4: not a color)."""
        return None if self is ManaType.C else Color(self.value)

    @property
    def index(self) -> int:
        """Position in the canonical WUBRGC order."""
        return _LETTER_INDEX[self._value_]

    @classmethod
    def coerce(cls, value: "ManaType | Color | str") -> "ManaType":
        """Accept a ManaType, a Color or a letter; raise ValueError on anything else."""
        kind = type(value)
        if kind is ManaType:
            return value
        if kind is Color:
            return _TYPE_OF_LETTER[value._value_]
        if kind is str and value in _TYPE_OF_LETTER:
            return _TYPE_OF_LETTER[value]       # what cls(value) gives, without EnumType.__call__
        if isinstance(value, str):
            return cls(value)
        raise ValueError(f"not a mana type: {value!r}")


COLORS: tuple[Color, ...] = tuple(Color)
MANA_TYPES: tuple[ManaType, ...] = tuple(ManaType)
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
# By letter: an enum member hashes in Python code, a letter in C (these run ~100,000 times a suite run)
_LETTER_INDEX = {t.value: i for i, t in enumerate(MANA_TYPES)}
_TYPE_OF_LETTER = {t.value: t for t in MANA_TYPES}


def mana_index(key: "ManaKey") -> int:
    """A mana type's position in WUBRGC order, from a ManaType, a Color or a letter (ValueError
    on anything else): what ``ManaType.coerce(key).index`` gives, the common cases by a lookup."""
    kind = type(key)
    if kind is ManaType or kind is Color:
        return _LETTER_INDEX[key._value_]
    if kind is str and key in _LETTER_INDEX:
        return _LETTER_INDEX[key]
    return _LETTER_INDEX[ManaType.coerce(key)._value_]


def _step(start: Color, steps: int) -> Color:
    return COLORS[(start.index + steps) % 5]


def pair_order(a: Color, b: Color) -> tuple[Color, Color]:
    """The two colors of a pair in printed order (W/U, U/B, ... G/U): the first color is the
    one from which the other is one step (allied) or two steps (enemy) clockwise (105.5)."""
    if a is b:
        raise ValueError("a color pair needs two different colors (105.5)")
    return (a, b) if (b.index - a.index) % 5 in (1, 2) else (b, a)


# The ten color pairs (105.5) in the order used when printing several hybrid symbols: the
# five allied pairs clockwise from W/U, then the five enemy pairs clockwise from W/B.
COLOR_PAIRS: tuple[tuple[Color, Color], ...] = tuple(
    (c, _step(c, 1)) for c in COLORS
) + tuple((c, _step(c, 2)) for c in COLORS)
_PAIR_RANK = {pair: i for i, pair in enumerate(COLOR_PAIRS)}


def pair_rank(pair: tuple[Color, Color]) -> int:
    """Position of a printed-order pair in ``COLOR_PAIRS``."""
    return _PAIR_RANK[pair]


def card_color_order(colors: Iterable[Color]) -> tuple[Color, ...]:
    """The colors in the order cards print them.

    Two colors: the pair order.  Three adjacent colors (a shard): clockwise from the first of
    the run (G, W, U).  Three with a gap (a wedge): each two steps after the previous one
    (W, B, G).  Four: clockwise starting after the missing color.  One or five: WUBRG.
    """
    present = frozenset(colors)
    n = len(present)
    if n == 2:
        a, b = sorted(present, key=lambda c: c.index)
        return pair_order(a, b)
    if n == 3:
        for start in COLORS:
            run = (start, _step(start, 1), _step(start, 2))
            if frozenset(run) == present:
                return run
        for start in COLORS:
            wedge = (start, _step(start, 2), _step(start, 4))
            if frozenset(wedge) == present:
                return wedge
    if n == 4:
        missing = next(c for c in COLORS if c not in present)
        return tuple(_step(missing, k) for k in range(1, 5))
    return tuple(c for c in COLORS if c in present)


ManaKey = Union[ManaType, Color, str]


class ManaCounts(Mapping[ManaType, int]):
    """An immutable, hashable count of mana by type.

    Like ``collections.Counter``, looking up a type that is absent gives 0, while iteration
    and ``in`` only see the types with a positive count (in WUBRGC order).  Keys may be
    given as ManaType, Color or letter.
    """

    __slots__ = ("_counts",)

    def __init__(self, counts: Mapping[ManaKey, int] | Iterable[tuple[ManaKey, int]] | None = None):
        values = [0] * 6
        items = counts.items() if isinstance(counts, Mapping) else (counts or ())
        for key, amount in items:
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise ValueError(f"a count of mana must be a non-negative integer, not {amount!r}")
            values[mana_index(key)] += amount
        self._counts: tuple[int, ...] = tuple(values)

    @classmethod
    def from_tuple(cls, values: Iterable[int]) -> "ManaCounts":
        """Build from six counts in WUBRGC order (checked as the constructor checks them)."""
        values = tuple(values)
        if len(values) != 6:
            raise ValueError("expected six counts in WUBRGC order")
        for amount in values:
            if type(amount) is not int or amount < 0:
                return cls(zip(MANA_TYPES, values))     # the constructor's error (or an int subclass's count)
        counts = object.__new__(cls)
        counts._counts = values
        return counts

    def as_tuple(self) -> tuple[int, ...]:
        """The six counts in WUBRGC order."""
        return self._counts

    def __getitem__(self, key: ManaKey) -> int:
        try:
            return self._counts[mana_index(key)]
        except ValueError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        try:
            return self[key] > 0  # type: ignore[index]
        except KeyError:
            return False

    def __iter__(self) -> Iterator[ManaType]:
        return (t for t, n in zip(MANA_TYPES, self._counts) if n)

    def __len__(self) -> int:
        return sum(1 for n in self._counts if n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ManaCounts):
            return self._counts == other._counts
        if isinstance(other, Mapping):
            try:
                return self == ManaCounts(other)
            except (ValueError, TypeError):
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._counts)

    def __repr__(self) -> str:
        inner = ", ".join(f"{t.value!r}: {self[t]}" for t in self)
        return f"ManaCounts({{{inner}}})"

    @property
    def total(self) -> int:
        """All the mana counted, whatever its type."""
        return sum(self._counts)

    def plus(self, other: Mapping[ManaKey, int]) -> "ManaCounts":
        """Counts added type by type."""
        o = other if isinstance(other, ManaCounts) else ManaCounts(other)
        return ManaCounts.from_tuple(a + b for a, b in zip(self._counts, o._counts))

    def _plus_at(self, index: int, amount: int) -> "ManaCounts":
        """A copy with ``amount`` (a non-negative int, already checked) more at ``index``: no
        count can turn invalid, so nothing is checked again."""
        values = list(self._counts)
        values[index] += amount
        counts = object.__new__(ManaCounts)
        counts._counts = tuple(values)
        return counts

    def with_count(self, key: ManaKey, amount: int) -> "ManaCounts":
        """A copy with one type's count replaced."""
        values = list(self._counts)
        values[mana_index(key)] = amount
        return ManaCounts.from_tuple(values)
