"""The oracle's single doorway to the mana layer (oracle/mana/).

Every use of the mana API goes through here, so the rest of the oracle does not depend on its
module layout. Reductions by a generic or a typed symbol go through the oracle's seams
(`oracle.seams`), so a variant of the oracle can change how one applies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .mana import (ChoiceError, ConcreteCost, ManaCost, ManaCostError, ManaPool, ManaSymbol, ManaType, ManaUnit,
                   Source, SymbolKind, apply_floor, reduce_by_symbol, reduce_generic, reduce_typed,
                   resolve_choices, set_total, solve)
from .mana.types import ManaCounts
from .seams import rules

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_GENERIC = SymbolKind.GENERIC
_COLORED = SymbolKind.COLORED

__all__ = ["ChoiceError", "ConcreteCost", "ManaCost", "ManaCostError", "ManaCounts", "ManaPool", "ManaSymbol",
           "ManaType", "SymbolKind", "apply_floor", "reduce_generic", "reduce_typed", "resolve_choices", "set_total"]

WUBRG = ("W", "U", "B", "R", "G")


def parse_cost(text: str | None) -> ManaCost | None:
    """None stays None: an object with no mana cost (202.1b)."""
    if text is None:
        return None
    return ManaCost.parse(text)


def cost_text(cost: ManaCost | None) -> str | None:
    return None if cost is None else (str(cost) or "{0}")


def colors_of(cost: ManaCost | None) -> tuple[str, ...]:
    """The colours of a mana cost's symbols in WUBRG order (105.2, 202.2); every object's
    characteristics ask it of the few costs the cards print (each parsed once: kept by the
    cost's identity, the entry holding its cost so the id is never another's)."""
    if cost is None:
        return ()
    hit = _COLORS.get(id(cost))
    if hit is not None and hit[0] is cost:
        return hit[1]
    cs = {c.value for c in cost.colors}
    value = tuple(c for c in WUBRG if c in cs)
    if len(_COLORS) >= 4096:
        _COLORS.clear()
    _COLORS[id(cost)] = (cost, value)
    return value


_COLORS: dict[int, tuple[ManaCost, tuple[str, ...]]] = {}


def concrete_text(cost: ConcreteCost) -> str:
    """The locked total's mana part: generic, {C}, then WUBRG (case format); kept by the
    amounts (a few dozen totals recur across the suite)."""
    key = (cost.generic, cost.snow, cost.colored.as_tuple())
    text = _CONCRETE_TEXTS.get(key)
    if text is None:
        if len(_CONCRETE_TEXTS) >= 4096:
            _CONCRETE_TEXTS.clear()
        text = _CONCRETE_TEXTS[key] = _concrete_text(cost)
    return text


_CONCRETE_TEXTS: dict[tuple, str] = {}


def _concrete_text(cost: ConcreteCost) -> str:
    parts = []
    if cost.generic:
        parts.append("{%d}" % cost.generic)
    parts += ["{S}"] * cost.snow
    *wubrg, colorless = cost.colored.as_tuple()      # ConcreteCost holds ManaCounts (WUBRGC order)
    parts += ["{C}"] * colorless
    for c, n in zip(WUBRG, wubrg):
        parts += ["{%s}" % c] * n
    return "".join(parts) or "{0}"


def pool_text(pool: ManaPool) -> str:
    return str(pool)


def hybrid_options(cost: ManaCost) -> list[tuple[str, ...]]:
    """For each symbol needing a hybrid choice (printed order): its halves."""
    return [s.halves for s in cost.symbols if s.halves]


def phyrexian_count(cost: ManaCost) -> int:
    count = 0
    for s in cost.symbols:      # a loop, not sum(generator): every cast asks
        if s.kind in _PHYREXIAN_KINDS:
            count += 1
    return count


_PHYREXIAN_KINDS = (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN)


# ---- reductions (118.7) ------------------------------------------------------------------

def reduce(cost: ConcreteCost, amount: ManaCost, choice: str | None,
           only_coloured: bool = False) -> tuple[ConcreteCost, str]:
    """Reduce `cost` by the mana of `amount` ("{1}", "{R}", "{2/R}", "{C}"...), symbol by
    symbol (118.7a-g); `choice` picks the half of a hybrid symbol (118.7e). `only_coloured`:
    the reduction's own text limits it to the coloured mana of the cost, so a coloured symbol
    the cost lacks reduces nothing instead of generic mana (118.7b-c do not apply)."""
    found: list[str] = []
    for sym in amount.symbols:
        if sym.kind is _GENERIC:
            cost, rule = rules().reduce_generic(cost, sym.number)
        elif sym.kind is _COLORED and only_coloured:
            colour = ManaType(sym.components[0].value)
            if cost.colored[colour] == 0:
                continue
            cost, rule = rules().reduce_typed(cost, colour, 1)
            rule = "118.7"
        elif sym.kind is _COLORED:
            cost, rule = rules().reduce_typed(cost, ManaType(sym.components[0].value), 1)
        elif sym.kind is SymbolKind.COLORLESS:
            cost, rule = rules().reduce_typed(cost, ManaType.C, 1)
        else:
            half = choice if (choice in sym.halves or not sym.halves) else sym.halves[0]
            cost, rule = reduce_by_symbol(cost, sym, half if sym.halves else None)
        found.append(rule)
    return cost, ", ".join(dict.fromkeys(found)) or "118.7"


# ---- paying (601.2h) ------------------------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    """One mana a source would add: any one of `types`; `snow` when the source is a snow
    permanent (107.4h: only such mana pays {S})."""
    types: frozenset[ManaType]
    snow: bool = False


@dataclass(frozen=True)
class Supply:
    """What one mana ability activation would add (all of it, or nothing)."""
    key: str
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class Plan:
    """The activations to make (the pool pays the rest afterwards)."""
    activations: tuple[str, ...]
    types: tuple[tuple[str, ...], ...] = ()     # per activation: the type chosen for each unit


def _pool_units(pool: ManaPool) -> list[tuple[frozenset[ManaType], bool]]:
    """Each mana of the pool: its type, and whether it came from a snow source (107.4h)."""
    return [(frozenset({t}), snow) for t, snow in pool.units()]


def _fits(cost: ConcreteCost, units: Sequence[tuple[frozenset[ManaType], bool]]) -> list[int] | None:
    """Assign units to the cost's colored and {S} demands (matching; {S} takes any type of snow
    mana, 107.4h), then generic. Returns the indices of the units used, or None."""
    demands: list[tuple[frozenset[ManaType], bool]] = []
    for t in ManaType:
        demands += [(frozenset({t}), False)] * cost.colored[t]
    demands += [(frozenset(ManaType), True)] * cost.snow
    match_of_unit: dict[int, int] = {}
    for d in range(len(demands)):
        if not _assign(d, set(), demands, units, match_of_unit):
            return None
    free = [u for u in range(len(units)) if u not in match_of_unit]
    free.sort(key=lambda u: (units[u][1], len(units[u][0]) > 1, 0 if ManaType.C in units[u][0] else 1))
    if len(free) < cost.generic:
        return None
    return sorted(match_of_unit) + free[:cost.generic]


def _assign(d: int, seen: set[int], demands: Sequence[tuple[frozenset[ManaType], bool]],
            units: Sequence[tuple[frozenset[ManaType], bool]], match_of_unit: dict[int, int]) -> bool:
    """An augmenting path for demand `d` (Kuhn's matching). A module function, not a closure
    calling itself: that closure made a reference cycle per payment, freed only by the garbage
    collector."""
    accepts, snow_only = demands[d]
    for u in range(len(units)):
        if u in seen or not (units[u][0] & accepts) or (snow_only and not units[u][1]):
            continue
        seen.add(u)
        if u not in match_of_unit or _assign(match_of_unit[u], seen, demands, units, match_of_unit):
            match_of_unit[u] = d
            return True
    return False


def plan_payment(cost: ConcreteCost, pool: ManaPool, supplies: Sequence[Supply]) -> Plan | None:
    """The activations that, with the pool, pay the mana part of `cost` exactly (the mana
    layer's max-flow solver); None if impossible (601.2h, no partial payment)."""
    sources = tuple(Source(s.key, tuple(ManaUnit(u.types, snow=u.snow) for u in s.units)) for s in supplies)
    payment = solve(ConcreteCost(cost.colored, cost.generic, 0, cost.snow), pool, sources)
    if payment is None:
        return None
    keys = tuple(k for k, _ in payment.activations)
    types = tuple(tuple(t.value for t in ts) for _, ts in payment.activations)
    return Plan(keys, types)


def pay_from_pool(cost: ConcreteCost, pool: ManaPool) -> ManaPool | None:
    """The pool after paying the mana part from it alone, or None (118.3a): the mana spent is
    chosen by a deterministic matching (coloured demands first, then generic, colourless first)."""
    if not cost.snow:
        return _pay_by_type(cost, pool)
    units = _pool_units(pool)
    used = _fits(cost, units)
    if used is None:
        return None
    spent: dict[tuple[ManaType, bool], int] = {}      # by type and snow: one removal each, not one per mana
    for u in used:
        key = (next(iter(units[u][0])), units[u][1])
        spent[key] = spent.get(key, 0) + 1
    out = pool
    for (t, snow), n in spent.items():
        out = out.remove(t, n, snow=snow)
    return out


_GENERIC_ORDER = (5, 0, 1, 2, 3, 4)       # C, then W U B R G (indices in WUBRGC order)


def _pay_by_type(cost: ConcreteCost, pool: ManaPool) -> ManaPool | None:
    """`pay_from_pool` for a cost with no {S}: the matching's choice, worked out by type. With no
    demand accepting two types, each coloured demand takes the first mana of its type in the
    pool's order (non-snow before snow), and generic the first free mana by the matching's
    preference (non-snow first, colourless first, then WUBRG)."""
    snowy = list(pool.snow_counts.as_tuple())
    plain = [n - s for n, s in zip(pool.counts.as_tuple(), snowy)]
    for i, n in enumerate(cost.colored.as_tuple()):
        if n:
            if n > plain[i] + snowy[i]:
                return None
            from_plain = min(n, plain[i])
            plain[i] -= from_plain
            snowy[i] -= n - from_plain
    generic = cost.generic
    for held in (plain, snowy):
        for i in _GENERIC_ORDER:
            if not generic:
                break
            taken = min(generic, held[i])
            held[i] -= taken
            generic -= taken
    if generic:
        return None
    return ManaPool(ManaCounts.from_tuple([p + s for p, s in zip(plain, snowy)]), ManaCounts.from_tuple(snowy))
