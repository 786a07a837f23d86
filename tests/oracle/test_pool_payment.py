"""Paying a cost from the pool alone (oracle.costs.pay_from_pool): a cost with no {S} is paid by
type (`_pay_by_type`), which must spend exactly the mana the general matching (`_fits`) spends."""
from __future__ import annotations

import itertools
import random

from castrules.oracle.costs import ConcreteCost, ManaPool, ManaType, _fits, _pay_by_type, _pool_units, pay_from_pool
from castrules.oracle.mana.types import ManaCounts


def _by_matching(cost: ConcreteCost, pool: ManaPool) -> ManaPool | None:
    units = _pool_units(pool)
    used = _fits(cost, units)
    if used is None:
        return None
    out = pool
    for u in used:
        out = out.remove(next(iter(units[u][0])), 1, snow=units[u][1])
    return out


def _pools(rng: random.Random, n: int):
    for _ in range(n):
        counts = [rng.choice((0, 0, 1, 2, 3)) for _ in range(6)]
        snow = [rng.randint(0, c) if rng.random() < 0.4 else 0 for c in counts]
        yield ManaPool(ManaCounts.from_tuple(counts), ManaCounts.from_tuple(snow))


def test_by_type_spends_what_the_matching_spends():
    rng = random.Random(16)
    costs = [ConcreteCost(dict(zip(ManaType, colored)), generic)
             for colored in itertools.product((0, 1), (0, 2), (0,), (0, 1), (0, 1), (0, 1)) for generic in (0, 1, 3, 6)]
    checked = paid = 0
    for pool in _pools(rng, 150):
        for cost in costs:
            expected = _by_matching(cost, pool)
            assert _pay_by_type(cost, pool) == expected, (cost, pool)
            assert pay_from_pool(cost, pool) == expected
            checked += 1
            paid += expected is not None
    assert checked == 150 * len(costs) and 0 < paid < checked    # both outcomes were met


def test_a_snow_cost_still_goes_through_the_matching():
    pool = ManaPool.parse("{G}{G}") + ManaPool.parse("{G}", snow=True)
    assert pay_from_pool(ConcreteCost({}, 1, 0, 1), pool) == ManaPool.parse("{G}")
    assert pay_from_pool(ConcreteCost({}, 0, 0, 2), pool) is None
