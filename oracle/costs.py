"""The oracle's single doorway to the mana layer (oracle/mana/).

Every use of the mana API goes through here, so the rest of the oracle does not depend on its
module layout. Where a piece of the agreed API is not available yet, a small local stand-in
is used (listed in STATUS.md); it is dropped as soon as oracle.mana provides the piece.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Sequence

try:  # the package's public API
    from .mana import (ChoiceError, ConcreteCost, ManaCost, ManaCostError, ManaPool,  # type: ignore
                       ManaSymbol, ManaType, SymbolKind, resolve_choices)
except ImportError:  # the package __init__ has not landed yet: use its modules
    from .mana.concrete import ConcreteCost, resolve_choices
    from .mana.cost import ManaCost
    from .mana.errors import ChoiceError, ManaCostError
    from .mana.pool import ManaPool
    from .mana.symbols import ManaSymbol, SymbolKind
    from .mana.types import ManaType

from .mana.types import ManaCounts

WUBRG = ("W", "U", "B", "R", "G")

try:
    from .mana import reduce_by_symbol, reduce_generic, reduce_typed, apply_floor  # type: ignore
    HAVE_REDUCTIONS = True
except ImportError:
    try:
        from .mana.reduction import reduce_by_symbol, reduce_generic, reduce_typed, apply_floor  # type: ignore
        HAVE_REDUCTIONS = True
    except ImportError:
        HAVE_REDUCTIONS = False

try:
    from .mana import ManaUnit, Source, solve  # type: ignore
    HAVE_SOLVER = True
except ImportError:
    try:
        from .mana.sources import ManaUnit, Source  # type: ignore
        from .mana.solver import solve  # type: ignore
        HAVE_SOLVER = True
    except ImportError:
        HAVE_SOLVER = False


def parse_cost(text: str | None) -> ManaCost | None:
    """None stays None: an object with no mana cost (202.1b)."""
    if text is None:
        return None
    return ManaCost.parse(text)


def cost_text(cost: ManaCost | None) -> str | None:
    return None if cost is None else (str(cost) or "{0}")


def colors_of(cost: ManaCost | None) -> tuple[str, ...]:
    if cost is None:
        return ()
    cs = {c.value for c in cost.colors}
    return tuple(c for c in WUBRG if c in cs)


def concrete_text(cost: ConcreteCost) -> str:
    """The locked total's mana part: generic, {C}, then WUBRG (case format)."""
    parts = []
    if cost.generic:
        parts.append("{%d}" % cost.generic)
    parts += ["{S}"] * cost.snow
    parts += ["{C}"] * cost.colored[ManaType.C]
    for c in WUBRG:
        parts += ["{%s}" % c] * cost.colored[ManaType(c)]
    return "".join(parts) or "{0}"


def pool_text(pool: ManaPool) -> str:
    return str(pool)


def hybrid_options(cost: ManaCost) -> list[tuple[str, ...]]:
    """For each symbol needing a hybrid choice (printed order): its halves."""
    return [s.halves for s in cost.symbols if s.halves]


def phyrexian_count(cost: ManaCost) -> int:
    return sum(1 for s in cost.symbols
               if s.kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN))


# ---- reductions and floors (118.7, 601.2f) -----------------------------------------------

def _replace(cost: ConcreteCost, colored=None, generic=None, snow=None) -> ConcreteCost:
    return ConcreteCost(cost.colored if colored is None else colored,
                        cost.generic if generic is None else generic, cost.life,
                        cost.snow if snow is None else snow)


def reduce_generic_local(cost: ConcreteCost, n: int) -> tuple[ConcreteCost, str]:
    """118.7a: only the generic component shrinks, never below zero."""
    return _replace(cost, generic=max(0, cost.generic - n)), "118.7a"


def reduce_typed_local(cost: ConcreteCost, mana_type: ManaType, n: int) -> tuple[ConcreteCost, str]:
    """118.7b-d: typed reduction, the excess (or all of it) comes off generic."""
    have = cost.colored[mana_type]
    if have == 0:
        return _replace(cost, generic=max(0, cost.generic - n)), "118.7b"
    take = min(have, n)
    rest = n - take
    colored = cost.colored.with_count(mana_type, have - take)
    rule = "118.7b" if rest == 0 else ("118.7d" if mana_type is ManaType.C else "118.7c")
    return _replace(cost, colored=colored, generic=max(0, cost.generic - rest)), rule


def apply_floor_local(cost: ConcreteCost, minimum: int) -> tuple[ConcreteCost, str]:
    """Trinisphere-like floor: counts mana only (life is not mana); the extra is generic."""
    short = minimum - cost.mana_amount
    if short <= 0:
        return cost, "601.2f"
    return _replace(cost, generic=cost.generic + short), "601.2f"


def reduce(cost: ConcreteCost, amount: ManaCost, choice: str | None) -> tuple[ConcreteCost, str]:
    """Reduce `cost` by the mana of `amount` ("{1}", "{R}", "{2/R}", "{C}"...), symbol by
    symbol (118.7a-g); `choice` picks the half of a hybrid symbol (118.7e)."""
    rules: list[str] = []
    for sym in amount.symbols:
        if sym.kind is SymbolKind.GENERIC:
            cost, rule = _reduce_generic(cost, sym.number)
        elif sym.kind is SymbolKind.COLORED:
            cost, rule = _reduce_typed(cost, ManaType(sym.components[0].value), 1)
        elif sym.kind is SymbolKind.COLORLESS:
            cost, rule = _reduce_typed(cost, ManaType.C, 1)
        else:
            half = choice if (choice in sym.halves or not sym.halves) else sym.halves[0]
            if HAVE_REDUCTIONS:
                cost, rule = reduce_by_symbol(cost, sym, half if sym.halves else None)
            elif sym.kind is SymbolKind.PHYREXIAN:
                cost, _ = _reduce_typed(cost, ManaType(sym.components[0].value), 1)
                rule = "118.7f"
            elif sym.kind is SymbolKind.SNOW:
                cost, _ = _reduce_generic(cost, 1)
                rule = "118.7g"
            else:
                cost, _ = (_reduce_generic(cost, int(half)) if half.isdigit()
                           else _reduce_typed(cost, ManaType(half), 1))
                rule = "118.7e"
        rules.append(rule)
    return cost, ", ".join(dict.fromkeys(rules)) or "118.7"


def _reduce_generic(cost: ConcreteCost, n: int) -> tuple[ConcreteCost, str]:
    if HAVE_REDUCTIONS:
        return reduce_generic(cost, n)
    return reduce_generic_local(cost, n)


def _reduce_typed(cost: ConcreteCost, t: ManaType, n: int) -> tuple[ConcreteCost, str]:
    if HAVE_REDUCTIONS:
        return reduce_typed(cost, t, n)
    return reduce_typed_local(cost, t, n)


def floor(cost: ConcreteCost, minimum: int) -> tuple[ConcreteCost, str]:
    if HAVE_REDUCTIONS:
        return apply_floor(cost, minimum)
    return apply_floor_local(cost, minimum)


# ---- paying (601.2h) ------------------------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    """One mana a source would add: any one of `types`."""
    types: frozenset[ManaType]


@dataclass(frozen=True)
class Supply:
    """What one mana ability activation would add (all of it, or nothing)."""
    key: str
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Plan:
    """The activations to make and the mana to spend from the pool afterwards."""
    activations: tuple[str, ...]
    spent: ManaPool
    types: tuple[tuple[str, ...], ...] = ()     # per activation: the type chosen for each unit


def _pool_units(pool: ManaPool) -> list[frozenset[ManaType]]:
    return [frozenset({t}) for t in pool]


def _fits(cost: ConcreteCost, units: Sequence[frozenset[ManaType]]) -> list[int] | None:
    """Assign units to the cost's colored demands (matching), then generic. Returns the indices
    of the units used, or None."""
    demands: list[frozenset[ManaType]] = []
    for t in ManaType:
        demands += [frozenset({t})] * cost.colored[t]
    if cost.snow:
        return None  # snow sources are not modelled by the oracle
    n_units = len(units)
    match_of_unit: dict[int, int] = {}

    def try_assign(d: int, seen: set[int]) -> bool:
        for u in range(n_units):
            if u in seen or not (units[u] & demands[d]):
                continue
            seen.add(u)
            if u not in match_of_unit or try_assign(match_of_unit[u], seen):
                match_of_unit[u] = d
                return True
        return False

    for d in range(len(demands)):
        if not try_assign(d, set()):
            return None
    free = [u for u in range(n_units) if u not in match_of_unit]
    free.sort(key=lambda u: (len(units[u]) > 1, 0 if ManaType.C in units[u] else 1))
    if len(free) < cost.generic:
        return None
    return sorted(match_of_unit) + free[:cost.generic]


def plan_payment(cost: ConcreteCost, pool: ManaPool, supplies: Sequence[Supply]) -> Plan | None:
    """Find activations (fewest first, then listed order) and the pool mana that pays the
    mana part of `cost` exactly; None if impossible (601.2h, no partial payment)."""
    if HAVE_SOLVER:
        return _plan_with_solver(cost, pool, supplies)
    need = cost.mana_amount
    for size in range(0, len(supplies) + 1):
        for combo in combinations(range(len(supplies)), size):
            units = _pool_units(pool)
            owners: list[int | None] = [None] * len(units)
            for i in combo:
                for u in supplies[i].units:
                    units.append(u.types)
                    owners.append(i)
            if len(units) < need:
                continue
            used = _fits(cost, units)
            if used is None:
                continue
            # every activation must be used (no pointless activations), pool spends what it gives
            spent_pool = ManaPool()
            for u in used:
                if owners[u] is None:
                    spent_pool = spent_pool.add(next(iter(units[u])))
            return Plan(tuple(supplies[i].key for i in combo), spent_pool)
    return None


def _plan_with_solver(cost: ConcreteCost, pool: ManaPool, supplies: Sequence[Supply]) -> Plan | None:
    sources = tuple(Source(s.key, tuple(ManaUnit(u.types) for u in s.units)) for s in supplies)
    payment = solve(ConcreteCost(cost.colored, cost.generic, 0, cost.snow), pool, sources)
    if payment is None:
        return None
    keys = tuple(k for k, _ in payment.activations)
    types = tuple(tuple(t.value for t in ts) for _, ts in payment.activations)
    return Plan(keys, ManaPool(), types)


def pay_from_pool(cost: ConcreteCost, pool: ManaPool) -> ManaPool | None:
    """The pool after paying the mana part from it alone, or None (118.3a)."""
    plan = plan_payment(cost, pool, ())
    if plan is None:
        return None
    # spend exactly the mana chosen by a deterministic matching on the pool
    units = _pool_units(pool)
    used = _fits(cost, units)
    if used is None:
        return None
    out = pool
    for u in used:
        out = out.remove(next(iter(units[u])))
    return out
