"""A player's mana pool (106.4) as an immutable multiset of mana.

Each mana has a type (106.1b) and, separately, may have come from a snow source: that is
not a type (107.4h) but it decides whether the mana can pay {S}, so the pool remembers it.
Other provenance (which permanent made the mana, spending restrictions, 106.6) belongs to
higher layers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import le

from .errors import ManaCostError, PoolError
from .symbols import SymbolKind, tokenize
from .types import MANA_TYPES, ManaCounts, ManaKey, ManaType, mana_index


def _amount(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"an amount of mana must be a non-negative integer, not {value!r}")
    return value


@dataclass(frozen=True)
class ManaPool:
    """``counts`` is all the mana by type; ``snow_counts`` how much of each type came from
    snow sources (never more than ``counts``)."""

    counts: ManaCounts = field(default_factory=ManaCounts)
    snow_counts: ManaCounts = field(default_factory=ManaCounts)

    def __post_init__(self) -> None:
        if type(self.counts) is ManaCounts and type(self.snow_counts) is ManaCounts:
            snowy = self.snow_counts._counts
            if not any(snowy) or all(map(le, snowy, self.counts._counts)):
                return      # the common case, as the checks below find it (no Python-level loop)
        for name in ("counts", "snow_counts"):
            value = getattr(self, name)
            if not isinstance(value, ManaCounts):
                object.__setattr__(self, name, ManaCounts(value))
        if any(s > a for s, a in zip(self.snow_counts.as_tuple(), self.counts.as_tuple())):
            raise ValueError("a pool cannot hold more snow mana of a type than mana of that type")

    @classmethod
    def of(cls, *types: ManaKey, snow: bool = False) -> "ManaPool":
        """``ManaPool.of("R", "R", ManaType.C)``; ``snow=True`` marks all of it as snow."""
        pool = cls()
        for t in types:
            pool = pool.add(t, snow=snow)
        return pool

    @classmethod
    def parse(cls, text: str, *, snow: bool = False) -> "ManaPool":
        """Read ``"{R}{R}{C}"`` with the mana cost tokenizer.  Only {W} {U} {B} {R} {G} {C}
        name mana that can be in a pool (106.1b); anything else raises ManaCostError."""
        pool = cls()
        for position, symbol in tokenize(text):
            if symbol.kind is SymbolKind.COLORLESS:
                pool = pool.add(ManaType.C, snow=snow)
            elif symbol.kind is SymbolKind.COLORED:
                pool = pool.add(symbol.components[0].mana_type, snow=snow)
            else:
                raise ManaCostError(
                    text, position, "a type of mana a pool can hold (106.1b): {W}, {U}, {B}, {R}, {G} or {C}", str(symbol)
                )
        return pool

    # -- queries ------------------------------------------------------------------------

    def count(self, mana_type: ManaKey, snow: bool | None = None) -> int:
        """Mana of a type: all of it (None), only snow (True) or only non-snow (False)."""
        i = mana_index(mana_type)
        if snow is None:
            return self.counts._counts[i]
        snowy = self.snow_counts._counts[i]
        return snowy if snow else self.counts._counts[i] - snowy

    @property
    def total(self) -> int:
        return self.counts.total

    @property
    def snow_total(self) -> int:
        return self.snow_counts.total

    @property
    def is_empty(self) -> bool:
        return self.total == 0

    def units(self) -> tuple[tuple[ManaType, bool], ...]:
        """Every mana as ``(type, from a snow source)``, WUBRGC order, non-snow first."""
        out: list[tuple[ManaType, bool]] = []
        for t, n, snowy in zip(MANA_TYPES, self.counts.as_tuple(), self.snow_counts.as_tuple()):
            out += [(t, False)] * (n - snowy)
            out += [(t, True)] * snowy
        return tuple(out)

    def __iter__(self) -> Iterator[ManaType]:
        return (t for t, _ in self.units())

    def __str__(self) -> str:
        """The mana as symbols in WUBRGC order, e.g. ``{G}{G}{C}``; empty pool: ``""``."""
        return "".join(("{" + t._value_ + "}") * n for t, n in zip(MANA_TYPES, self.counts.as_tuple()))

    # -- changes ------------------------------------------------------------------------

    def add(self, mana_type: ManaKey, amount: int = 1, *, snow: bool = False) -> "ManaPool":
        """The pool with ``amount`` more mana of a type (106.4)."""
        i = mana_index(mana_type)
        amount = _amount(amount)
        counts = self.counts._plus_at(i, amount)
        snow_counts = self.snow_counts._plus_at(i, amount) if snow else self.snow_counts
        return _made(counts, snow_counts)

    def __add__(self, other: "ManaPool") -> "ManaPool":
        if not isinstance(other, ManaPool):
            return NotImplemented
        return ManaPool(self.counts.plus(other.counts), self.snow_counts.plus(other.snow_counts))

    def remove(self, mana_type: ManaKey, amount: int = 1, *, snow: bool | None = None) -> "ManaPool":
        """The pool with ``amount`` mana of a type spent (118.3a).

        ``snow=None`` takes non-snow mana first (keeping snow mana, which can pay more
        costs), ``True`` only snow mana, ``False`` only non-snow mana.  Raises PoolError if
        the pool does not hold enough (118.3: no partial payment).
        """
        t = ManaType.coerce(mana_type)
        amount = _amount(amount)
        plain, snowy = self.count(t, snow=False), self.count(t, snow=True)
        if snow is None:
            from_plain = min(plain, amount)
            from_snow = amount - from_plain
        elif snow:
            from_plain, from_snow = 0, amount
        else:
            from_plain, from_snow = amount, 0
        if from_plain > plain or from_snow > snowy:
            which = "" if snow is None else ("snow " if snow else "non-snow ")
            raise PoolError(f"cannot remove {amount} {which}{{{t.value}}} from a pool holding {str(self) or 'nothing'}")
        counts = self.counts.with_count(t, self.counts[t] - amount)
        snow_counts = self.snow_counts.with_count(t, snowy - from_snow)
        return _made(counts, snow_counts)


def _made(counts: ManaCounts, snow_counts: ManaCounts) -> ManaPool:
    """``ManaPool(counts, snow_counts)``: without the frozen ``__init__`` when ``__post_init__``'s
    common case holds (two ManaCounts, no more snow mana of a type than mana), which it would
    leave as they are; anything else through ``__init__`` (its conversions, its error)."""
    snowy = snow_counts._counts
    if type(counts) is not ManaCounts or type(snow_counts) is not ManaCounts \
            or (any(snowy) and not all(map(le, snowy, counts._counts))):
        return ManaPool(counts, snow_counts)
    pool = _new(ManaPool)
    fields = pool.__dict__
    fields["counts"] = counts
    fields["snow_counts"] = snow_counts
    return pool


_new = object.__new__
