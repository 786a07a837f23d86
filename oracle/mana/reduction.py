"""Cost reductions (118.7) and the minimum-cost floor, as pure functions on ConcreteCost.

Each function returns ``(new_cost, rule)``: ``rule`` names the rule that decided the result,
for the explanation trace (a reduction by a symbol names the symbol's rule first, then the
rule of the reduction it turns into, e.g. ``"118.7e, 118.7b"``).  Amounts stop at zero: a
cost whose mana is all reduced away is {0} (118.7, 601.2f).  Life is never reduced here.
"""

from __future__ import annotations

from .concrete import ConcreteCost
from .errors import ChoiceError
from .symbols import ManaSymbol, SymbolKind
from .types import Color, ManaType


def _amount(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"a reduction is a non-negative integer amount, not {n!r}")
    return n


def reduce_generic(cost: ConcreteCost, n: int) -> tuple[ConcreteCost, str]:
    """Reduce by ``n`` generic mana: only the generic component moves; colored, colorless
    and snow components are untouched (118.7a, 107.4h)."""
    n = _amount(n)
    return ConcreteCost(cost.colored, max(0, cost.generic - n), cost.life, cost.snow), "118.7a"


def reduce_typed(cost: ConcreteCost, mana_type: ManaType | Color | str, n: int) -> tuple[ConcreteCost, str]:
    """Reduce by ``n`` mana of one type.

    The component of that type goes down first; what is left over comes off the generic
    component (118.7c for a color, 118.7d for colorless).  If the cost asks for no mana of
    that type at all, the whole reduction comes off generic (118.7b).
    """
    t = ManaType.coerce(mana_type)
    n = _amount(n)
    have = cost.colored[t]
    if have == 0:
        reduced, _ = reduce_generic(cost, n)
        return reduced, "118.7b"
    taken = min(have, n)
    colored = cost.colored.with_count(t, have - taken)  # type: ignore[attr-defined]
    generic = max(0, cost.generic - (n - taken))
    return ConcreteCost(colored, generic, cost.life, cost.snow), ("118.7d" if t is ManaType.C else "118.7c")


def reduce_by_symbol(cost: ConcreteCost, symbol: ManaSymbol, choice: str | None = None) -> tuple[ConcreteCost, str]:
    """Reduce by the mana one symbol represents.

    - ``{n}``: n generic (118.7a); ``{W}``/``{C}``: one mana of that type (118.7b-d);
    - hybrid, twobrid, colorless hybrid, hybrid Phyrexian: the player picks a half, given as
      ``choice`` (``"W"``, ``"2"``, ``"C"``...), and the cost goes down by that (118.7e);
    - Phyrexian ``{W/P}``: one mana of its color (118.7f); ``choice`` may be omitted;
    - snow ``{S}``: one generic (118.7g).

    A missing or wrong ``choice`` raises ChoiceError (``invalid_hybrid_choice``); an X
    symbol has no amount yet and raises ChoiceError (``invalid_x``).
    """
    kind = symbol.kind
    if kind is SymbolKind.GENERIC:
        return reduce_generic(cost, symbol.number)
    if kind is SymbolKind.COLORLESS:
        return reduce_typed(cost, ManaType.C, 1)
    if kind is SymbolKind.COLORED:
        return reduce_typed(cost, symbol.components[0].mana_type, 1)
    if kind is SymbolKind.SNOW:
        reduced, _ = reduce_generic(cost, 1)
        return reduced, "118.7g"
    if kind is SymbolKind.X:
        raise ChoiceError("invalid_x", f"cannot reduce by {symbol} before its value is known")
    if kind is SymbolKind.PHYREXIAN:
        color = symbol.components[0].value
        if choice not in (None, color):
            raise ChoiceError("invalid_hybrid_choice", f"{symbol} reduces by {{{color}}} only, not {choice!r}")
        reduced, inner = reduce_typed(cost, color, 1)
        return reduced, f"118.7f, {inner}"
    if choice not in symbol.halves:
        raise ChoiceError(
            "invalid_hybrid_choice", f"choose a half of {symbol} ({', '.join(symbol.halves)}), not {choice!r}"
        )
    assert choice is not None
    if choice == "2":
        reduced, inner = reduce_generic(cost, symbol.number)
    else:
        reduced, inner = reduce_typed(cost, choice, 1)
    outer = "118.7e, 118.7f" if kind is SymbolKind.HYBRID_PHYREXIAN else "118.7e"
    return reduced, f"{outer}, {inner}"


def apply_floor(cost: ConcreteCost, minimum_mana: int) -> tuple[ConcreteCost, str]:
    """Raise the mana to pay to at least ``minimum_mana`` by adding generic mana, as
    Trinisphere does once increases and reductions are applied (601.2f: effects on the
    total cost apply after it is determined).  Life does not count toward the floor."""
    minimum_mana = _amount(minimum_mana)
    missing = minimum_mana - cost.mana_amount
    if missing > 0:
        cost = cost.add(missing)
    return cost, "601.2f"


def set_total(cost: ConcreteCost, mana: str) -> ConcreteCost:
    """The total's mana replaced by ``mana`` (an effect on the total once it is determined,
    601.2f: Test Fixed Toll); the life to pay stays."""
    return ConcreteCost.parse(mana, life=cost.life)
