"""Cost reductions (118.7a-g) and the Trinisphere-like floor (601.2f)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castrules.oracle.mana import (
    ChoiceError,
    ConcreteCost,
    ManaCost,
    ManaSymbol,
    ManaType,
    apply_floor,
    reduce_by_symbol,
    reduce_generic,
    reduce_typed,
    resolve_choices,
)

FAST = settings(max_examples=200, deadline=None)
concrete_costs = st.builds(
    ConcreteCost,
    st.dictionaries(st.sampled_from(list(ManaType)), st.integers(0, 4)),
    st.integers(0, 8),
    st.integers(0, 6),
    st.integers(0, 3),
)


def c(text, life=0):
    return ConcreteCost.parse(text, life)


def test_118_7a_generic_reduction_touches_only_generic():
    # Helm of Awakening on {1}{B}{B}: {B}{B}; a second {1} cannot touch the black mana.
    assert reduce_generic(c("{1}{B}{B}"), 1) == (c("{B}{B}"), "118.7a")
    assert reduce_generic(c("{B}{B}"), 1) == (c("{B}{B}"), "118.7a")
    assert reduce_generic(c("{2}{S}{C}"), 5) == (c("{S}{C}"), "118.7a")  # 107.4h: not {S}


def test_118_7b_missing_type_comes_off_generic():
    assert reduce_typed(c("{2}{U}"), ManaType.B, 1) == (c("{1}{U}"), "118.7b")
    assert reduce_typed(c("{U}"), ManaType.C, 1) == (c("{U}"), "118.7b")


def test_118_7c_excess_colored_comes_off_generic():
    assert reduce_typed(c("{3}{B}"), "B", 2) == (c("{2}"), "118.7c")
    assert reduce_typed(c("{1}{B}{B}"), "B", 4) == (c("{0}"), "118.7c")
    assert reduce_typed(c("{2}{B}{B}"), "B", 1) == (c("{2}{B}"), "118.7c")


def test_118_7d_excess_colorless_comes_off_generic():
    assert reduce_typed(c("{2}{C}"), ManaType.C, 2) == (c("{1}"), "118.7d")


def test_118_7e_hybrid_reduction_uses_the_chosen_half():
    cost = c("{2}{W}{U}")
    assert reduce_by_symbol(cost, ManaSymbol.parse("{W/U}"), "U") == (c("{2}{W}"), "118.7e, 118.7c")
    assert reduce_by_symbol(cost, ManaSymbol.parse("{2/W}"), "2") == (c("{W}{U}"), "118.7e, 118.7a")
    assert reduce_by_symbol(cost, ManaSymbol.parse("{2/W}"), "W") == (c("{2}{U}"), "118.7e, 118.7c")
    assert reduce_by_symbol(cost, ManaSymbol.parse("{C/W}"), "C") == (c("{1}{W}{U}"), "118.7e, 118.7b")
    assert reduce_by_symbol(cost, ManaSymbol.parse("{W/U/P}"), "W") == (c("{2}{U}"), "118.7e, 118.7f, 118.7c")
    for bad in (None, "B", "2"):
        with pytest.raises(ChoiceError) as caught:
            reduce_by_symbol(cost, ManaSymbol.parse("{W/U}"), bad)
        assert caught.value.code == "invalid_hybrid_choice"


def test_118_7f_phyrexian_reduction_is_its_color():
    assert reduce_by_symbol(c("{1}{B}{B}"), ManaSymbol.parse("{B/P}")) == (c("{1}{B}"), "118.7f, 118.7c")
    assert reduce_by_symbol(c("{3}{G}"), ManaSymbol.parse("{B/P}")) == (c("{2}{G}"), "118.7f, 118.7b")
    # The reduction does not turn into life: a cost already paid with life keeps it.
    assert reduce_by_symbol(c("{1}", life=2), ManaSymbol.parse("{B/P}")) == (c("{0}", life=2), "118.7f, 118.7b")


def test_118_7g_snow_reduction_is_generic():
    assert reduce_by_symbol(c("{2}{S}"), ManaSymbol.snow()) == (c("{1}{S}"), "118.7g")


def test_plain_symbols_and_x():
    assert reduce_by_symbol(c("{3}{R}"), ManaSymbol.generic(2)) == (c("{1}{R}"), "118.7a")
    assert reduce_by_symbol(c("{3}{R}"), ManaSymbol.parse("{R}")) == (c("{3}"), "118.7c")
    assert reduce_by_symbol(c("{C}"), ManaSymbol.colorless()) == (c("{0}"), "118.7d")
    with pytest.raises(ChoiceError):
        reduce_by_symbol(c("{3}"), ManaSymbol.x())


def test_negative_reductions_are_rejected():
    with pytest.raises(ValueError):
        reduce_generic(c("{3}"), -1)
    with pytest.raises(ValueError):
        reduce_typed(c("{3}"), "W", -1)


def test_floor_trinisphere():
    assert apply_floor(c("{R}"), 3) == (c("{2}{R}"), "601.2f")
    assert apply_floor(c("{4}"), 3) == (c("{4}"), "601.2f")
    assert apply_floor(c("{0}"), 3) == (c("{3}"), "601.2f")
    # Life does not count toward the floor: Dismember for {1} and 4 life costs {3} and 4 life.
    dismember = resolve_choices(ManaCost.parse("{1}{B/P}{B/P}"), None, None, ["life", "life"])
    assert apply_floor(dismember, 3) == (c("{3}", life=4), "601.2f")


@FAST
@given(concrete_costs, st.integers(0, 10))
def test_generic_reduction_never_touches_other_components(cost, n):
    reduced, _ = reduce_generic(cost, n)
    assert reduced.colored == cost.colored and reduced.snow == cost.snow and reduced.life == cost.life
    assert reduced.generic == max(0, cost.generic - n)


@FAST
@given(concrete_costs, st.sampled_from(list(ManaType)), st.integers(0, 10))
def test_typed_reduction_takes_its_type_first_and_never_goes_below_zero(cost, t, n):
    reduced, rule = reduce_typed(cost, t, n)
    taken_typed = cost.colored[t] - reduced.colored[t]
    taken_generic = cost.generic - reduced.generic
    assert taken_typed == min(n, cost.colored[t])
    assert taken_generic == min(cost.generic, n - taken_typed)
    assert all(reduced.colored[o] == cost.colored[o] for o in ManaType if o is not t)
    assert reduced.snow == cost.snow and reduced.life == cost.life
    assert rule in ("118.7b", "118.7c", "118.7d")


@FAST
@given(concrete_costs, st.lists(st.tuples(st.sampled_from(list(ManaType) + [None]), st.integers(0, 4)), max_size=6))
def test_reductions_only_lower_the_mana_and_floor_only_raises_it(cost, steps):
    for t, n in steps:
        before = cost.mana_amount
        cost, _ = reduce_generic(cost, n) if t is None else reduce_typed(cost, t, n)
        assert before - n <= cost.mana_amount <= before
    floored, _ = apply_floor(cost, 3)
    assert floored.mana_amount == max(3, cost.mana_amount) and floored.life == cost.life
