"""Announced costs (601.2b, 118.13a): resolve_choices and ConcreteCost arithmetic."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from castrules.oracle.mana import ChoiceError, ConcreteCost, ManaCost, ManaCostError, ManaCounts, ManaType, resolve_choices


def concrete(text, life=0):
    return ConcreteCost.parse(text, life)


def test_plain_cost_needs_no_choices():
    assert resolve_choices(ManaCost.parse("{2}{B}{B}"), None) == concrete("{2}{B}{B}")
    assert str(resolve_choices(ManaCost.parse("{1}{B}"), None)) == "{1}{B}"


def test_x_becomes_generic():
    blaze = ManaCost.parse("{X}{R}")
    assert resolve_choices(blaze, 3) == concrete("{3}{R}")
    assert resolve_choices(ManaCost.parse("{X}{X}{R}"), 2) == concrete("{4}{R}")
    assert resolve_choices(ManaCost.parse("{X}{Y}"), 1, y=2) == concrete("{3}")


@pytest.mark.parametrize(
    "text, x, kwargs",
    [
        ("{X}{R}", None, {}),  # not announced
        ("{X}{R}", -1, {}),  # 107.1b
        ("{R}", 2, {}),  # X given for a cost without X
        ("{X}{Y}", 1, {}),  # Y not announced
        ("{X}", True, {}),
    ],
)
def test_bad_x(text, x, kwargs):
    with pytest.raises(ChoiceError) as caught:
        resolve_choices(ManaCost.parse(text), x, **kwargs)
    assert caught.value.code == "invalid_x"


def test_x_zero_is_fine_for_a_cost_without_x():
    assert resolve_choices(ManaCost.parse("{R}"), 0) == concrete("{R}")


def test_hybrid_twobrid_and_colorless_hybrid_choices():
    cost = ManaCost.parse("{1}{W/U}{2/B}{C/G}")
    assert resolve_choices(cost, None, ["U", "B", "C"]) == concrete("{1}{U}{B}{C}")
    assert resolve_choices(cost, None, ["W", "2", "G"]) == concrete("{3}{W}{G}")


def test_phyrexian_choices_add_two_life_each():
    dismember = ManaCost.parse("{1}{B/P}{B/P}")
    paid = resolve_choices(dismember, None, None, ["mana", "life"])
    assert paid == concrete("{1}{B}", life=2)
    assert paid.life == 2 and paid.mana_amount == 2
    assert resolve_choices(dismember, None, None, ["life", "life"]) == concrete("{1}", life=4)


def test_hybrid_phyrexian_takes_both_kinds_of_choice():
    cost = ManaCost.parse("{G/W/P}{R/W/P}")
    assert resolve_choices(cost, None, ["W", "R"], ["mana", "mana"]) == concrete("{R}{W}")
    # paid with life: the hybrid entry is still given (any half) and ignored
    assert resolve_choices(cost, None, ["G", "W"], ["life", "mana"]) == concrete("{W}", life=2)


@pytest.mark.parametrize(
    "text, hybrid, phyrexian, code, index",
    [
        ("{W/U}", ["B"], None, "invalid_hybrid_choice", 0),
        ("{W/U}", None, None, "invalid_hybrid_choice", None),
        ("{W/U}", ["W", "U"], None, "invalid_hybrid_choice", None),
        ("{2/W}{2/W}", ["W", "1"], None, "invalid_hybrid_choice", 1),
        ("{C/W}", ["2"], None, "invalid_hybrid_choice", 0),
        ("{W}", ["W"], None, "invalid_hybrid_choice", None),
        ("{B/P}", None, None, "invalid_phyrexian_choice", None),
        ("{B/P}", None, ["blood"], "invalid_phyrexian_choice", 0),
        ("{B/P}", None, "mana", "invalid_phyrexian_choice", None),
        ("{W/U/P}", ["W"], ["mana", "mana"], "invalid_phyrexian_choice", None),
    ],
)
def test_bad_choices_raise_with_a_code(text, hybrid, phyrexian, code, index):
    with pytest.raises(ChoiceError) as caught:
        resolve_choices(ManaCost.parse(text), None, hybrid, phyrexian)
    assert caught.value.code == code
    assert caught.value.index == index
    assert isinstance(caught.value, ValueError)


def test_concrete_cost_printing_and_amounts():
    cost = ConcreteCost.of(2, W=1, R=1, C=1, snow=1, life=4)
    assert str(cost) == "{2}{S}{C}{R}{W}"
    assert cost.mana_amount == 6
    assert cost.life == 4
    assert str(ConcreteCost()) == "{0}" and ConcreteCost().is_zero
    assert not ConcreteCost(life=2).is_zero
    assert cost.colored[ManaType.U] == 0 and ManaType.U not in cost.colored


def test_concrete_cost_add_is_an_increase():
    base = concrete("{1}{B}")
    assert base.add(1) == concrete("{2}{B}")  # Thalia: {1} more
    assert base + concrete("{R}", life=2) == concrete("{1}{B}{R}", life=2)
    with pytest.raises(ValueError):
        base.add(-1)


def test_concrete_cost_accepts_plain_mappings_and_compares_to_them():
    cost = ConcreteCost({"B": 2, ManaType.W: 0}, 1)
    assert cost == concrete("{1}{B}{B}")
    assert cost.colored == {ManaType.B: 2}
    assert hash(cost) == hash(concrete("{1}{B}{B}"))
    with pytest.raises(ValueError):
        ConcreteCost({"B": -1})
    with pytest.raises(ValueError):
        ConcreteCost(generic=-2)


def test_concrete_parse_rejects_choices():
    with pytest.raises(ManaCostError):
        ConcreteCost.parse("{W/U}")
    with pytest.raises(ManaCostError):
        ConcreteCost.parse("{X}")


def test_mana_counts_behaves_like_a_counter():
    counts = ManaCounts({"W": 2, "C": 1})
    assert counts["W"] == 2 and counts[ManaType.U] == 0
    assert list(counts) == [ManaType.W, ManaType.C]
    assert len(counts) == 2 and counts.total == 3
    assert counts == {ManaType.W: 2, ManaType.C: 1, ManaType.G: 0}
    assert counts.plus({"W": 1}) == {"W": 3, "C": 1}
    with pytest.raises(KeyError):
        counts["Q"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["{1}", "{W}", "{2/W}", "{W/U}", "{B/P}", "{C/G}", "{S}", "{X}", "{G/U/P}"]), max_size=8),
    st.randoms(use_true_random=False),
    st.integers(0, 5),
)
def test_resolved_cost_mana_matches_choices(texts, rnd, x):
    cost = ManaCost.parse("".join(texts))
    hybrid = [rnd.choice(s.halves) for s in cost if s.halves]
    phyrexian = [rnd.choice(["mana", "life"]) for s in cost if s.kind.value.endswith("phyrexian")]
    paid = resolve_choices(cost, x if cost.has_x else None, hybrid, phyrexian)
    lives = phyrexian.count("life")
    assert paid.life == 2 * lives
    # Mana to pay: the mana value with X = x, except twobrid halves chosen as a color count
    # 1 instead of 2, and symbols paid with life count nothing.
    colored_twobrid = sum(1 for s, h in zip([s for s in cost if s.halves], hybrid) if s.kind.value == "twobrid" and h != "2")
    expected = cost.mana_value(x if cost.has_x else None) - colored_twobrid - lives
    assert paid.mana_amount == expected
