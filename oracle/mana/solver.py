"""Can a cost be paid from the mana pool plus mana abilities still to activate, and how?

``solve`` is exact (it finds a payment whenever one exists) and polynomial.

Model.  Every mana that can take part is a *unit*: each mana in the pool (one fixed type)
and each unit of each source (the player picks one of its types, 106.1b).  Activating a
source is free here and unspent mana may stay in the pool (118.3c, 106.4), so activating
never hurts: payability only asks whether the units can be matched to what the cost asks.
The cost becomes *requirements*: one node per distinct symbol, accepting the types that pay
it (colored, {C}, hybrid {W/U}, colorless hybrid {C/W}: 107.4a-e), or any type from a snow
source ({S}, 107.4h), or also 2 life (Phyrexian, 107.4f, budget from ``life_available``),
plus *generic* mana, payable by any unit.  This is a bipartite b-matching, solved as a max
flow (``flow.FlowNetwork``, Dinic).  Units with the same types and snow flag are merged into
one node whose capacity is their number; merging identical nodes keeps the max flow, and it
leaves at most 12 pool classes + 126 source classes and ~40 requirement nodes, so the flow
network has a bounded size whatever the number of sources.

Choices.  Hybrid choices are edges of the network (a {W/U} node accepts W and U).  Twobrid
{2/W} (pay {W} or two generic) would change the amount of flow, so it is folded in by an
exchange argument instead of enumeration.  Let F be the fixed demand (every requirement but
generic and twobrid), k the twobrid symbols paid by color, l the Phyrexian symbols paid with
life, g the generic, T the twobrid count and N the number of units.  The generic part is
fillable by any unit, so a payment exists iff some flow saturates the fixed nodes and leaves
enough units over:  N - (F - l) - k >= g + 2(T - k),  i.e.  k + l >= g + 2T + F - N.
So it suffices to *maximise k + l* among flows that saturate the fixed nodes.  For a given
life budget L this is done in phases on one network (``flow`` explains why phases keep what
earlier ones achieved): push life (l = min(L, Phyrexian demand) is then maximal), then pool
mana, then source mana into the fixed nodes (they must saturate), then open the twobrid
nodes' sink edges and augment (k is then maximal given the rest: the flow is maximum).
"Payable with at most L life payments" is monotone in L, so a binary search finds the least
L that works, and the payment built at that L pays exactly L: mana is preferred to life.

Cost: O(n log n) to build the classes and map the flow back to units (n = units; the log
is one sort of the sources), plus O(log p) max flows of bounded size (p = Phyrexian
symbols): polynomial, and in practice linear in the number of sources (see
``castrules/benchmarks/bench_solver.py``).  Mana abilities with costs of their own (filter lands) are
not modelled here: a ``Source`` is free to activate.

Determinism and preferences.  A cost the pool alone can pay activates nothing (the pool-only
network is tried first); pool mana is pushed before source mana, spare pool mana pays
twobrid symbols generically rather than activating for them, and the flow is mapped
back to units taking pool mana first, then sources with more units first (a Sol Ring before
a Wastes), then the input order; generic mana comes from the leftover pool, then unused
units of sources already activated, then new activations.  Hybrid Phyrexian symbols paid
with life take their first half as the (ignored) hybrid choice.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from .concrete import LIFE_PER_PHYREXIAN, ConcreteCost
from .cost import ManaCost
from .errors import ChoiceError
from .flow import FlowNetwork
from .pool import ManaPool
from .sources import Source
from .symbols import PHYREXIAN_KINDS, SymbolKind
from .types import MANA_TYPES, ManaType, card_color_order


@dataclass(frozen=True)
class Payment:
    """How to pay: which sources to activate (and the type chosen for each of their units,
    in unit order), what mana goes to which symbol and how much life is paid.

    ``spent`` has one ``(symbol text, type)`` entry per mana spent, in the cost's symbol
    order (a ConcreteCost's symbols are its printed ones: ``{3}``, ``{S}``, ``{C}``, ``{W}``...).
    ``hybrid_choices`` and ``phyrexian_choices`` are the 601.2b announcements this payment
    makes, in the form ``resolve_choices`` takes (empty for a ConcreteCost).  ``leftover`` is
    the pool after paying (106.4a: it is announced).
    """

    activations: tuple[tuple[str, tuple[ManaType, ...]], ...]
    spent: tuple[tuple[str, ManaType], ...]
    life: int
    hybrid_choices: tuple[str, ...] = ()
    phyrexian_choices: tuple[str, ...] = ()
    leftover: ManaPool = field(default_factory=ManaPool)

    @property
    def activated(self) -> tuple[str, ...]:
        """Keys of the sources to activate, in input order."""
        return tuple(key for key, _ in self.activations)


@dataclass
class _Requirement:
    label: str
    accepts: frozenset[ManaType]
    demand: int
    snow_only: bool = False
    life_ok: bool = False
    optional: bool = False  # a twobrid's color side: flow here is k, not a must


@dataclass
class _Plan:
    requirements: list[_Requirement]
    index: dict[str, int]  # symbol text -> requirement
    generic: int
    twobrid: int
    fixed_life: int


@dataclass
class _UnitClass:
    types: frozenset[ManaType]
    snow: bool
    from_pool: bool
    count: int = 0

    def first_type(self, accepts: frozenset[ManaType]) -> ManaType:
        return next(t for t in MANA_TYPES if t in self.types and t in accepts)


def solve(
    cost: ManaCost | ConcreteCost,
    pool: ManaPool,
    sources: Sequence[Source] = (),
    life_available: int | None = None,
) -> Payment | None:
    """A payment of ``cost`` from ``pool`` plus ``sources``, or None if there is none.

    A ``ManaCost`` may still hold hybrid, twobrid and Phyrexian symbols (the solver makes
    those choices, 118.13a) but not X (announce it first with ``resolve_choices``: raises
    ChoiceError ``invalid_x``).  Life pays Phyrexian symbols (2 each) and a ConcreteCost's
    ``life`` only if ``life_available`` is given, and never more than it (118.3); mana is
    preferred to life.  Source keys must be unique.
    """
    if not isinstance(pool, ManaPool):
        raise TypeError("pool must be a ManaPool")
    sources = tuple(sources)
    if len({s.key for s in sources}) != len(sources):
        raise ValueError("source keys must be unique")
    if life_available is not None and (isinstance(life_available, bool) or not isinstance(life_available, int)):
        raise TypeError("life_available must be an int or None")
    plan = _plan(cost)
    life_left = 0 if life_available is None else max(0, life_available)
    if plan.fixed_life > life_left:
        return None
    classes, class_of = _classes(pool, sources)
    phyrexian_demand = sum(r.demand for r in plan.requirements if r.life_ok)
    budget = min(phyrexian_demand, (life_left - plan.fixed_life) // LIFE_PER_PHYREXIAN)

    # Pool mana alone first (it is already there, 106.4), then with activations; no life.
    best = _attempt(plan, classes, 0, with_sources=False) or _attempt(plan, classes, 0)
    if best is None:
        if not budget or _attempt(plan, classes, budget) is None:
            return None
        low, high = 1, budget  # the least life that works lies in [low, high]
        while low < high:
            middle = (low + high) // 2
            if _attempt(plan, classes, middle) is None:
                low = middle + 1
            else:
                high = middle
        best = _attempt(plan, classes, high, with_sources=False) or _attempt(plan, classes, high)
        assert best is not None
    return _payment(cost, plan, pool, sources, classes, class_of, best)


# -- the cost as requirements ------------------------------------------------------------


def _plan(cost: ManaCost | ConcreteCost) -> _Plan:
    requirements: list[_Requirement] = []
    index: dict[str, int] = {}

    def need(label: str, accepts: frozenset[ManaType], amount: int = 1, **flags: bool) -> None:
        if label not in index:
            index[label] = len(requirements)
            requirements.append(_Requirement(label, accepts, 0, **flags))
        requirements[index[label]].demand += amount

    any_type = frozenset(MANA_TYPES)
    if isinstance(cost, ConcreteCost):
        if cost.snow:
            need("{S}", any_type, cost.snow, snow_only=True)
        for t in (ManaType.C, *(c.mana_type for c in card_color_order(t.color for t in cost.colored if t.color))):
            if cost.colored[t]:
                need("{" + t.value + "}", frozenset({t}), cost.colored[t])
        return _Plan(requirements, index, cost.generic, 0, cost.life)
    if not isinstance(cost, ManaCost):
        raise TypeError("cost must be a ManaCost or a ConcreteCost")
    if cost.has_x:
        raise ChoiceError("invalid_x", "announce X before paying (601.2b, 107.3a): use resolve_choices")
    generic = twobrid = 0
    for symbol in cost.symbols:
        kind, label = symbol.kind, str(symbol)
        if kind is SymbolKind.GENERIC:
            generic += symbol.number
        elif kind is SymbolKind.SNOW:
            need(label, any_type, snow_only=True)
        elif kind is SymbolKind.TWOBRID:
            twobrid += 1
            need(label, symbol.accepts(), optional=True)
        else:
            need(label, symbol.accepts(), life_ok=kind in PHYREXIAN_KINDS)
    return _Plan(requirements, index, generic, twobrid, 0)


# -- the units as classes -----------------------------------------------------------------


def _classes(pool: ManaPool, sources: tuple[Source, ...]) -> tuple[list[_UnitClass], dict[tuple[int, int], int]]:
    classes: list[_UnitClass] = []
    for t in MANA_TYPES:
        for snow in (False, True):
            amount = pool.count(t, snow=snow)
            if amount:
                classes.append(_UnitClass(frozenset({t}), snow, True, amount))
    by_key: dict[tuple[frozenset[ManaType], bool], int] = {}
    class_of: dict[tuple[int, int], int] = {}
    for i, source in enumerate(sources):
        for j, unit in enumerate(source.units):
            key = (unit.types, unit.snow)
            if key not in by_key:
                by_key[key] = len(classes)
                classes.append(_UnitClass(unit.types, unit.snow, False))
            classes[by_key[key]].count += 1
            class_of[(i, j)] = by_key[key]
    return classes, class_of


# -- one feasibility check for a given life budget ----------------------------------------


@dataclass
class _Flows:
    mana: dict[tuple[int, int], int]  # (class, requirement) -> units
    life: dict[int, int]  # requirement -> Phyrexian symbols paid with life
    colored_twobrid: dict[int, int]  # twobrid requirement -> symbols paid by color


def _attempt(plan: _Plan, classes: list[_UnitClass], life_budget: int, with_sources: bool = True) -> _Flows | None:
    """Class flows paying the cost with at most ``life_budget`` Phyrexian symbols paid with
    life (and, if not ``with_sources``, with pool mana only), or None if there are none."""
    reqs = plan.requirements
    source, sink, life = 0, 1, 2
    first_req = 3 + len(classes)
    net = FlowNetwork(first_req + len(reqs))
    open_edges = [net.add_edge(source, 3 + ci, 0) for ci in range(len(classes))]
    life_edge = net.add_edge(source, life, 0)
    class_edges: dict[tuple[int, int], int] = {}
    life_edges: dict[int, int] = {}
    for ri, req in enumerate(reqs):
        for ci, c in enumerate(classes):
            if c.types & req.accepts and (c.snow or not req.snow_only):
                class_edges[(ci, ri)] = net.add_edge(3 + ci, first_req + ri, c.count)
        if req.life_ok:
            life_edges[ri] = net.add_edge(life, first_req + ri, req.demand)
    sink_edges = [net.add_edge(first_req + ri, sink, 0 if r.optional else r.demand) for ri, r in enumerate(reqs)]

    # Phases; edges out of the source and into the sink never lose flow (flow.py).
    net.raise_capacity(life_edge, life_budget)
    net.max_flow(source, sink)
    for from_pool in (True, False) if with_sources else (True,):
        for ci, c in enumerate(classes):
            if c.from_pool == from_pool:
                net.raise_capacity(open_edges[ci], c.count)
        net.max_flow(source, sink)
    fixed = sum(r.demand for r in reqs if not r.optional)
    if sum(net.flow(sink_edges[ri]) for ri, r in enumerate(reqs) if not r.optional) < fixed:
        return None
    for ri, r in enumerate(reqs):
        if r.optional:
            net.raise_capacity(sink_edges[ri], r.demand)
    net.max_flow(source, sink)

    by_color = sum(net.flow(sink_edges[ri]) for ri, r in enumerate(reqs) if r.optional)
    by_life = net.flow(life_edge)
    units = sum(c.count for c in classes if with_sources or c.from_pool)
    if by_color + by_life < plan.generic + 2 * plan.twobrid + fixed - units:
        return None
    return _Flows(
        {key: net.flow(e) for key, e in class_edges.items() if net.flow(e)},
        {ri: net.flow(e) for ri, e in life_edges.items() if net.flow(e)},
        {ri: net.flow(sink_edges[ri]) for ri, r in enumerate(reqs) if r.optional},
    )


# -- from class flows to a concrete payment -----------------------------------------------


def _payment(
    cost: ManaCost | ConcreteCost,
    plan: _Plan,
    pool: ManaPool,
    sources: tuple[Source, ...],
    classes: list[_UnitClass],
    class_of: dict[tuple[int, int], int],
    flows: _Flows,
) -> Payment:
    reqs = plan.requirements
    flows = _spare_pool_pays_twobrids(plan, classes, flows)
    # The mana types each requirement receives and each class gives, from the class flows.
    queues: list[deque[ManaType]] = [deque() for _ in reqs]
    routed: list[deque[ManaType]] = [deque() for _ in classes]
    for (ci, ri), amount in sorted(flows.mana.items()):
        t = classes[ci].first_type(reqs[ri].accepts)
        queues[ri].extend([t] * amount)
        routed[ci].extend([t] * amount)

    # Pick concrete units: pool first, then sources with more units, then input order.
    pool_used = {ci: len(routed[ci]) for ci, c in enumerate(classes) if c.from_pool}
    remaining = [0 if c.from_pool else len(routed[ci]) for ci, c in enumerate(classes)]
    missing = sum(remaining)
    chosen: dict[tuple[int, int], ManaType] = {}
    activated: set[int] = set()
    order = sorted(range(len(sources)), key=lambda i: (-len(sources[i].units), i))
    for i in order:
        if not missing:
            break
        for j in range(len(sources[i].units)):
            ci = class_of[(i, j)]
            if remaining[ci]:
                remaining[ci] -= 1
                missing -= 1
                chosen[(i, j)] = routed[ci].popleft()
                activated.add(i)

    # Generic mana: leftover pool, then idle units of activated sources, then new sources.
    generic_left = plan.generic + 2 * (plan.twobrid - sum(flows.colored_twobrid.values()))
    generic: list[ManaType] = []
    for ci, c in enumerate(classes):
        if c.from_pool and generic_left:
            take = min(c.count - pool_used[ci], generic_left)
            pool_used[ci] += take
            generic_left -= take
            generic += [next(iter(c.types))] * take
    for i in [*sorted(activated), *(i for i in order if i not in activated)]:
        if not generic_left:
            break
        for j, unit in enumerate(sources[i].units):
            if generic_left and (i, j) not in chosen:
                chosen[(i, j)] = unit.ordered_types[0]
                generic.append(unit.ordered_types[0])
                generic_left -= 1
                activated.add(i)
    assert generic_left == 0, "the feasibility check guarantees enough units"

    spent, life, hybrid_choices, phyrexian_choices = _spend(cost, plan, queues, deque(generic), flows)

    activations = tuple(
        (sources[i].key, tuple(chosen.get((i, j), u.ordered_types[0]) for j, u in enumerate(sources[i].units)))
        for i in sorted(activated)
    )
    leftover = pool
    for ci, used in pool_used.items():
        c = classes[ci]
        if used:
            leftover = leftover.remove(next(iter(c.types)), used, snow=c.snow)
    for i in sorted(activated):
        for j, unit in enumerate(sources[i].units):
            if (i, j) not in chosen:
                leftover = leftover.add(unit.ordered_types[0], snow=unit.snow)
    return Payment(activations, spent, life, hybrid_choices, phyrexian_choices, leftover)


def _spare_pool_pays_twobrids(plan: _Plan, classes: list[_UnitClass], flows: _Flows) -> _Flows:
    """Prefer pool mana: while the pool has two spare mana, pay a twobrid symbol that source
    mana pays by color with those two instead (107.4e), saving that source's mana."""
    spare = sum(c.count for c in classes if c.from_pool)
    spare -= sum(amount for (ci, _), amount in flows.mana.items() if classes[ci].from_pool)
    generic = plan.generic + 2 * (plan.twobrid - sum(flows.colored_twobrid.values()))
    switches = max(0, (spare - generic) // 2)
    if not switches:
        return flows
    mana, by_color = dict(flows.mana), dict(flows.colored_twobrid)
    for ci, ri in sorted(mana):
        if switches and not classes[ci].from_pool and plan.requirements[ri].optional:
            take = min(switches, mana[(ci, ri)])
            mana[(ci, ri)] -= take
            by_color[ri] -= take
            switches -= take
    return _Flows({key: amount for key, amount in mana.items() if amount}, flows.life, by_color)


def _spend(
    cost: ManaCost | ConcreteCost,
    plan: _Plan,
    queues: list[deque[ManaType]],
    generic: deque[ManaType],
    flows: _Flows,
) -> tuple[tuple[tuple[str, ManaType], ...], int, tuple[str, ...], tuple[str, ...]]:
    """Hand out the routed mana to the symbols, in symbol order."""
    spent: list[tuple[str, ManaType]] = []
    life = plan.fixed_life
    if isinstance(cost, ConcreteCost):
        if cost.generic:
            label = "{" + str(cost.generic) + "}"
            spent += [(label, generic.popleft()) for _ in range(cost.generic)]
        for req, queue in zip(plan.requirements, queues):
            spent += [(req.label, t) for t in queue]
        return tuple(spent), life, (), ()
    hybrid: list[str] = []
    phyrexian: list[str] = []
    by_color = dict(flows.colored_twobrid)
    for symbol in cost.symbols:
        kind, label = symbol.kind, str(symbol)
        if kind is SymbolKind.GENERIC:
            spent += [(label, generic.popleft()) for _ in range(symbol.number)]
            continue
        ri = plan.index[label]
        if kind is SymbolKind.TWOBRID:
            if by_color.get(ri, 0):
                by_color[ri] -= 1
                t = queues[ri].popleft()
                spent.append((label, t))
                hybrid.append(t.value)
            else:
                spent += [(label, generic.popleft()), (label, generic.popleft())]
                hybrid.append("2")
        elif kind in PHYREXIAN_KINDS:
            if queues[ri]:
                t = queues[ri].popleft()
                spent.append((label, t))
                phyrexian.append("mana")
                if kind is SymbolKind.HYBRID_PHYREXIAN:
                    hybrid.append(t.value)
            else:
                life += LIFE_PER_PHYREXIAN
                phyrexian.append("life")
                if kind is SymbolKind.HYBRID_PHYREXIAN:
                    hybrid.append(symbol.halves[0])
        else:
            t = queues[ri].popleft()
            spent.append((label, t))
            if kind in (SymbolKind.HYBRID, SymbolKind.COLORLESS_HYBRID):
                hybrid.append(t.value)
    return tuple(spent), life, tuple(hybrid), tuple(phyrexian)


__all__ = ["Payment", "solve"]
