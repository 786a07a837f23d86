"""What the harness guarantees under faults (README, "Under faults"), one misbehaviour a test.

Every test asserts the outcome: the bad case's own status, every other result intact, a
report that accounts for the whole selection, no traceback and no engine process left. Time
is bounded by small timeouts and the subprocess timeouts, never asserted.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine_errors import EngineLoadError
from castrules.harness.engine import load_engine
from castrules.harness.expectations import Expectations, KnownFailure
from castrules.harness.junit import write_junit
from castrules.harness.report_jsonl import read_report
from castrules.harness import report_markdown
from castrules.harness.results import Result, Status
from castrules.harness.runner import run_case
from castrules.harness.session import Ending, Policy, Session, serial
from castrules.harness.subprocess_engine import SubprocessEngine
from tests.conftest import FIXTURE_CARDS, good_case

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FAKES = HERE / "fake_engines"
HOSTILE = HERE / "fake_inprocess"
CATALOG = Catalog({card["name"]: card for card in FIXTURE_CARDS})
IDS = ["casting/fixture/a-first", "casting/fixture/b-bad", "casting/fixture/c-last"]   # in suite order


def case_doc(case_id: str) -> dict:
    """A case every well-behaved fake passes: one legal step, the Forests stay where they are."""
    return good_case(case_id, steps=[{"move_to": {"step": "postcombat_main"}}],
                     expect=[{"after": 1, "legal": True}, {"after": "final", "objects": {"f1": {"zone": "battlefield"}}}])


def make_case(case_id: str) -> Case:
    doc = case_doc(case_id)
    return Case(case_id, doc["title"], Path(case_id), f"cases/{case_id}.yaml", tuple(doc["rules"]),
                tuple(doc["features"]), doc)


def fake(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(FAKES / f"{name}.py"), *args])


def alive(pid: int) -> bool:
    """Whether a process still runs (a zombie waiting for its parent to reap it does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1] != "Z"
    except OSError:
        return False


def pids_in(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def statuses(results) -> dict[str, Status]:
    return {r.case_id: r.status for r in results}


# -- in process, in the harness's own process ------------------------------------------------

@pytest.fixture
def hostile(monkeypatch):
    monkeypatch.syspath_prepend(str(HOSTILE))
    import hostile_engines

    return hostile_engines


@pytest.mark.parametrize("kind, message", [
    ("Exits", "the engine called sys.exit(0)"),
    ("RaisesBase", "Escape: out of here"),
    ("NaN", "nan is not a JSON number"),
    ("Huge", "an integer beyond"),
    ("IntKeys", "key 1 is a int, expected a string"),
])
def test_an_in_process_fault_is_that_cases_error(hostile, kind, message):
    engine = getattr(hostile, kind)()
    results = [run_case(engine, make_case(i), CATALOG) for i in IDS]
    assert statuses(results) == {IDS[0]: Status.PASS, IDS[1]: Status.ERROR, IDS[2]: Status.PASS}
    assert message in results[1].message
    for result in results:   # every result can be written to a report
        json.dumps(result.to_json(), allow_nan=False)


def test_a_reply_the_comparison_cannot_read_fails_only_that_case(hostile):
    doc = good_case("casting/fixture/bad")   # expects a total cost: the schema-valid "{²}" is compared
    strange = Case(doc["id"], doc["title"], Path("bad"), "cases/bad.yaml", ("601.2a",), ("casting",), doc)
    result = run_case(hostile.StrangeCost(), strange, CATALOG)
    assert result.status is Status.ERROR and "the observations could not be compared" in result.message
    assert run_case(hostile.StrangeCost(), make_case(IDS[0]), CATALOG).status is Status.PASS


def test_an_engine_mutating_its_request_cannot_reach_the_suite(hostile):
    cases = [make_case(i) for i in IDS]
    before = [copy.deepcopy(dict(c.doc)) for c in cases], copy.deepcopy(CATALOG.cards)
    results = [run_case(hostile.Mutates(), case, CATALOG) for case in cases]
    assert [r.status for r in results] == [Status.PASS] * 3
    assert ([dict(c.doc) for c in cases], CATALOG.cards) == before


def test_ctrl_c_in_process_stops_the_run_keeping_results_and_reporting_the_rest(hostile):
    engine, cases = hostile.Interrupts(), [make_case(i) for i in IDS]
    run = Session(cases, serial(cases, lambda c: run_case(engine, c, CATALOG)), Policy())
    results = list(run)
    assert [r.status for r in results] == [Status.PASS, Status.NOT_RUN, Status.NOT_RUN]
    assert run.ending is Ending.INTERRUPTED and "interrupted" in results[1].message


def test_engine_attributes_of_the_wrong_type_are_a_clear_load_error(hostile):
    with pytest.raises(EngineLoadError) as info:
        load_engine("py:hostile_engines:WrongTypes")
    assert "name is int, expected a string" in str(info.value)
    assert "features is str" in str(info.value)


# -- the run's accounting -----------------------------------------------------------------------

def test_a_crash_loop_ends_the_run_but_an_engine_working_between_crashes_runs_everything():
    cases = [make_case(f"casting/fixture/c{n}") for n in range(9)]

    def lost_on(pattern):
        def run_one(case):
            lost = pattern(int(case.id[-1]))
            return Result(case.id, Status.ERROR if lost else Status.PASS, engine_lost=lost, message="crashed" * lost)
        return run_one

    every_third = Session(cases, serial(cases, lost_on(lambda n: n % 3 == 2)), Policy(max_consecutive_failures=2))
    assert [r.status for r in every_third].count(Status.NOT_RUN) == 0 and every_third.ending is Ending.COMPLETED
    loop = Session(cases, serial(cases, lost_on(lambda n: n >= 3)), Policy(max_consecutive_failures=2))
    results = list(loop)
    assert [r.status for r in results] == [Status.PASS] * 3 + [Status.ERROR] * 2 + [Status.NOT_RUN] * 4
    assert loop.ending is Ending.ENGINE_GAVE_UP and "2 cases in a row" in results[-1].message


def test_a_report_with_fewer_case_lines_than_its_header_is_truncated(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [{"type": "header", "format": 1, "suite_version": "0", "cases": 3, "started": "now",
              "engine": {"name": "e", "version": "1", "features": []}},
             {"type": "case", "id": "a", "status": "pass", "duration": 0, "rules": [], "features": []},
             {"type": "footer", "totals": {"pass": 1}, "unexpected": 0, "duration": 0, "ended": "completed"}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = read_report(path)
    assert report.truncated
    assert any("announces 3 case(s) but the report has 1 case line(s); results were lost" in p for p in report.problems)


def test_not_run_is_never_counted_as_a_success(tmp_path):
    case = make_case(IDS[0])
    result = Result(case.id, Status.NOT_RUN, case.file, message="not run: interrupted")
    listed = Expectations({case.id: KnownFailure("fail", "known")})
    assert listed.apply(result).status is Status.NOT_RUN   # a known failure does not hide it
    summary = report_markdown.render([result], "e", "1")
    assert "as expected" not in summary and "1 case(s) not run: interrupted" in summary
    write_junit([result], tmp_path / "j.xml", "e")
    assert "<error" in (tmp_path / "j.xml").read_text()


# -- protocol engines ---------------------------------------------------------------------------

@pytest.mark.parametrize("then, status", [("exit", Status.ERROR), ("hang", Status.TIMEOUT)])
def test_a_forked_child_holding_stdout_neither_delays_the_run_nor_outlives_it(tmp_path, then, status):
    pids = tmp_path / "pids"
    engine = load_engine(fake("forker", "--then", then, "--pids", str(pids)), timeout=1 if then == "hang" else 30)
    try:
        results = [run_case(engine, make_case(i), CATALOG) for i in IDS]
    finally:
        engine.close()
    assert statuses(results) == {IDS[0]: Status.PASS, IDS[1]: status, IDS[2]: Status.PASS}
    if then == "exit":   # seen when the engine exits, not when the 30 s timeout runs out
        assert "exited with status 5" in results[1].message
    assert len(pids_in(pids)) == 3 and not any(alive(p) for p in pids_in(pids))


@pytest.mark.parametrize("mode", ["nan", "inf", "huge"])
def test_numbers_no_observation_can_hold_are_that_cases_error(mode):
    engine = load_engine(fake("wild_numbers", "--mode", mode), timeout=10)
    try:
        results = [run_case(engine, make_case(i), CATALOG) for i in IDS]
    finally:
        engine.close()
    assert statuses(results) == {IDS[0]: Status.PASS, IDS[1]: Status.ERROR, IDS[2]: Status.PASS}
    assert "not strict JSON data" in results[1].message
    assert isinstance(engine, SubprocessEngine) and engine.restarts == 0   # in step: the process is kept


def test_engine_output_is_bounded_blank_lines_dropped_and_long_lines_that_cases_error(monkeypatch):
    from castrules.harness import engine_process

    engine = load_engine(fake("flood", "--mode", "blank"), timeout=10)
    try:
        assert [run_case(engine, make_case(i), CATALOG).status for i in IDS] == [Status.PASS] * 3
    finally:
        engine.close()
    monkeypatch.setattr(engine_process, "MAX_LINE_BYTES", 1000)
    engine = load_engine(fake("flood", "--mode", "long", "--count", "5000"), timeout=10)
    try:
        results = [run_case(engine, make_case(i), CATALOG) for i in IDS]
    finally:
        engine.close()
    assert statuses(results) == {IDS[0]: Status.PASS, IDS[1]: Status.ERROR, IDS[2]: Status.PASS}
    assert "a line longer than 1000 bytes" in results[1].message


# -- the command line ---------------------------------------------------------------------------

@pytest.fixture
def fault_suite(suite_builder):
    for case_id in IDS:
        suite_builder.case(f"cases/casting/{case_id.rsplit('/', 1)[1]}.yaml", case_doc(case_id))
    return suite_builder


def start(suite, *args: str, extra_env: dict | None = None) -> subprocess.Popen:
    env = {**os.environ, "CASTRULES_SUITE": str(suite.root), **(extra_env or {}),
           "PYTHONPATH": os.pathsep.join([str(HOSTILE), str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "castrules", "run", "--no-tables", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen, timeout: float = 60) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def report_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("kind, where, status, message", [
    ("Sleeps", [], "timeout", "no answer within 1 s"),
    ("Exits", [], "error", "sys.exit(0)"),
    ("Exits", ["--in-process"], "error", "sys.exit(0)"),
    ("KillsItself", ["-j", "2"], "error", "exited with status -9"),
    ("Sleeps", ["-j", "2"], "timeout", "no answer within 1 s"),      # a forked lane's worker (Linux)
    ("Exits", ["-j", "2"], "error", "sys.exit(0)"),
])
def test_an_in_process_engine_is_contained(fault_suite, tmp_path, kind, where, status, message):
    report = tmp_path / "r.jsonl"
    code, out, err = finish(start(fault_suite, "--engine", f"hostile_engines:{kind}", "--timeout", "1",
                                  "--report", str(report), *where))
    assert code == 1 and "Traceback" not in err + out, err
    lines = report_lines(report)
    assert [(l["id"], l["status"]) for l in lines[1:-1]] == [(IDS[0], "pass"), (IDS[1], status), (IDS[2], "pass")]
    assert message in lines[2]["message"] and lines[-1]["ended"] == "completed"


def test_parallel_runs_report_what_serial_runs_do_in_fault_modes(suite_builder, tmp_path):
    for n in range(9):
        suite_builder.case(f"cases/casting/c{n}.yaml", case_doc(f"casting/fixture/c{n}"))
    launches = tmp_path / "launches"
    every_third = fake("crash", "--on", "*c[258]", "--launches", str(launches))
    seen = {}
    for jobs in ("1", "3"):
        report = tmp_path / f"r{jobs}.jsonl"
        code, out, err = finish(start(suite_builder, "--engine", every_third, "-j", jobs, "--report", str(report),
                                      "--max-consecutive-failures", "2"))
        assert code == 1 and "Traceback" not in err, err
        seen[jobs] = [(l["id"], l["status"]) for l in report_lines(report)[1:-1]]
    assert seen["1"] == seen["3"]
    assert [s for _, s in seen["1"]] == ["pass", "pass", "error"] * 3   # crashy, not a crash loop: all ran
    launches.unlink()
    code, out, err = finish(start(suite_builder, "--engine", fake("crash", "--on", "none", "--launches", str(launches)),
                                  "-j", "8", "--id", "casting/fixture/c[01]"))
    assert code == 0, err
    assert len(launches.read_text().splitlines()) == 2   # never more lanes than cases


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen, polls: int = 600) -> None:
    for _ in range(polls):   # at most about 30 s
        if proc.poll() is not None:
            break
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run did not write {count} report lines: {proc.poll()} {path.exists()}")


@pytest.mark.parametrize("signum, engine, jobs", [
    (signal.SIGTERM, "forker", "1"),
    (signal.SIGINT, "forker", "2"),
    (signal.SIGTERM, "hostile_engines:Sleeps", "1"),
    (signal.SIGINT, "hostile_engines:Sleeps", "2"),
], ids=["sigterm-serial", "sigint-parallel", "sigterm-inprocess-worker", "sigint-forked-lanes"])
def test_a_signal_ends_the_run_keeping_results_and_every_engine_process(fault_suite, tmp_path, signum, engine, jobs):
    report, pids = tmp_path / "r.jsonl", tmp_path / "pids"
    spec = fake("forker", "--then", "hang", "--pids", str(pids)) if engine == "forker" else engine
    proc = start(fault_suite, "--engine", spec, "--timeout", "60", "-j", jobs, "--report", str(report),
                 extra_env={"HOSTILE_PIDS": str(pids)})
    wait_for_lines(report, 2, proc)        # the header and the first case: the engine is busy on the bad one
    time.sleep(0.3)
    proc.send_signal(signum)
    code, out, err = finish(proc, timeout=15)
    assert code == 128 + signum and "Traceback" not in err, err
    lines = report_lines(report)
    assert [l["id"] for l in lines[1:-1]] == IDS   # every selected case has its line
    assert lines[1]["status"] == "pass" and lines[2]["status"] == "not_run"
    assert lines[-1]["type"] == "footer" and lines[-1]["ended"] == "interrupted"
    assert pids_in(pids) and not any(alive(p) for p in pids_in(pids))


def test_the_pytest_route_contains_an_in_process_engine_too(fault_suite, tmp_path):
    from tests.harness.test_pytest_plugin import pytest_run

    junit = tmp_path / "j.xml"
    done = pytest_run(fault_suite, "--engine=hostile_engines:Sleeps", "--castrules-timeout=1", f"--junitxml={junit}",
                      str(fault_suite.root / "cases"), cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "2 passed" in done.stdout and "1 failed" in done.stdout
    assert "TIMEOUT: casting/fixture/b-bad" in done.stdout



def test_a_signal_while_the_engine_starts_leaves_no_process(fault_suite, tmp_path):
    pids = tmp_path / "pids"
    starter = shlex.join([sys.executable, "-c", "import os, sys, time; open(sys.argv[1], 'a').write(f'{os.getpid()}\\n'); "
                          "time.sleep(3600)", str(pids)])
    proc = start(fault_suite, "--engine", f"cmd:{starter}", "--startup-timeout", "60")
    for _ in range(600):   # until the engine has started (at most about 30 s)
        if pids_in(pids) or proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    code, out, err = finish(proc, timeout=15)
    assert code == 143 and "Traceback" not in err, err
    assert pids_in(pids) and not any(alive(p) for p in pids_in(pids))
