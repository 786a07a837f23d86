"""Mana costs: parsing and canonical printing, mana value (202.3), color (105.2, 202.2)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mana_strategies import mana_symbols
from castrules.oracle.mana import Color, ManaCost, ManaSymbol, SymbolKind

W, U, B, R, G = Color.W, Color.U, Color.B, Color.R, Color.G

symbols = mana_symbols(max_generic=20, variables=True)
costs = st.lists(symbols, max_size=12).map(lambda s: ManaCost(tuple(s)))
FAST = settings(max_examples=200, deadline=None)


@FAST
@given(costs)
def test_round_trip_through_canonical_text(cost):
    canonical = cost.canonical()
    assert ManaCost.parse(str(cost)) == canonical
    assert canonical.canonical() == canonical
    assert str(canonical) == str(cost)
    assert ManaCost.parse(cost.as_written()) == cost


@FAST
@given(costs)
def test_canonical_form_keeps_meaning(cost):
    canonical = cost.canonical()
    assert canonical.mana_value() == cost.mana_value()
    assert canonical.mana_value(3, y=1, z=2) == cost.mana_value(3, y=1, z=2)
    assert canonical.colors == cost.colors
    assert canonical.generic == cost.generic
    nongeneric = sorted(str(s) for s in cost if s.kind is not SymbolKind.GENERIC)
    assert sorted(str(s) for s in canonical if s.kind is not SymbolKind.GENERIC) == nongeneric
    assert sum(1 for s in canonical if s.kind is SymbolKind.GENERIC) <= 1


@FAST
@given(st.lists(symbols, max_size=12), st.permutations(range(12)))
def test_canonical_form_ignores_written_order(syms, perm):
    order = [i for i in perm if i < len(syms)]
    shuffled = ManaCost(tuple(syms[i] for i in order))
    assert shuffled.canonical() == ManaCost(tuple(syms)).canonical()


@FAST
@given(costs, costs, st.integers(0, 10))
def test_mana_value_is_additive(a, b, x):
    assert (a + b).mana_value(x, y=x, z=x) == a.mana_value(x, y=x, z=x) + b.mana_value(x, y=x, z=x)
    assert (a + b).colors == a.colors | b.colors


@FAST
@given(costs, st.integers(0, 10))
def test_every_x_counts_x_on_the_stack_and_zero_elsewhere(cost, x):
    xs = cost.count(SymbolKind.X)
    assert cost.mana_value(x, y=x, z=x) == cost.mana_value() + xs * x


@FAST
@given(costs)
def test_colors_are_the_colors_of_the_symbols(cost):
    assert cost.colors == frozenset(c for s in cost for c in s.colors)


@pytest.mark.parametrize(
    "text, value",
    [
        ("{3}{U}{U}", 5),  # 202.3 example
        ("{1}{W/U}{W/U}", 3),  # 202.3f
        ("{2/B}{2/B}{2/B}", 6),  # 202.3f
        ("{1}{W/P}{W/P}", 3),  # 202.3g
        ("{1}{B/P}{B/P}", 3),  # Dismember
        ("{U/P}", 1),  # Gitaxian Probe
        ("{C/W}{C/W}", 2),
        ("{G/W/P}", 1),
        ("", 0),
        ("{0}", 0),
        ("{X}{R}", 1),
    ],
)
def test_mana_value_examples(text, value):
    assert ManaCost.parse(text).mana_value() == value


def test_x_mana_value_on_and_off_the_stack():
    blaze = ManaCost.parse("{X}{R}")
    assert blaze.mana_value() == 1  # 202.3e: X is 0 off the stack
    assert blaze.mana_value(4) == 5
    assert ManaCost.parse("{X}{X}{R}").mana_value(2) == 5  # each X counts
    assert ManaCost.parse("{X}{Y}").mana_value(2, y=3) == 5  # 107.3p


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{2}{W}", {W}),  # 202.2a examples
        ("{2}", set()),
        ("{2}{W}{B}", {W, B}),
        ("{G/W}", {G, W}),  # 202.2d
        ("{B/P}", {B}),
        ("{2/R}", {R}),
        ("{C/U}", {U}),  # C is not a color (105.4)
        ("{C}{S}{X}", set()),
        ("{U/R/P}", {U, R}),
    ],
)
def test_colors(text, expected):
    assert ManaCost.parse(text).colors == frozenset(expected)


@pytest.mark.parametrize(
    "written, printed",
    [
        ("{2}{1}", "{3}"),
        ("{0}", "{0}"),
        ("{0}{0}", "{0}"),
        ("{0}{W}", "{W}"),
        ("", ""),
        ("{R}{X}{2}", "{X}{2}{R}"),
        ("{U}{2}{X}", "{X}{2}{U}"),  # Stroke of Genius
        ("{Y}{X}", "{X}{Y}"),
        ("{C}{3}", "{3}{C}"),  # Thought-Knot Seer
        ("{W}{R}{1}", "{1}{R}{W}"),  # card order of a pair
        ("{U}{G}{W}", "{G}{W}{U}"),  # Bant
        ("{R/G}{R}{2}", "{2}{R}{R/G}"),
        ("{B/P}{4}{B}{B/P}", "{4}{B}{B/P}{B/P}"),
        ("{2/G}{2/R}{2/B}{2/U}{2/W}", "{2/W}{2/U}{2/B}{2/R}{2/G}"),  # Reaper King
        ("{W/U}{G/W}{U/B}", "{W/U}{U/B}{G/W}"),
        ("{S}{C}{1}", "{1}{S}{C}"),
        ("{X}{0}", "{X}"),
    ],
)
def test_canonical_printing(written, printed):
    cost = ManaCost.parse(written)
    assert str(cost) == printed
    assert cost.as_written() == written


def test_counts_and_helpers():
    cost = ManaCost.parse("{X}{2}{1}{W}{W}{W/U}{B/P}")
    assert cost.has_x and cost.variables == {"X"}
    assert cost.generic == 3
    assert cost.count(SymbolKind.COLORED) == 2
    assert cost.count(SymbolKind.HYBRID, W) == 1
    assert not ManaCost.parse("{1}").has_x
    assert ManaCost.parse("").is_empty
    assert ManaCost.parse("{1}") + ManaCost.parse("{W}") == ManaCost.parse("{1}{W}")  # 601.2f
