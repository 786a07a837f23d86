"""Protocol engines: SubprocessEngine against fake engines, ``castrules serve`` and ``castrules smoke``.

Each fake (tests/harness/fake_engines) misbehaves on the cases whose id matches ``--on``
(default ``*bad*``) and answers the others; every test checks that the broken case gets its own
status and that every other result is intact.
"""

from __future__ import annotations

import functools
import io
import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import EngineGaveUp, EngineLoadError, load_engine
from castrules.harness.results import Status
from castrules.harness.runner import iter_results, run_cases
from castrules.harness.subprocess_engine import SubprocessEngine, TooManyRestarts

REPO = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).resolve().parent / "fake_engines"
FOREST = {"name": "Forest", "real": True, "mana_cost": None, "type_line": "Basic Land — Forest", "text": "Taps for green mana."}
CATALOG = Catalog({"Forest": FOREST})
IDS = ["t/ok-1", "t/ok-2", "t/bad", "t/ok-3", "t/ok-4"]


def fake(name: str, *args: str) -> str:
    return shlex.join([sys.executable, str(FAKES / f"{name}.py"), *args])


def make_case(case_id: str, features=("casting",)) -> Case:
    doc = {"id": case_id, "title": case_id, "rules": ["601.2a"], "features": list(features), "why": "a test",
           "setup": {"players": {"A": {}, "B": {}},
                     "objects": [{"id": "forest", "card": "Forest", "zone": "battlefield", "controller": "A"}]},
           "steps": [{"move_to": {"step": "postcombat_main"}}],
           "expect": [{"after": 1, "legal": True}, {"after": "final", "objects": {"forest": {"zone": "battlefield"}}}]}
    return Case(case_id, case_id, Path(case_id), f"cases/{case_id}.yaml", ("601.2a",), tuple(features), doc)


def run_all(command: str, ids=IDS, **options):
    options.setdefault("timeout", 2.0)
    options.setdefault("startup_timeout", 5.0)
    engine = load_engine(command, **options)
    try:
        return run_cases(engine, [make_case(i) for i in ids], CATALOG), engine
    finally:
        engine.close()


def statuses(results):
    return {r.case_id: r.status for r in results}


def test_a_working_engine_passes_every_case():
    results, engine = run_all(fake("slow_start", "--delay", "0"))
    assert isinstance(engine, SubprocessEngine)
    assert engine.name == "fake-slow-start" and engine.version == "0.0.1"
    assert "casting" in engine.features
    assert set(statuses(results).values()) == {Status.PASS}
    assert engine.restarts == 0 and engine.launches == 1


@pytest.mark.parametrize("command, status, message, stderr", [
    (fake("crash"), Status.ERROR, "exited with status 3 while running the case", "NullPointerException in t/bad"),
    (fake("hang"), Status.TIMEOUT, "no answer within 0.5 s", "thinking forever about t/bad"),
    (fake("garbage"), Status.ERROR, "not JSON: 'DEBUG casting spell... {not json'", None),
    (fake("garbage", "--mode", "envelope"), Status.ERROR, "answered run seq 3 with a message of type None", None),
    (fake("wrong_seq"), Status.ERROR, "wrong sequence number: the engine answered seq 4 to run seq 3", None),
], ids=["crash", "hang", "garbage", "envelope", "wrong-seq"])
def test_a_broken_case_gets_its_own_status_and_the_run_goes_on(command, status, message, stderr):
    results, engine = run_all(command, timeout=0.5)
    assert [r.case_id for r in results] == IDS
    bad = results[2]
    assert bad.status is status, bad.message
    assert message in bad.message
    if stderr:
        assert stderr in bad.diagnostics
    assert all(r.status is Status.PASS for r in results if r.case_id != "t/bad"), [(r.case_id, r.message) for r in results]
    assert engine.restarts == 1 and engine.launches == 2   # restarted, handshake replayed


def test_a_wrong_shape_is_that_cases_error_without_a_restart():
    results, engine = run_all(fake("garbage", "--mode", "shape"))
    assert results[2].status is Status.ERROR
    assert "breaks protocol v1" in results[2].message and "/result" in results[2].message
    assert all(r.status is Status.PASS for r in results if r.case_id != "t/bad")
    assert engine.restarts == 0


def test_an_always_wrong_engine_fails_without_errors():
    results, _ = run_all(fake("always_wrong"))
    assert set(statuses(results).values()) == {Status.FAIL}
    assert "legal: expected True, observed False" in str(results[0].mismatches[0])


def test_a_slow_starter_is_fine_within_the_startup_timeout():
    # it starts slower than the per-case timeout: only the startup timeout applies to the hello
    results, engine = run_all(fake("slow_start", "--delay", "1.2"), timeout=0.3, startup_timeout=5)
    assert set(statuses(results).values()) == {Status.PASS}
    assert engine.restarts == 0


def test_a_starter_slower_than_the_startup_timeout_cannot_load():
    # 3 s: long enough for the fake's own Python to start and write its first stderr line on a
    # loaded machine (0.3 s was not: the tail was sometimes empty), far below its 60 s delay
    with pytest.raises(EngineLoadError, match=r"did not answer hello within 3 s \(startup timeout\)") as info:
        load_engine(fake("slow_start", "--delay", "60"), startup_timeout=3)
    assert "loading 30000 cards" in str(info.value)   # its stderr tail is in the message


def test_lots_of_stderr_is_diagnostics_not_a_crash():
    results, engine = run_all(fake("noisy"), timeout=5)
    assert set(statuses(results).values()) == {Status.PASS}
    assert engine.restarts == 0


@pytest.mark.parametrize("args, message", [
    ((), "protocol version mismatch: the engine speaks protocol 2, this harness (castrules 0.1.0) speaks protocol 1"),
    (("--refuse",), "the engine refused protocol 1, the version this harness (castrules 0.1.0) speaks (it speaks protocol 2): "
                    "this engine speaks protocol 2 only"),
])
def test_a_protocol_version_mismatch_is_refused_clearly(args, message):
    with pytest.raises(EngineLoadError) as info:
        load_engine(fake("wrong_version", *args))
    assert message in str(info.value)


def test_an_engine_that_exits_at_start_cannot_load():
    with pytest.raises(EngineLoadError, match="exited with status 4 before answering hello") as info:
        load_engine(fake("crash", "--exit-at-start"))
    assert "cannot find engine.jar" in str(info.value)


def test_garbage_instead_of_hello_cannot_load():
    with pytest.raises(EngineLoadError, match="answer to hello is not JSON: 'Picked up JAVA_TOOL_OPTIONS"):
        load_engine(fake("garbage", "--mode", "hello"))


def test_an_engine_that_exits_at_start_on_restart_costs_one_case(tmp_path):
    launches = tmp_path / "launches"
    results, engine = run_all(fake("crash", "--launches", str(launches), "--exit-at-launch", "2"),
                              ids=["t/ok-1", "t/bad", "t/ok-2", "t/ok-3"])
    assert [r.status for r in results] == [Status.PASS, Status.ERROR, Status.ERROR, Status.PASS]
    assert "could not be restarted: the engine exited with status 4 before answering hello" in results[2].message
    assert "cannot find engine.jar (launch 2)" in results[2].diagnostics
    assert engine.restarts == 2 and len(launches.read_text().splitlines()) == 3


class _GivingUp:
    name, version, features = "giving-up", "1", frozenset({"casting"})

    def run(self, request):
        raise EngineGaveUp("stop")


def _runner_lets_engine_gave_up_through() -> None:
    try:
        run_cases(_GivingUp(), [make_case("t/x")], CATALOG)
    except EngineGaveUp:
        return
    pytest.fail("harness.runner turned EngineGaveUp into a case result: it must re-raise it "
                "(`except EngineGaveUp: raise` before `except Exception` in runner._run) so that the run stops")


def test_too_many_restarts_stops_the_run_keeping_the_results_so_far():
    _runner_lets_engine_gave_up_through()
    engine = load_engine(fake("crash", "--on", "*"), timeout=2, max_restarts=2)
    seen = []
    try:
        with pytest.raises(TooManyRestarts) as info:
            run_cases(engine, [make_case(f"t/case-{n}") for n in range(6)], CATALOG, on_result=seen.append)
    finally:
        engine.close()
    assert [r.status for r in seen] == [Status.ERROR] * 3
    assert "restarted 2 time(s) in a row (limit 2)" in str(info.value)
    assert isinstance(info.value, EngineGaveUp)   # what the CLI catches to stop the run


def test_a_crash_loop_stops_the_cli_and_every_case_still_has_a_result(suite_builder):
    from tests.conftest import run_with_report

    done, lines = run_with_report(suite_builder, 7, "--timeout", "2", "--max-consecutive-failures", "3",
                                  "--engine", fake("crash", "--on", "*"))
    assert done.returncode == 1, done.stderr
    assert "the run ended early (engine_gave_up) after 3 of 7 cases; 4 case(s) not run" in done.stderr
    assert "on 3 cases in a row with no answered case between them" in done.stderr
    assert "Traceback" not in done.stderr
    assert "fake-crash 0.0.1: 3 of 7 cases: 3 error, 4 not run" in done.stdout
    assert [line["status"] for line in lines[1:-1]] == ["error"] * 3 + ["not_run"] * 4
    assert lines[-1]["ended"] == "engine_gave_up" and "in a row" in lines[-1]["reason"]


def test_isolate_starts_one_process_per_case(tmp_path):
    launches = tmp_path / "launches"
    results, engine = run_all(fake("crash", "--launches", str(launches)), isolate=True)
    assert [r.status for r in results] == [Status.PASS, Status.PASS, Status.ERROR, Status.PASS, Status.PASS]
    assert len(launches.read_text().splitlines()) == len(IDS)
    assert engine.restarts == 1


def test_the_command_line_is_an_argument_vector_not_a_shell(tmp_path):
    marker = tmp_path / "marker"
    name = f"x; touch {marker} && $(touch {marker}) `touch {marker}`"
    engine = load_engine(fake("always_wrong", "--name", name))
    engine.close()
    assert engine.name == name
    with pytest.raises(EngineLoadError, match=r"answer to hello is not JSON: 'hi; touch"):
        load_engine(f"echo hi; touch {marker}")
    assert not marker.exists()


def test_results_arrive_as_each_case_finishes():
    # No clock: the hanging case costs a kill and a restart, so a result handed over before the
    # hang was even sent shows no restart yet, while the run as a whole ends with one.
    engine = load_engine(fake("hang"), timeout=1.0)
    arrivals = []
    try:
        for result in iter_results(engine, [make_case(i) for i in IDS], CATALOG):
            arrivals.append((result.case_id, result.status, engine.restarts))
    finally:
        engine.close()
    assert arrivals[:2] == [("t/ok-1", Status.PASS, 0), ("t/ok-2", Status.PASS, 0)]
    assert arrivals[2][:2] == ("t/bad", Status.TIMEOUT)
    assert arrivals[-1] == ("t/ok-4", Status.PASS, 1)


# -- castrules serve ---------------------------------------------------------------------------

def _serve_env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(FAKES)])}


def _serve(spec: str) -> SubprocessEngine:
    argv = [sys.executable, "-m", "castrules", "serve", "--engine", spec]
    return SubprocessEngine(argv, timeout=10, env=_serve_env(), cwd=str(REPO))


def _compare_routes(inproc, served, cases, catalog):
    """Raw replies equal (after a JSON round trip) and results equal, case for case."""
    for case in cases:
        request = case.request(catalog.subset(case.card_names()))
        try:
            expected = json.loads(json.dumps(inproc.run(request), default=list))
        except Exception as exc:
            expected = type(exc).__name__
        got = served.run(request)
        if isinstance(expected, str):
            assert got["status"] == "errored" and got["message"].startswith(expected + ":"), case.id
        else:
            assert got == expected, case.id
    a, b = run_cases(inproc, cases, catalog), run_cases(served, cases, catalog)
    for x, y in zip(a, b, strict=True):
        assert (x.case_id, x.status, x.mismatches) == (y.case_id, y.status, y.mismatches)
        if x.status is not Status.ERROR:
            assert x.message == y.message and x.trace == y.trace


def test_serve_round_trip_equals_the_in_process_engine():
    sys.path.insert(0, str(FAKES))
    try:
        inproc = load_engine("inprocess_echo:Engine")
    finally:
        sys.path.remove(str(FAKES))
    served = _serve("inprocess_echo:Engine")
    try:
        assert (served.name, served.version, served.homepage, served.features) == \
               (inproc.name, inproc.version, inproc.homepage, inproc.features)
        cases = [make_case(i) for i in ["t/one", "t/skip-me", "t/raise-me", "t/two"]]
        _compare_routes(inproc, served, cases, CATALOG)
        results = run_cases(served, cases, CATALOG)
        assert [r.status for r in results] == [Status.PASS, Status.SKIPPED, Status.ERROR, Status.PASS]
        assert "RuntimeError: the echo engine was asked to fail" in results[2].message
    finally:
        served.close()


@functools.cache
def _oracle_and_suite():
    try:
        oracle = load_engine("oracle")
    except Exception as exc:  # the oracle is written concurrently; this test waits for it
        pytest.skip(f"the oracle cannot be loaded yet: {exc}")
    from castrules.harness.suite import load_suite

    suite = load_suite()
    cases = [c for c in suite.cases if set(c.features) <= oracle.features]
    if not cases:
        pytest.skip("no valid case in the suite yet")
    return oracle, suite, cases


def test_serve_runs_the_oracle_like_in_process_on_a_sample_of_the_suite():
    oracle, suite, cases = _oracle_and_suite()
    served = _serve("oracle")
    try:
        _compare_routes(oracle, served, cases[::7][:80], suite.catalog)
    finally:
        served.close()


# -- castrules smoke ---------------------------------------------------------------------------

def _smoke(command: str, timeout: float = 1.0) -> tuple[int, str]:
    from castrules.harness.smoke import smoke

    out = io.StringIO()
    code = smoke(command, timeout=timeout, startup_timeout=5, out=out)
    return code, out.getvalue()


def test_smoke_passes_on_castrules_serve(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), str(FAKES)]))
    code, out = _smoke(shlex.join([sys.executable, "-m", "castrules", "serve", "--engine", "inprocess_echo:Engine"]), 10)
    assert code == 0, out
    assert "FAIL" not in out and "PASS sequence echo: seq 7 and 3 echoed" in out and "smoke: 13/13 checks passed" in out
    assert "PASS pipelining: runs seq 7 and 3 sent before the first answer were both answered" in out  # serve declares it


def test_smoke_passes_on_castrules_serve_with_the_oracle(monkeypatch):
    try:
        load_engine("oracle")
    except Exception as exc:
        pytest.skip(f"the oracle cannot be loaded yet: {exc}")
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    code, out = _smoke(shlex.join([sys.executable, "-m", "castrules", "serve"]), 10)
    assert code == 0, out


@pytest.mark.parametrize("command, expected", [
    (fake("wrong_version"), "FAIL protocol version: engine speaks protocol 2, this harness speaks protocol 1"),
    (fake("wrong_version", "--refuse"), "FAIL handshake: the engine refused protocol 1: this engine speaks protocol 2 only"),
    (fake("crash", "--exit-at-start"), "FAIL handshake: the engine exited with status 4 instead of answering hello"),
    (fake("wrong_seq", "--on", "*"), "FAIL sequence echo: answered seq 8 to run seq 7; answered seq 4 to run seq 3"),
    (fake("garbage", "--on", "*"), "FAIL run seq 7: the answer to run seq 7 is not JSON"),
    (fake("garbage", "--on", "*", "--mode", "shape"), "FAIL answer shape: /result"),
    (fake("crash", "--on", "*"), "FAIL run seq 7: the engine exited with status 3 instead of answering run seq 7"),
    (fake("hang", "--on", "*"), "FAIL run seq 7: no answer to run seq 7 within 0.5 s"),
    (f"{sys.executable} {FAKES / 'no-such-engine.py'}", "FAIL handshake: the engine exited with status 2"),
], ids=["version", "refuse", "exit-at-start", "wrong-seq", "garbage", "shape", "crash", "hang", "missing-script"])
def test_smoke_says_precisely_what_is_wrong(command, expected):
    code, out = _smoke(command, timeout=0.5)
    assert code == 1
    assert expected in out, out


def test_smoke_fails_on_a_missing_program():
    code, out = _smoke("no-such-program-castrules --flag")
    assert code == 1 and "FAIL start: cannot start the engine: no such program 'no-such-program-castrules'" in out


@pytest.mark.parametrize("name", ["slow_start", "noisy", "always_wrong"])
def test_smoke_passes_on_fakes_that_speak_the_protocol(name):
    code, out = _smoke(fake(name, "--on", "*", *(["--delay", "0.3"] if name == "slow_start" else [])), timeout=5)
    assert code == 0, out
