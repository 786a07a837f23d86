"""An in-process engine in its worker process (harness.worker_engine, harness.worker_server): the
worker runs and judges each case itself and sends back the finished result, which must be the
result a run in process gives, whatever the engine answers; and nothing the engine writes
reaches the protocol stream."""

from __future__ import annotations

from dataclasses import replace

import pytest

from castrules.harness.engine import load_engine
from castrules.harness.engine_spec import parse_engine_spec
from castrules.harness.execution import close_all, open_engines, session
from castrules.harness.results import Result, Status
from castrules.harness.runner import run_case
from castrules.harness.session import Policy
from castrules.harness.worker_engine import result_from_wire, result_to_wire, worker_engine
from tests.harness.test_faults import CATALOG, HOSTILE, IDS, make_case

CASES = [make_case(i) for i in IDS] + [make_case("casting/fixture/bears"), make_case("casting/fixture/d-crash")]


@pytest.fixture
def importable(monkeypatch):
    """The fake engines importable here and, through the worker's path, in the worker."""
    monkeypatch.syspath_prepend(str(HOSTILE))


def comparable(result: Result, passing_trace: bool = True) -> Result:
    """Durations differ; a worker leaves a passing case's trace behind unless asked for it."""
    keep = passing_trace or result.status is not Status.PASS
    return replace(result, duration=0.0, trace=result.trace if keep else ())


@pytest.mark.parametrize("spec, kinds", [
    ("fake_inprocess_engine:Crashy", {Status.FAIL, Status.ERROR}),
    ("hostile_engines:NaN", {Status.PASS, Status.ERROR}),
    ("hostile_engines:Exits", {Status.PASS, Status.ERROR}),
])
def test_a_worker_judges_each_case_as_a_run_in_process_does(importable, spec, kinds):
    in_process = load_engine(spec)
    expected = [comparable(run_case(in_process, case, CATALOG)) for case in CASES]
    assert {r.status for r in expected} == kinds
    worker = worker_engine(parse_engine_spec(spec), timeout=30)
    try:
        seen = [comparable(run_case(worker, case, CATALOG)) for case in CASES]
        worker.passing_traces = {case.id for case in CASES}
        asked = [comparable(run_case(worker, case, CATALOG)) for case in CASES]
    finally:
        worker.close()
    assert seen == [comparable(r, passing_trace=False) for r in expected]
    assert asked == expected
    assert worker.restarts == 0


def test_a_parallel_run_of_a_contained_engine_reports_what_a_serial_one_does(importable):
    runs = []
    for jobs in (1, 2):
        engines = open_engines("fake_inprocess_engine:Crashy", jobs, len(CASES), {"timeout": 30})
        try:
            runs.append([comparable(r).to_json() for r in session(engines, CASES, CATALOG, None, Policy())])
        finally:
            close_all(engines)
    assert runs[0] == runs[1] and len(runs[0]) == len(CASES)


def test_what_an_engine_writes_on_its_stdout_never_reaches_the_protocol(importable):
    worker = worker_engine(parse_engine_spec("hostile_engines:WritesToStdout"), timeout=30)
    try:
        results = [run_case(worker, case, CATALOG) for case in CASES[:3]]
    finally:
        worker.close()
    assert [r.status for r in results] == [Status.PASS] * 3
    assert "a print from the engine" in results[1].diagnostics   # the case's own diagnostics, as in process
    assert worker.restarts == 0


@pytest.mark.parametrize("answer", [None, [], {}, {"status": "known_failure"}, {"status": "pass", "duration": "1"},
                                    {"status": "fail", "mismatches": [["after step 1", "legal"]]},
                                    {"status": "error", "message": 5}, {"status": "pass", "engine_lost": 1}])
def test_an_answer_that_is_not_a_result_is_refused(answer):
    base = Result("casting/fixture/a-first", Status.PASS)
    with pytest.raises((KeyError, TypeError, ValueError)):
        result_from_wire(base, answer)


def test_a_result_crosses_whole():
    from castrules.harness.results import Mismatch

    result = Result("x", Status.FAIL, duration=0.5, message="m", diagnostics="d", issue_url="u", engine_lost=True,
                    mismatches=(Mismatch("after step 1", "total_cost", "{1}", "<missing>"),), trace=({"note": "n"},))
    assert result_from_wire(Result("x", Status.PASS), result_to_wire(result)) == result


def test_an_unexpected_pass_keeps_the_engines_trace_as_in_process():
    from castrules.harness.bench_engines import COPY_SPEC
    from castrules.harness.expectations import Expectations, KnownFailure
    from castrules.harness.suite import shared_suite

    suite = shared_suite()
    cases = suite.cases[:3]
    listed = Expectations({cases[1].id: KnownFailure("fail", "listed for this test")})
    runs = []
    for in_process in (True, False):   # castrules' own engine: in process unless put in a worker
        engines = [load_engine(COPY_SPEC) if in_process else worker_engine(parse_engine_spec(COPY_SPEC), timeout=30)]
        try:
            runs.append([comparable(r) for r in session(engines, cases, suite.catalog, listed, Policy())])
        finally:
            close_all(engines)
    assert [r.status for r in runs[0]] == [Status.PASS, Status.UNEXPECTED_PASS, Status.PASS]
    assert runs[0][1].trace and runs[1][1] == runs[0][1]          # the unexpected pass shows the same trace
    assert [r.to_json() for r in runs[1]] == [r.to_json() for r in runs[0]]
    assert not runs[1][0].trace                                    # no output shows another pass's trace


def test_an_engine_whose_pipes_are_past_descriptor_1024_is_read_and_written(importable):
    """The harness waits on an engine's pipes with poll, not select (limited to descriptors below
    1024): a harness process with many files open (-j, a pytest session) still runs its cases."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"at most {hard} open files here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = []
    try:
        while not held or held[-1] < 1030:
            held.append(os.open(os.devnull, os.O_RDONLY))
        worker = worker_engine(parse_engine_spec("hostile_engines:NaN"), timeout=30)
        try:
            assert worker._supervisor.process().stdout.fd > 1024
            results = [run_case(worker, case, CATALOG) for case in CASES[:3]]
        finally:
            worker.close()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert [r.status for r in results] == [Status.PASS, Status.ERROR, Status.PASS]
