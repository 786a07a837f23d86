"""The cost a player actually has to pay once the 601.2b choices are made.

``ConcreteCost`` has no hybrid, Phyrexian or variable symbols left: only amounts of mana of
each type (W, U, B, R, G and colorless C), generic mana, snow mana ({S}, 107.4h) and life.
It is the unit of cost arithmetic (increases and reductions, 601.2f, 118.7) and of the
Trinisphere-like floor; ``resolve_choices`` builds it from a printed ``ManaCost``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import ChoiceError, ManaCostError
from .symbols import HYBRID_KINDS, PHYREXIAN_KINDS, ManaSymbol, SymbolKind, tokenize
from .types import Color, ManaCounts, ManaType, card_color_order
from .cost import ManaCost

LIFE_PER_PHYREXIAN = 2  # 107.4f: a Phyrexian symbol may be paid with 2 life


def _check_amount(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, not {value!r}")


@dataclass(frozen=True)
class ConcreteCost:
    """Mana and life to pay: ``colored`` counts W..G and C mana that must be of that type,
    ``generic`` can be paid with any type (107.4b), ``snow`` with mana of any type from a
    snow source (107.4h) and ``life`` in life (118.3b)."""

    colored: Mapping[ManaType, int] = field(default_factory=ManaCounts)
    generic: int = 0
    life: int = 0
    snow: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.colored, ManaCounts):
            object.__setattr__(self, "colored", ManaCounts(self.colored))
        for name in ("generic", "life", "snow"):
            _check_amount(name, getattr(self, name))

    @classmethod
    def of(cls, generic: int = 0, *, life: int = 0, snow: int = 0, **types: int) -> "ConcreteCost":
        """Keyword shorthand: ``ConcreteCost.of(1, B=2)`` is {1}{B}{B}."""
        return cls(ManaCounts(types), generic, life, snow)

    @classmethod
    def parse(cls, text: str, life: int = 0) -> "ConcreteCost":
        """Read text with only {n}, {W}..{G}, {C} and {S} symbols (no choices left to make)."""
        colored = [0] * 6
        generic = snow = 0
        for position, symbol in tokenize(text):
            if symbol.kind is SymbolKind.GENERIC:
                generic += symbol.number
            elif symbol.kind is SymbolKind.SNOW:
                snow += 1
            elif symbol.kind is SymbolKind.COLORLESS:
                colored[ManaType.C.index] += 1
            elif symbol.kind is SymbolKind.COLORED:
                colored[symbol.components[0].mana_type.index] += 1
            else:
                raise ManaCostError(
                    text, position, "a symbol of a concrete cost: {n}, {W}, {U}, {B}, {R}, {G}, {C} or {S}", str(symbol)
                )
        return cls(ManaCounts.from_tuple(colored), generic, life, snow)

    @property
    def mana_amount(self) -> int:
        """Total mana to pay, life excluded (what a floor such as Trinisphere's compares,
        601.2f)."""
        return self.colored.total + self.generic + self.snow  # type: ignore[attr-defined]

    @property
    def is_zero(self) -> bool:
        """Nothing to pay: no mana and no life (a {0} cost, 118.5)."""
        return self.mana_amount == 0 and self.life == 0

    def add(self, other: "int | ConcreteCost") -> "ConcreteCost":
        """Increase by ``other`` generic mana or by another cost (601.2f)."""
        if isinstance(other, ConcreteCost):
            return ConcreteCost(
                self.colored.plus(other.colored),  # type: ignore[attr-defined]
                self.generic + other.generic,
                self.life + other.life,
                self.snow + other.snow,
            )
        _check_amount("an increase", other)
        return ConcreteCost(self.colored, self.generic + other, self.life, self.snow)

    def __add__(self, other: "int | ConcreteCost") -> "ConcreteCost":
        if isinstance(other, (int, ConcreteCost)) and not isinstance(other, bool):
            return self.add(other)
        return NotImplemented

    def to_mana_cost(self) -> ManaCost:
        """The mana part as a ``ManaCost`` (life is not a mana symbol, so it is left out)."""
        symbols: list[ManaSymbol] = []
        if self.generic:
            symbols.append(ManaSymbol.generic(self.generic))
        symbols += [ManaSymbol.snow()] * self.snow
        symbols += [ManaSymbol.colorless()] * self.colored[ManaType.C]
        for color in card_color_order(t.color for t in self.colored if t.color is not None):
            symbols += [ManaSymbol.colored(color)] * self.colored[color.mana_type]
        return ManaCost(tuple(symbols))

    def __str__(self) -> str:
        """The mana part printed like a mana cost, ``{0}`` when there is none; see ``life``."""
        return str(self.to_mana_cost()) or "{0}"


# resolve_choices' answers by the cost's identity and the choices: a pure function of frozen
# values, asked twice per cast (propose checks the announced choices, pay resolves the same) and
# for the same few costs case after case (costs are parsed once per text). The entry keeps its
# cost, so an id is never taken for another's; emptied when full, as a fuzz run makes new costs.
_RESOLVED: dict[tuple, tuple[ManaCost, ConcreteCost]] = {}
_RESOLVED_LIMIT = 4096


def _choices_key(cost: object, x: object, y: object, z: object, hybrid: object, phyrexian: object) -> tuple | None:
    """The memo key of plain arguments, None for anything else (a bool for X, a string for the
    hybrid list...: those take the full checks every time, and their errors)."""
    if type(cost) is not ManaCost or not ((x is None or type(x) is int) and (y is None or type(y) is int)
                                          and (z is None or type(z) is int)):
        return None
    choices = []
    for given in (hybrid, phyrexian):       # loops, not all(generator): every payment asks
        if given is None:
            choices.append(None)
            continue
        if type(given) is not list and type(given) is not tuple:
            return None
        for v in given:
            if type(v) is not str:
                return None
        choices.append(tuple(given))
    return (id(cost), x, y, z, choices[0], choices[1])


def resolve_choices(
    cost: ManaCost,
    x: int | None,
    hybrid: Sequence[str] | None = None,
    phyrexian: Sequence[str] | None = None,
    *,
    y: int | None = None,
    z: int | None = None,
) -> ConcreteCost:
    """The cost to pay after the 601.2b announcements (118.13a).

    ``x`` (and ``y``, ``z``) is the announced value of the variable (107.3a); None means not
    announced, which is an error when the cost has that variable.  A value other than 0 for
    a variable the cost does not have is an error too (``invalid_x``).

    ``hybrid`` lists, in symbol order, the half chosen for each hybrid, twobrid, colorless
    hybrid and hybrid Phyrexian symbol (``"W"``, ``"2"``, ``"C"``...).  A hybrid Phyrexian
    symbol paid with life still takes an entry (any of its halves); it is ignored.
    ``phyrexian`` lists ``"mana"`` or ``"life"`` for each Phyrexian and hybrid Phyrexian
    symbol; each ``"life"`` adds 2 life (107.4f).  Wrong lengths or values raise
    ``ChoiceError`` with code ``invalid_hybrid_choice`` / ``invalid_phyrexian_choice``.
    """
    key = _choices_key(cost, x, y, z, hybrid, phyrexian)   # plain choices: the answer is kept (_RESOLVED)
    if key is not None:
        hit = _RESOLVED.get(key)
        if hit is not None and hit[0] is cost:
            return hit[1]
    if not isinstance(cost, ManaCost):
        raise TypeError("resolve_choices takes a ManaCost")
    values = {"X": x, "Y": y, "Z": z}
    for letter, value in values.items():
        if value is None:
            if letter in cost.variables:
                raise ChoiceError("invalid_x", f"no value announced for {{{letter}}}", rules=("107.3a",))
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ChoiceError("invalid_x", f"{letter} must be a non-negative integer, not {value!r}", rules=("107.1b",))
        elif value and letter not in cost.variables:
            raise ChoiceError("invalid_x", f"{letter}={value} announced for a cost without {{{letter}}}")

    hybrid_symbols = cost.symbols_of(HYBRID_KINDS)
    phyrexian_symbols = cost.symbols_of(PHYREXIAN_KINDS)
    hybrid = _choice_list("invalid_hybrid_choice", "hybrid", hybrid, len(hybrid_symbols))
    phyrexian = _choice_list("invalid_phyrexian_choice", "Phyrexian", phyrexian, len(phyrexian_symbols))

    colored = [0] * 6
    generic = snow = life = 0
    hybrid_index = phyrexian_index = 0
    for symbol in cost.symbols:
        kind = symbol.kind
        half: str | None = None
        if kind in HYBRID_KINDS:
            half = hybrid[hybrid_index]
            if half not in symbol.halves:
                raise ChoiceError(
                    "invalid_hybrid_choice",
                    f"{half!r} is not a half of {symbol}; choose one of {', '.join(symbol.halves)}",
                    hybrid_index,
                )
            hybrid_index += 1
        if kind in PHYREXIAN_KINDS:
            way = phyrexian[phyrexian_index]
            if way not in ("mana", "life"):
                raise ChoiceError(
                    "invalid_phyrexian_choice", f"{way!r} for {symbol}: choose 'mana' or 'life'", phyrexian_index
                )
            phyrexian_index += 1
            if way == "life":
                life += LIFE_PER_PHYREXIAN
                continue
            if kind is SymbolKind.PHYREXIAN:
                half = symbol.components[0].value
        if kind is SymbolKind.GENERIC:
            generic += symbol.number
        elif kind is SymbolKind.X:
            generic += values[symbol.variable] or 0  # 107.3a: X stands for generic mana
        elif kind is SymbolKind.SNOW:
            snow += 1
        elif kind is SymbolKind.COLORLESS:
            colored[ManaType.C.index] += 1
        elif kind is SymbolKind.COLORED:
            colored[symbol.components[0].mana_type.index] += 1
        elif half == "2":
            generic += symbol.number  # the generic half of {2/W} (107.4e)
        else:
            assert half is not None
            colored[ManaType(half).index] += 1
    value = ConcreteCost(ManaCounts.from_tuple(colored), generic, life, snow)
    if key is not None:
        if len(_RESOLVED) >= _RESOLVED_LIMIT:
            _RESOLVED.clear()
        _RESOLVED[key] = (cost, value)
    return value


def _choice_list(code: str, what: str, given: Sequence[str] | None, needed: int) -> list[str]:
    if given is None:
        given = ()
    if isinstance(given, str):
        raise ChoiceError(code, f"{what} choices must be a sequence of strings, not one string")
    entries = []
    for i, item in enumerate(given):
        if isinstance(item, (Color, ManaType)):
            item = item.value
        if not isinstance(item, str):
            raise ChoiceError(code, f"{what} choice {item!r} is not a string", i)
        entries.append(item)
    if len(entries) != needed:
        raise ChoiceError(code, f"{len(entries)} {what} choice(s) given for {needed} symbol(s)")
    return entries


__all__ = ["ConcreteCost", "resolve_choices", "LIFE_PER_PHYREXIAN"]
