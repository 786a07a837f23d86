"""The collector's settings for a process that runs many cases (harness.collector)."""

from __future__ import annotations

import gc

import pytest

from castrules.harness import collector


@pytest.fixture
def restored_collector():
    """Each test leaves the process's collector as it found it (frozen objects thawed again)."""
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    yield
    gc.set_threshold(*threshold)
    if frozen == 0:
        gc.unfreeze()


def test_settle_freezes_what_exists_and_makes_full_collections_rarer(restored_collector):
    gc.set_threshold(700, 10, 10)
    kept = [[n] for n in range(1000)]     # tracked containers that live on
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (700, 10, collector.FULL_EVERY)


def test_settle_keeps_a_higher_threshold_and_the_young_generations(restored_collector):
    gc.set_threshold(5000, 20, 10 * collector.FULL_EVERY)
    collector.settle()
    assert gc.get_threshold() == (5000, 20, 10 * collector.FULL_EVERY)


def test_a_case_cycle_is_still_collected_young(restored_collector):
    """Only full collections are rarer: a cycle made after settle dies in a young collection."""
    collector.settle()

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    import weakref

    gone = weakref.ref(a)
    del a, b
    gc.collect(1)
    assert gone() is None


def test_the_shared_suite_is_settled(restored_collector):
    from castrules.harness.suite import shared_suite

    shared_suite.cache_clear()
    gc.set_threshold(700, 10, 10)
    shared_suite()
    assert gc.get_threshold()[2] == collector.FULL_EVERY
