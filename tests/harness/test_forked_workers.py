"""Lanes forked from the harness (harness.forked_workers): a forked worker judges each case as a
spawned worker and a run in process do, holds the run's cases (sent to it by position) and no
descriptor of the harness, is restarted from its command line after a crash, and is used only
where forking is safe (Linux, one thread)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from dataclasses import replace

import pytest

from castrules.harness import forked_workers
from castrules.harness.engine_spec import parse_engine_spec
from castrules.harness.execution import close_all, open_engines, session
from castrules.harness.results import Result, Status
from castrules.harness.session import Policy
from castrules.harness.worker_engine import Inherited
from tests.harness.test_faults import CATALOG, HOSTILE, IDS, make_case

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")

CASES = [make_case(i) for i in IDS] + [make_case("casting/fixture/bears"), make_case("casting/fixture/d-crash")]


@pytest.fixture
def importable(monkeypatch):
    """The fake engines importable here and, through the worker's path, in a spawned worker."""
    monkeypatch.syspath_prepend(str(HOSTILE))


def comparable(result: Result) -> dict:
    return replace(result, duration=0.0).to_json()


def run(spec: str, jobs: int, cases=CASES, held=None) -> tuple[list[dict], list[bool], list[int]]:
    engines = open_engines(spec, jobs, len(cases), {"timeout": 30}, held=held)
    try:
        forked = [getattr(e, "forked", False) for e in engines]
        results = [comparable(r) for r in session(engines, cases, CATALOG, None, Policy())]
        return results, forked, [getattr(e, "restarts", 0) for e in engines]
    finally:
        close_all(engines)


@pytest.mark.parametrize("spec", ["fake_inprocess_engine:Crashy", "hostile_engines:Exits", "hostile_engines:NaN"])
def test_forked_lanes_report_what_spawned_lanes_and_a_serial_run_do(importable, monkeypatch, spec):
    serial, _, _ = run(spec, 1)
    forked, were_forked, _ = run(spec, 2, held=(CASES, CATALOG))
    monkeypatch.setenv(forked_workers.DISABLE_VARIABLE, "1")
    spawned, were_spawned, _ = run(spec, 2, held=(CASES, CATALOG))
    assert were_forked == [True, True] and were_spawned == [False, False]
    assert forked == serial and spawned == serial and len(serial) == len(CASES)


def test_a_case_the_worker_does_not_hold_is_sent_whole(importable):
    held = CASES[:2]
    copies = [make_case(case.id) for case in CASES]   # equal to the held ones, not the same objects
    inherited = Inherited.of(held, CATALOG)
    assert inherited.position(held[1]) == 1 and inherited.position(copies[1]) is None
    serial, _, _ = run("fake_inprocess_engine:Crashy", 1, cases=copies)
    mixed, were_forked, _ = run("fake_inprocess_engine:Crashy", 2, cases=held + copies[2:], held=(held, CATALOG))
    assert were_forked == [True, True] and mixed == serial


def test_a_forked_worker_that_dies_is_restarted_from_its_command_line(importable):
    serial, _, _ = run("hostile_engines:KillsItself", 1)
    results, were_forked, restarts = run("hostile_engines:KillsItself", 2, held=(CASES, CATALOG))
    assert were_forked == [True, True] and results == serial and sum(restarts) == 1
    bad = next(r for r in results if r["id"].endswith("b-bad"))
    assert bad["status"] == "error" and "exited with status -9" in bad["message"]


def test_a_forked_worker_holds_no_descriptor_of_the_harness(importable, tmp_path):
    kept = tmp_path / "kept-open.txt"
    with open(kept, "w", encoding="utf-8"):
        engines = open_engines("fake_inprocess_engine:Crashy", 2, len(CASES), {"timeout": 30}, held=(CASES, CATALOG))
        try:
            assert all(e.forked for e in engines)
            for engine in engines:
                pid = engine._supervisor.current().popen.pid
                fds = os.listdir(f"/proc/{pid}/fd")
                targets = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in fds]
                assert str(kept) not in targets and len(fds) <= 5, targets   # its pipes, the protocol's copy
                assert os.getsid(pid) == pid   # a session of its own: a group kill takes all it starts
        finally:
            close_all(engines)


def test_nothing_is_forked_while_another_thread_runs(importable):
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not forked_workers.can_fork()
        results, were_forked, _ = run("fake_inprocess_engine:Crashy", 2, held=(CASES, CATALOG))
        assert were_forked == [False, False]
    finally:
        release.set()
        thread.join()
    assert forked_workers.can_fork()
    assert results == run("fake_inprocess_engine:Crashy", 1)[0]


def test_a_measurement_in_a_forked_child_leaves_this_process_as_it_was():
    marks: list[int] = []

    def work() -> dict:
        marks.append(1)   # the child's own copy
        return {"pid": os.getpid(), "marks": len(marks)}

    value = forked_workers.in_child(work)
    assert value == {"pid": value["pid"], "marks": 1} and value["pid"] != os.getpid() and marks == []

    def fails() -> dict:
        raise ValueError("the measurement broke")

    with pytest.raises(RuntimeError, match="the measurement broke"):
        forked_workers.in_child(fails)


def test_castrules_own_engine_keeps_one_lane_in_this_process():
    """-j with the oracle: one lane runs in the harness process, as a serial run does, between
    the answers of the others' forked workers; the results are a serial run's."""
    from castrules.harness.suite import shared_suite

    suite = shared_suite()
    cases = suite.cases[:40]
    runs = {}
    for jobs in (1, 3):
        engines = open_engines("oracle", jobs, len(cases), {"timeout": 30}, held=(cases, suite.catalog))
        try:
            runs[jobs] = [comparable(r) for r in session(engines, cases, suite.catalog, None, Policy())]
            kinds = [getattr(e, "forked", None) for e in engines]
        finally:
            close_all(engines)
    assert kinds == [None, True, True]   # the oracle here, two forked workers
    assert runs[3] == runs[1] and all(r["status"] == "pass" for r in runs[1])


def test_a_signal_the_moment_a_child_is_forked_never_runs_the_harness_code_in_it(monkeypatch):
    """Ctrl-C reaches the whole process group, a child not yet in a session of its own too: had
    the harness's handler (``session.stop_on_signals``) run in the child before its guard, the
    child would have gone on in the harness's own code (its reports, its exit). The child ends
    with its own status instead."""
    from castrules.harness.session import stop_on_signals

    parent, fork = os.getpid(), os.fork

    def fork_then_signalled() -> int:
        pid = fork()
        if pid == 0:
            os.kill(os.getpid(), signal.SIGINT)   # as a Ctrl-C the instant after the fork
        return pid

    monkeypatch.setattr(os, "fork", fork_then_signalled)
    try:
        with stop_on_signals(), pytest.raises(RuntimeError) as failed:
            forked_workers.in_child(lambda: 1)
    finally:
        if os.getpid() != parent:   # the child ran this test's code: it must never get here
            os._exit(99)
    assert f"status {forked_workers.CHILD_FAILED}" in str(failed.value), failed.value


def test_an_interrupt_while_the_lanes_are_forked_leaves_no_child(importable, monkeypatch):
    """A Ctrl-C between two forks: the children forked already are killed and reaped, not left
    waiting for their input (the harness, or the bench, may go on long after)."""
    forked, fork_child = [], forked_workers.fork_child

    def second_interrupted(*args):
        if forked:
            raise KeyboardInterrupt
        forked.append(fork_child(*args))
        return forked[-1]

    monkeypatch.setattr(forked_workers, "fork_child", second_interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            forked_workers.fork_lanes(parse_engine_spec("fake_inprocess_engine:Crashy"), 3, CASES, CATALOG)
        assert forked[0].returncode is not None   # killed and reaped
    finally:
        forked[0].kill()
        forked[0].wait()


def test_a_signal_during_the_fork_leaves_no_child_and_no_descriptor(monkeypatch):
    """A Ctrl-C that comes while the harness forks is handled once the fork is done (it waits,
    blocked, meanwhile): the child just forked is killed and reaped, its pipes closed."""
    from castrules.harness.session import stop_on_signals

    fork, forked = os.fork, []

    def fork_signalled() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
            os.kill(os.getpid(), signal.SIGINT)   # as a Ctrl-C while the fork ran
        return pid

    monkeypatch.setattr(os, "fork", fork_signalled)
    before = set(os.listdir("/proc/self/fd"))
    try:
        with stop_on_signals(), pytest.raises(KeyboardInterrupt):
            forked_workers.fork_child(lambda: len(sys.stdin.read()), None)
        with pytest.raises(ChildProcessError):   # reaped already
            os.waitpid(forked[0], os.WNOHANG)
        assert set(os.listdir("/proc/self/fd")) <= before
    finally:
        try:
            os.kill(forked[0], signal.SIGKILL)
            os.waitpid(forked[0], 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def test_engines_closed_leave_no_thread_so_the_next_run_forks_again(importable):
    """Closing an engine joins its threads, the writer of its input too: a run after it in the
    same process (a test after another, a bench's repetition) finds one thread and forks its lanes."""
    for _ in range(3):
        _, were_forked, _ = run("hostile_engines:KillsItself", 2, held=(CASES, CATALOG))   # a worker killed, restarted
        assert were_forked == [True, True]
        assert [t.name for t in threading.enumerate()] == [threading.main_thread().name]


def test_a_measurement_that_writes_more_than_a_pipe_holds_on_stderr_still_gives_its_value():
    """The child's stdout and stderr are read at once: a child that wrote more on stderr than the
    pipe holds had waited for the harness, which waited for its stdout to end."""
    def work() -> int:
        sys.stderr.write("a warning\n" * 100_000)
        return 7

    def hung(signum, frame):
        raise TimeoutError("in_child waited for ever")

    saved = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)   # a hang fails this test instead of the whole run
    try:
        assert forked_workers.in_child(work) == 7
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, saved)


@pytest.mark.parametrize("how, status", [((), 0), ((3,), 3), (("a message",), 1)])
def test_a_forked_child_ends_with_the_status_sys_exit_gives(how, status):
    child = forked_workers.fork_child(lambda: sys.exit(*how), None)
    child.stdin.close()
    assert child.wait(timeout=30) == status
    for stream in (child.stdout, child.stderr):
        stream.close()
