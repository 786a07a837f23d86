"""The pure mana layer of the oracle: symbols and costs (107.4, 202), the mana pool (106),
announced costs and their arithmetic (601.2b, 601.2f, 118.7) and the payment solver (118.3).

Pure, deterministic, standard library only.  ``bruteforce`` is a slow reference for tests
and is deliberately not re-exported.
"""

from .concrete import LIFE_PER_PHYREXIAN, ConcreteCost, resolve_choices
from .cost import ManaCost
from .errors import ChoiceError, ManaCostError, PoolError
from .pool import ManaPool
from .reduction import apply_floor, reduce_by_symbol, reduce_generic, reduce_typed, set_total
from .solver import Payment, solve
from .sources import ManaUnit, Source
from .symbols import ManaSymbol, SymbolKind
from .types import COLOR_PAIRS, Color, ManaCounts, ManaType, card_color_order, pair_order

__all__ = [
    "COLOR_PAIRS",
    "ChoiceError",
    "Color",
    "ConcreteCost",
    "LIFE_PER_PHYREXIAN",
    "ManaCost",
    "ManaCostError",
    "ManaCounts",
    "ManaPool",
    "ManaSymbol",
    "ManaType",
    "ManaUnit",
    "Payment",
    "PoolError",
    "Source",
    "SymbolKind",
    "apply_floor",
    "card_color_order",
    "pair_order",
    "reduce_by_symbol",
    "reduce_generic",
    "reduce_typed",
    "set_total",
    "resolve_choices",
    "solve",
]
