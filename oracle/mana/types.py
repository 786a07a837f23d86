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
        return _TYPE_INDEX[self]

    @classmethod
    def coerce(cls, value: "ManaType | Color | str") -> "ManaType":
        """Accept a ManaType, a Color or a letter; raise ValueError on anything else."""
        if isinstance(value, ManaType):
            return value
        if isinstance(value, Color):
            return value.mana_type
        if isinstance(value, str):
            return cls(value)
        raise ValueError(f"not a mana type: {value!r}")


COLORS: tuple[Color, ...] = tuple(Color)
MANA_TYPES: tuple[ManaType, ...] = tuple(ManaType)
_COLOR_INDEX = {c: i for i, c in enumerate(COLORS)}
_TYPE_INDEX = {t: i for i, t in enumerate(MANA_TYPES)}


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
            values[ManaType.coerce(key).index] += amount
        self._counts: tuple[int, ...] = tuple(values)

    @classmethod
    def from_tuple(cls, values: Iterable[int]) -> "ManaCounts":
        """Build from six counts in WUBRGC order."""
        values = tuple(values)
        if len(values) != 6:
            raise ValueError("expected six counts in WUBRGC order")
        return cls(zip(MANA_TYPES, values))

    def as_tuple(self) -> tuple[int, ...]:
        """The six counts in WUBRGC order."""
        return self._counts

    def __getitem__(self, key: ManaKey) -> int:
        try:
            return self._counts[ManaType.coerce(key).index]
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

    def with_count(self, key: ManaKey, amount: int) -> "ManaCounts":
        """A copy with one type's count replaced."""
        values = list(self._counts)
        values[ManaType.coerce(key).index] = amount
        return ManaCounts.from_tuple(values)
