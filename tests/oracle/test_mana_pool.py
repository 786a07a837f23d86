"""The mana pool (106.4) as an immutable multiset, with snow provenance (107.4h)."""

import pytest

from castrules.oracle.mana import ManaCostError, ManaPool, ManaType, PoolError


def test_parse_and_print_in_wubrgc_order():
    pool = ManaPool.parse("{C}{G}{G}")
    assert str(pool) == "{G}{G}{C}"
    assert pool.total == 3 and pool.count("G") == 2
    assert str(ManaPool.parse("{R}{W}{C}{U}")) == "{W}{U}{R}{C}"
    assert str(ManaPool()) == "" and ManaPool().is_empty


@pytest.mark.parametrize("text", ["{1}", "{S}", "{W/U}", "{X}", "{B/P}", "{2/W}", "{C/W}"])
def test_only_types_of_mana_fit_in_a_pool(text):
    with pytest.raises(ManaCostError) as caught:
        ManaPool.parse("{R}" + text)
    assert caught.value.position == 3


def test_add_and_remove_are_pure():
    empty = ManaPool()
    one = empty.add(ManaType.R)
    assert empty.is_empty and str(one) == "{R}"
    assert one.remove("R").is_empty
    assert ManaPool.of("R", "R") + ManaPool.of("G") == ManaPool.parse("{R}{R}{G}")
    with pytest.raises(PoolError):
        one.remove("R", 2)
    with pytest.raises(PoolError):
        one.remove("G")


def test_snow_mana_is_tracked_and_kept_longest():
    pool = ManaPool.of("G").add("G", snow=True)
    assert pool.count("G") == 2 and pool.count("G", snow=True) == 1 and pool.snow_total == 1
    assert pool.remove("G").count("G", snow=True) == 1  # non-snow goes first
    assert pool.remove("G", snow=True).count("G", snow=True) == 0
    with pytest.raises(PoolError):
        pool.remove("G", 2, snow=False)
    assert pool.units() == ((ManaType.G, False), (ManaType.G, True))
    assert ManaPool.parse("{U}", snow=True).count("U", snow=True) == 1


def test_invariants_are_checked():
    with pytest.raises(ValueError):
        ManaPool({"G": 1}, {"G": 2})
    with pytest.raises(ValueError):
        ManaPool.of("G").add("G", -1)
    assert ManaPool({"G": 1}) == ManaPool.of("G")
    assert hash(ManaPool.of("G", "C")) == hash(ManaPool.parse("{C}{G}"))
