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


def test_settle_collects_the_garbage_it_would_otherwise_freeze_for_good(restored_collector):
    import weakref

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    gc.collect()
    gc.disable()            # the cycle dropped where no automatic collection finds it first
    try:
        del a, b
        collector.settle()
    finally:
        gc.enable()
    assert gone() is None


def test_the_shared_suite_leaves_the_thresholds_of_the_process_it_is_loaded_in(restored_collector):
    """The pytest route loads it in the user's own pytest process: frozen, the rest left alone."""
    from castrules.harness.suite import shared_suite

    shared_suite.cache_clear()
    gc.set_threshold(700, 10, 10)
    shared_suite()
    assert gc.get_threshold() == (700, 10, 10)


def test_a_users_tests_beside_the_cases_keep_their_collector(tmp_path):
    """A pytest session collecting castrules' cases and the user's own tests: the user's test sees
    the process's own thresholds (found by the session 9 review)."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "test_user.py").write_text(
        "import gc\ndef test_user():\n    assert gc.get_threshold()[2] == 10, gc.get_threshold()\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_user.py"), str(repo / "cases" / "prowl")],
                          cwd=repo, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]


def test_castrules_run_settles_its_process(monkeypatch, suite_builder):
    """castrules run owns its process: it settles it once the suite is loaded."""
    from tests.conftest import castrules, good_case

    settled = []
    monkeypatch.setattr("castrules.harness.cli.settle", lambda: settled.append(True))
    suite_builder.case("cases/casting/c0.yaml", good_case("casting/fixture/c0"))
    done = castrules(suite_builder, "run", "--no-tables")
    assert done.returncode == 0, done.stderr
    assert settled == [True]
