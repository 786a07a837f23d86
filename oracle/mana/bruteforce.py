"""An obviously correct, exponential reference for the payment solver.  Tests only.

It shares no logic with ``solver``: it enumerates every way to pay each symbol (hybrid
halves, twobrid, Phyrexian mana or life), every subset of sources to activate and every
type for every unit, and checks each resulting bag of mana against each resulting cost by
enumerating how the snow mana covers {S}.  Identical bags are merged as they are built, which
changes nothing about what is enumerated.  Use it on small instances only.

``verify_payment`` independently checks that a ``Payment`` really pays a cost.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from .concrete import ConcreteCost
from .cost import ManaCost
from .pool import ManaPool
from .solver import Payment
from .sources import Source
from .symbols import SymbolKind
from .types import MANA_TYPES, ManaType

# A requirement: (six typed amounts in WUBRGC order, generic, snow, life).
Requirement = tuple[tuple[int, ...], int, int, int]
# A bag of mana: twelve counts, index 2*type + (1 if from a snow source).
Bag = tuple[int, ...]


def _symbol_options(symbol) -> list[Requirement]:
    def typed(t: ManaType) -> Requirement:
        amounts = [0] * 6
        amounts[MANA_TYPES.index(t)] = 1
        return tuple(amounts), 0, 0, 0

    none = (0,) * 6
    kind = symbol.kind
    if kind is SymbolKind.X:
        raise ValueError("X must be announced first")
    if kind is SymbolKind.GENERIC:
        return [(none, symbol.number, 0, 0)]
    if kind is SymbolKind.SNOW:
        return [(none, 0, 1, 0)]
    if kind is SymbolKind.COLORLESS:
        return [typed(ManaType.C)]
    colors = [ManaType(c.value) for c in symbol.components]
    if kind is SymbolKind.COLORED:
        return [typed(colors[0])]
    if kind is SymbolKind.HYBRID:
        return [typed(colors[0]), typed(colors[1])]
    if kind is SymbolKind.TWOBRID:
        return [typed(colors[0]), (none, 2, 0, 0)]
    if kind is SymbolKind.COLORLESS_HYBRID:
        return [typed(colors[0]), typed(ManaType.C)]
    if kind is SymbolKind.PHYREXIAN:
        return [typed(colors[0]), (none, 0, 0, 2)]
    if kind is SymbolKind.HYBRID_PHYREXIAN:
        return [typed(colors[0]), typed(colors[1]), (none, 0, 0, 2)]
    raise AssertionError(kind)


def requirement_options(cost: ManaCost | ConcreteCost) -> set[Requirement]:
    """Every concrete requirement the cost can turn into, one per combination of ways."""
    if isinstance(cost, ConcreteCost):
        return {(tuple(cost.colored[t] for t in MANA_TYPES), cost.generic, cost.snow, cost.life)}
    options: set[Requirement] = set()
    for combo in itertools.product(*(_symbol_options(s) for s in cost.symbols)):
        amounts = tuple(sum(r[0][i] for r in combo) for i in range(6))
        options.add((amounts, sum(r[1] for r in combo), sum(r[2] for r in combo), sum(r[3] for r in combo)))
    return options


def reachable_bags(pool: ManaPool, sources: Sequence[Source]) -> set[Bag]:
    """Every bag of mana the player can hold: the pool plus any subset of sources, with
    every choice of type for every unit."""
    start = [0] * 12
    for i, t in enumerate(MANA_TYPES):
        start[2 * i] = pool.count(t, snow=False)
        start[2 * i + 1] = pool.count(t, snow=True)
    bags = {tuple(start)}
    for source in sources:
        grown = set(bags)  # not activating it
        for bag in bags:
            for picks in itertools.product(*(sorted(u.types, key=MANA_TYPES.index) for u in source.units)):
                new = list(bag)
                for unit, t in zip(source.units, picks):
                    new[2 * MANA_TYPES.index(t) + (1 if unit.snow else 0)] += 1
                grown.add(tuple(new))
        bags = grown
    return bags


def _compositions(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - first, caps[1:]):
            yield (first, *rest)


def bag_pays(bag: Bag, requirement: Requirement) -> bool:
    """Whether this exact bag of mana pays the requirement's mana (life is not checked)."""
    amounts, generic, snow, _ = requirement
    totals = [bag[2 * i] + bag[2 * i + 1] for i in range(6)]
    snowy = [bag[2 * i + 1] for i in range(6)]
    for for_snow in _compositions(snow, snowy):  # which snow mana pays each {S}
        left = [totals[i] - for_snow[i] for i in range(6)]
        if all(left[i] >= amounts[i] for i in range(6)) and sum(left) - sum(amounts) >= generic:
            return True
    return False


def min_life(
    cost: ManaCost | ConcreteCost, pool: ManaPool, sources: Sequence[Source], life_available: int | None = None
) -> int | None:
    """The least life any valid payment pays, or None if the cost cannot be paid."""
    budget = 0 if life_available is None else life_available
    bags = reachable_bags(pool, sources)
    lives = [
        r[3] for r in requirement_options(cost) if r[3] <= budget and any(bag_pays(bag, r) for bag in bags)
    ]
    return min(lives) if lives else None


def payable(cost, pool: ManaPool, sources: Sequence[Source], life_available: int | None = None) -> bool:
    return min_life(cost, pool, sources, life_available) is not None


# -- checking a payment ---------------------------------------------------------------------


def verify_payment(
    cost: ManaCost | ConcreteCost,
    pool: ManaPool,
    sources: Sequence[Source],
    payment: Payment,
    life_available: int | None = None,
) -> list[str]:
    """Problems with ``payment`` as a payment of ``cost``; an empty list means it pays."""
    problems: list[str] = []
    by_key = {s.key: s for s in sources}
    available: Counter[tuple[ManaType, bool]] = Counter(pool.units())
    seen: set[str] = set()
    for key, types in payment.activations:
        source = by_key.get(key)
        if source is None or key in seen:
            problems.append(f"activation of unknown or repeated source {key!r}")
            continue
        seen.add(key)
        if len(types) != len(source.units):
            problems.append(f"{key}: {len(types)} types for {len(source.units)} units")
            continue
        for unit, t in zip(source.units, types):
            if t not in unit.types:
                problems.append(f"{key}: a unit of {unit} cannot be {t.value}")
            available[(t, unit.snow)] += 1

    entries: dict[str, list[ManaType]] = {}
    for label, t in payment.spent:
        entries.setdefault(label, []).append(t)
    phyrexian_life = 0
    expected_labels: dict[str, tuple[SymbolKind, frozenset[ManaType], int, int]] = {}
    if isinstance(cost, ConcreteCost):
        fixed_life = cost.life
        if cost.generic:
            expected_labels["{%d}" % cost.generic] = (SymbolKind.GENERIC, frozenset(MANA_TYPES), 1, cost.generic)
        if cost.snow:
            expected_labels["{S}"] = (SymbolKind.SNOW, frozenset(MANA_TYPES), cost.snow, 1)
        for t in MANA_TYPES:
            if cost.colored[t]:
                expected_labels["{%s}" % t.value] = (SymbolKind.COLORED, frozenset({t}), cost.colored[t], 1)
    else:
        fixed_life = 0
        for symbol in cost.symbols:
            label = str(symbol)
            kind, accepts, count, size = expected_labels.get(label, (symbol.kind, symbol.accepts(), 0, 0))
            expected_labels[label] = (kind, accepts, count + 1, symbol.number if kind is SymbolKind.GENERIC else 1)
    for label in entries:
        if label not in expected_labels:
            problems.append(f"mana spent on {label}, which the cost does not have")
    for label, (kind, accepts, count, size) in expected_labels.items():
        got = entries.get(label, [])
        if kind is SymbolKind.GENERIC:
            if len(got) != count * size:
                problems.append(f"{label}: {len(got)} mana for {count * size} generic")
        elif kind is SymbolKind.TWOBRID:
            color = next(iter(accepts))
            by_color, by_generic = 2 * count - len(got), len(got) - count
            if by_color < 0 or by_generic < 0 or by_color > sum(1 for t in got if t is color):
                problems.append(f"{label}: {len(got)} mana cannot pay {count} symbol(s)")
        elif kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
            if len(got) > count or any(t not in accepts for t in got):
                problems.append(f"{label}: mana {got} cannot pay {count} symbol(s)")
            phyrexian_life += 2 * max(0, count - len(got))
        elif len(got) != count or any(t not in accepts for t in got):
            problems.append(f"{label}: mana {[t.value for t in got]} does not pay {count} symbol(s)")

    if payment.life != fixed_life + phyrexian_life:
        problems.append(f"life paid {payment.life}, cost asks {fixed_life + phyrexian_life}")
    if payment.life > (0 if life_available is None else life_available):
        problems.append(f"pays {payment.life} life with {life_available} available")

    spent_by_type = Counter(t for _, t in payment.spent)
    snow_by_type = Counter(t for label, t in payment.spent if label == "{S}")
    for t in MANA_TYPES:
        total = available[(t, False)] + available[(t, True)]
        if spent_by_type[t] > total:
            problems.append(f"spends {spent_by_type[t]} {t.value} with {total} available")
        if snow_by_type[t] > available[(t, True)]:
            problems.append(f"pays {{S}} with {snow_by_type[t]} {t.value} but has {available[(t, True)]} snow")
        left, left_snow = payment.leftover.count(t), payment.leftover.count(t, snow=True)
        if left != total - spent_by_type[t]:
            problems.append(f"leftover {left} {t.value}, expected {total - spent_by_type[t]}")
        if not (left_snow <= available[(t, True)] - snow_by_type[t] and left - left_snow <= available[(t, False)]):
            problems.append(f"leftover snow {t.value} inconsistent")
    return problems
