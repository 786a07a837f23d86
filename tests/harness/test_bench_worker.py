"""bench's worker-process figure (issue: faults, point 2): the same non-reference engine run in
its worker process and in process, both really run, every figure's key present. No figure's
value is checked (no timed tests): the measure here returns a count, not a duration."""

from __future__ import annotations

from castrules.harness.bench_engines import COPY_SPEC, OracleCopy, worker_cost
from castrules.harness.engine import load_engine
from castrules.harness.runner import run_case
from castrules.harness.suite import shared_suite


def test_the_copy_is_an_engine_like_any_other_with_the_oracles_answers():
    copy, oracle = OracleCopy(), load_engine("oracle")
    assert not getattr(copy, "reference", False) and copy.name != oracle.name
    suite = shared_suite()
    case = suite.cases[0]
    assert run_case(copy, case, suite.catalog).status is run_case(oracle, case, suite.catalog).status


def test_worker_cost_runs_the_engine_in_its_worker_and_in_process():
    suite = shared_suite()
    cases = suite.cases[:3]
    seen: list[tuple[str, list[str]]] = []

    def measure(engine) -> float:
        statuses = [run_case(engine, case, suite.catalog).status.value for case in cases]
        seen.append((type(engine).__name__, statuses))
        return float(len(seen))          # a stand-in for seconds: 1 for the first run, 2 for the second

    figures = worker_cost(measure, len(cases))
    assert [name for name, _ in seen] == ["OracleCopy", "WorkerEngine"]
    assert seen[0][1] == seen[1][1] == ["pass"] * len(cases)
    assert set(figures) == {"engine", "cases", "startup_s", "in_process_cases_per_s", "worker_cases_per_s", "ratio"}
    assert figures["engine"] == COPY_SPEC and figures["ratio"] == 0.5   # in process 1 "s", worker 2 "s"
