"""The payment solver: examples worked by hand, soundness, completeness against the brute
force reference, determinism."""

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mana_strategies import mana_symbols
from castrules.oracle.mana import (
    COLOR_PAIRS,
    ChoiceError,
    Color,
    ConcreteCost,
    ManaCost,
    ManaPool,
    ManaSymbol,
    ManaType,
    ManaUnit,
    Payment,
    Source,
    resolve_choices,
    solve,
)
from castrules.oracle.mana import bruteforce
from castrules.oracle.mana.flow import FlowNetwork

EMPTY = ManaPool()
C, W, U, B, R, G = ManaType.C, ManaType.W, ManaType.U, ManaType.B, ManaType.R, ManaType.G


def basics(*letters):
    return [Source.of(f"{letter.lower()}{i}", letter) for i, letter in enumerate(letters)]


def check(cost, pool, sources, life=None):
    """Solve and verify independently; return the payment (or None)."""
    cost = ManaCost.parse(cost) if isinstance(cost, str) else cost
    payment = solve(cost, pool, sources, life)
    if payment is not None:
        assert bruteforce.verify_payment(cost, pool, sources, payment, life) == []
    return payment


# -- worked examples ------------------------------------------------------------------------


def test_pool_mana_is_used_before_any_activation_and_leftover_is_reported():
    pool = ManaPool.parse("{R}{R}{G}")
    payment = check("{R}", pool, basics("R", "R"))
    assert payment.activations == ()
    assert payment.spent == (("{R}", R),)
    assert payment.leftover == ManaPool.parse("{R}{G}")


def test_pool_and_sources_together():
    payment = check("{2}{G}{G}", ManaPool.parse("{G}{U}"), basics("G", "R", "W"))
    # The pool pays {G} and one generic; two activations pay the rest, one of them a Forest.
    assert len(payment.activations) == 2 and "g0" in payment.activated
    assert payment.leftover == EMPTY


def test_sol_ring_adds_two_units_in_one_activation():
    sources = [Source.of("wastes", "C"), Source.of("sol", "C", "C")]
    payment = check("{2}", EMPTY, sources)
    assert payment.activations == (("sol", (C, C)),)
    payment = check("{3}", EMPTY, sources)
    assert payment.activated == ("wastes", "sol")
    assert check("{4}", EMPTY, sources) is None


def test_sol_ring_mana_left_over_stays_in_the_pool():
    payment = check("{1}", EMPTY, [Source.of("sol", "C", "C")])
    assert payment.leftover == ManaPool.parse("{C}")


def test_colorless_symbol_needs_colorless_mana():
    assert check("{C}", EMPTY, basics("G", "R")) is None
    assert check("{C}", EMPTY, [Source.of("sol", "C", "C")]).spent == (("{C}", C),)


def test_colored_needs_the_right_source_and_duals_choose_well():
    # Tundra (W or U) must make U, because only it can.
    sources = [Source.of("tundra", "WU"), Source.of("plains", "W")]
    payment = check("{W}{U}", EMPTY, sources)
    assert dict(payment.activations) == {"tundra": (U,), "plains": (W,)}
    assert check("{U}{U}", EMPTY, sources) is None


def test_hybrid_halves_are_chosen_by_the_solver():
    # Kitchen Finks {1}{G/W}{G/W} with Forest, Plains, Mountain.
    payment = check("{1}{G/W}{G/W}", EMPTY, basics("G", "W", "R"))
    assert sorted(payment.hybrid_choices) == ["G", "W"]
    assert check("{1}{G/W}{G/W}", EMPTY, basics("G", "R", "R")) is None


def test_twobrid_by_color_or_by_two_generic():
    reaper_king = "{2/W}{2/U}{2/B}{2/R}{2/G}"
    payment = check(reaper_king, EMPTY, basics("W", "U", "B", "R", "G"))
    assert payment.hybrid_choices == ("W", "U", "B", "R", "G")
    payment = check(reaper_king, EMPTY, basics(*"CCCCCCCCCC"))
    assert payment.hybrid_choices == ("2",) * 5
    payment = check(reaper_king, EMPTY, basics(*"WUCCCCCC"))
    assert payment.hybrid_choices == ("W", "U", "2", "2", "2")
    assert check(reaper_king, EMPTY, basics(*"WUCCCCC")) is None


def test_twobrid_paid_by_color_frees_mana_for_generic():
    # {2/W}{2/W}{3}: with W, W, C, C, C the twobrids must go by color.
    payment = check("{2/W}{2/W}{3}", EMPTY, basics("W", "W", "C", "C", "C"))
    assert payment.hybrid_choices == ("W", "W")
    # The dual must make U for {U/B} (nothing else can), so the twobrid is paid generically.
    payment = check("{2/W}{U/B}", EMPTY, [Source.of("tundra", "WU"), Source.of("w1", "C"), Source.of("w2", "C")])
    assert payment.hybrid_choices == ("2", "U")


def test_spare_pool_mana_pays_twobrid_before_activating():
    assert check("{2/W}", ManaPool.parse("{C}{C}"), basics("W")).activations == ()
    payment = check("{2/W}{G}", ManaPool.parse("{C}{C}"), basics("W", "G"))
    assert payment.activated == ("g1",) and payment.hybrid_choices == ("2",)


def test_phyrexian_prefers_mana_then_life():
    dismember = "{1}{B/P}{B/P}"
    assert check(dismember, EMPTY, basics("B", "B", "B"), 20).life == 0
    assert check(dismember, EMPTY, basics("B", "B"), 20).life == 2
    payment = check(dismember, EMPTY, basics("B"), 20)
    assert payment.life == 4 and payment.phyrexian_choices == ("life", "life")
    assert check(dismember, EMPTY, basics("B"), 3) is None  # 118.3: 4 life needed
    assert check(dismember, EMPTY, basics("B"), 4).life == 4  # paying all of one's life is allowed
    assert check(dismember, EMPTY, basics("B"), None) is None  # no life offered


def test_gitaxian_probe():
    assert check("{U/P}", EMPTY, [], 2).life == 2
    assert check("{U/P}", EMPTY, [], 1) is None
    assert check("{U/P}", ManaPool.parse("{U}"), [], 2).life == 0


def test_hybrid_phyrexian_with_life():
    # Ajani, Sleeper Agent {1}{G}{G/W/P}{W}
    cost = "{1}{G}{G/W/P}{W}"
    payment = check(cost, EMPTY, basics("G", "W", "R"), 20)
    assert payment.life == 2 and payment.phyrexian_choices == ("life",)
    payment = check(cost, EMPTY, basics("G", "W", "R", "W"), 20)
    assert payment.life == 0 and payment.hybrid_choices == ("W",)
    cc = resolve_choices(ManaCost.parse(cost), None, payment.hybrid_choices, payment.phyrexian_choices)
    assert cc == ConcreteCost.parse("{1}{G}{W}{W}")


def test_concrete_cost_with_life():
    cost = ConcreteCost.parse("{1}{B}", life=2)
    assert solve(cost, EMPTY, basics("B", "B"), 2).life == 2
    assert solve(cost, EMPTY, basics("B", "B"), 1) is None
    assert solve(cost, EMPTY, basics("B", "B"), None) is None


def test_snow_needs_snow_mana_of_any_type():
    sources = [Source.of("snow-forest", "G", snow=True), Source.of("forest", "G")]
    payment = check("{S}{G}", EMPTY, sources)
    assert dict(payment.spent)["{S}"] is G
    assert check("{S}{S}", EMPTY, sources) is None
    assert check("{S}{S}", ManaPool.parse("{R}", snow=True), sources) is not None
    assert check("{S}", ManaPool.parse("{R}"), [Source.of("forest", "G")]) is None


def test_colorless_hybrid():
    assert check("{C/W}{C/W}", EMPTY, [Source.of("wastes", "C"), Source.of("plains", "W")]) is not None
    assert check("{C/W}", EMPTY, basics("U")) is None


def test_zero_and_empty_costs_are_paid_with_nothing():
    for cost in ("{0}", ""):
        payment = check(cost, EMPTY, basics("G"))
        assert payment == Payment((), (), 0, (), (), EMPTY)
    assert solve(ConcreteCost(), ManaPool.parse("{G}"), []).leftover == ManaPool.parse("{G}")


def test_x_must_be_announced_first():
    with pytest.raises(ChoiceError) as caught:
        solve(ManaCost.parse("{X}{R}"), EMPTY, basics("R"))
    assert caught.value.code == "invalid_x"
    assert check(resolve_choices(ManaCost.parse("{X}{R}"), 2), EMPTY, basics("R", "G", "G")) is not None


def test_bad_inputs():
    with pytest.raises(ValueError):
        solve(ManaCost.parse("{1}"), EMPTY, [Source.of("a", "G"), Source.of("a", "R")])
    with pytest.raises(TypeError):
        solve("{1}", EMPTY, [])  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ManaUnit(frozenset())
    with pytest.raises(ValueError):
        Source("empty", ())


def test_deterministic():
    sources = [Source.of("city", "WUBRG"), Source.of("sol", "C", "C")] + basics("G", "W", "U", "B")
    cost = ManaCost.parse("{2}{W/U}{G/W/P}{2/B}")
    first = solve(cost, ManaPool.parse("{G}"), sources, 10)
    assert first is not None
    for _ in range(5):
        rebuilt = [Source(s.key, tuple(ManaUnit(frozenset(u.types), u.snow) for u in s.units)) for s in sources]
        assert solve(ManaCost.parse(str(cost.as_written())), ManaPool.parse("{G}"), rebuilt, 10) == first


def test_deterministic_across_processes_and_hash_seeds():
    # Sets of mana types iterate in an order that depends on the hash seed; the solver must
    # not depend on it.
    script = (
        "from oracle.mana import *\n"
        "s = [Source.of('city', 'WUBRG'), Source.of('sol', 'C', 'C'), Source.of('t', 'WU'), Source.of('b', 'BG')]\n"
        "print(repr(solve(ManaCost.parse('{1}{W/U}{B/G/P}{2/U}{C/G}'), ManaPool.parse('{G}'), s, 4)))\n"
    )
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        root = Path(__file__).resolve().parents[2]
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1 and "Payment(" in outputs.pop()


def test_verifier_rejects_bad_payments():
    cost = ManaCost.parse("{1}{R}")
    sources = basics("R", "G")
    good = solve(cost, EMPTY, sources)
    assert bruteforce.verify_payment(cost, EMPTY, sources, good) == []
    wrong_type = Payment(good.activations, (("{1}", G), ("{R}", G)), 0, (), (), EMPTY)
    assert bruteforce.verify_payment(cost, EMPTY, sources, wrong_type)
    unknown = Payment((("x", (R,)),), good.spent, 0, (), (), EMPTY)
    assert bruteforce.verify_payment(cost, EMPTY, sources, unknown)
    too_little = Payment(good.activations, good.spent[1:], 0, (), (), good.leftover)
    assert bruteforce.verify_payment(cost, EMPTY, sources, too_little)


def test_max_flow_small_graph():
    net = FlowNetwork(4)
    e1 = net.add_edge(0, 1, 3)
    net.add_edge(0, 2, 2)
    net.add_edge(1, 2, 5)
    e4 = net.add_edge(1, 3, 2)
    net.add_edge(2, 3, 3)
    assert net.max_flow(0, 3) == 5
    assert net.flow(e1) + net.flow(1 * 2) == 5 and net.flow(e4) == 2
    net.raise_capacity(e4, 4)
    assert net.max_flow(0, 3) == 0  # the source side is the bottleneck
    with pytest.raises(ValueError):
        net.raise_capacity(e4, 0)


# -- properties against the brute force reference ----------------------------------------

symbols = mana_symbols(max_generic=3, variables=False)
mana_costs = st.lists(symbols, max_size=5).map(lambda s: ManaCost(tuple(s)))
concrete_costs = st.builds(
    ConcreteCost,
    st.dictionaries(st.sampled_from(list(ManaType)), st.integers(0, 2), max_size=3),
    st.integers(0, 3),
    st.integers(0, 4),
    st.integers(0, 2),
)
TYPE_SETS = (
    [frozenset({t}) for t in ManaType] * 3
    + [frozenset({a.mana_type, b.mana_type}) for a, b in COLOR_PAIRS]
    + [frozenset({ManaType.C, t}) for t in ManaType if t is not ManaType.C]
    + [frozenset(t for t in ManaType if t is not ManaType.C), frozenset(ManaType)]
)
units = st.builds(ManaUnit, st.sampled_from(TYPE_SETS), st.sampled_from([False, False, False, True]))
unit_lists = st.lists(units, min_size=1, max_size=2)
source_lists = st.lists(unit_lists, max_size=6).map(lambda us: [Source(f"s{i}", tuple(u)) for i, u in enumerate(us)])
pools = st.lists(st.tuples(st.sampled_from(list(ManaType)), st.booleans()), max_size=3).map(
    lambda items: sum((ManaPool().add(t, snow=s) for t, s in items), ManaPool())
)
lives = st.none() | st.integers(0, 8)
PROPERTY = settings(max_examples=200, deadline=None)


def small(sources):
    """Keep the brute force quick: bound the number of type combinations it enumerates."""
    return math.prod(len(u.types) for s in sources for u in s.units) <= 3000


def assert_agrees(cost, pool, sources, life):
    payment = solve(cost, pool, sources, life)
    least_life = bruteforce.min_life(cost, pool, sources, life)
    assert (payment is None) == (least_life is None), (payment, least_life)
    if payment is not None:
        assert bruteforce.verify_payment(cost, pool, sources, payment, life) == []
        assert payment.life == least_life  # mana is preferred to life
        assert solve(cost, pool, sources, life) == payment  # deterministic
        if bruteforce.min_life(cost, pool, [], life) == least_life:
            assert payment.activations == ()  # the pool alone pays as well: activate nothing


@PROPERTY
@given(mana_costs, pools, source_lists, lives)
def test_solver_agrees_with_brute_force_on_mana_costs(cost, pool, sources, life):
    assume(small(sources))
    assert_agrees(cost, pool, sources, life)


@PROPERTY
@given(concrete_costs, pools, source_lists, lives)
def test_solver_agrees_with_brute_force_on_concrete_costs(cost, pool, sources, life):
    assume(small(sources))
    assert_agrees(cost, pool, sources, life)


@PROPERTY
@given(mana_costs, pools, source_lists, lives)
def test_announced_choices_reproduce_a_payable_cost(cost, pool, sources, life):
    assume(small(sources))
    payment = solve(cost, pool, sources, life)
    if payment is None:
        return
    announced = resolve_choices(cost, None, payment.hybrid_choices, payment.phyrexian_choices)
    assert announced.life == payment.life
    assert announced.mana_amount == len(payment.spent)
    again = solve(announced, pool, sources, life)
    assert again is not None
    assert bruteforce.verify_payment(announced, pool, sources, again, life) == []
