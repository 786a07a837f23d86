"""Pipelining (docs/protocol.md, ``pipeline`` in the hello reply): the next run sent before the
answer to the last one comes, for an engine that declares it, and never for one that does not.

Each case still ends with exactly one result, in order, the same as a serial run's: a case the
engine crashed or hung on gets its error, the case sent ahead of that answer gets the crash as
its own error (counted by the crash-loop guard), the engine is restarted for the cases after
them, and a run that stops early kills what is still in flight. Fakes: tests/harness/fake_engines.
"""

from __future__ import annotations

import io
import os
import time

import pytest

from castrules.harness import pipelining
from castrules.harness.engine import load_engine
from castrules.harness.engine_pipeline import MAX_PIPELINE, pipeline_depth
from castrules.harness.protocol_server import hello_reply
from castrules.harness.results import Status
from castrules.harness.schemas import def_errors
from castrules.harness.session import Ending, Policy, Session
from tests.harness.test_subprocess_engine import CATALOG, IDS, fake, make_case


def run(command: str, ids=IDS, policy: Policy | None = None, **options):
    options.setdefault("timeout", 3.0)
    options.setdefault("startup_timeout", 10.0)
    engine = load_engine(command, **options)
    cases = [make_case(i) for i in ids]
    try:
        source = pipelining.results(engine, cases, CATALOG)
        results = list(Session(cases, source, policy) if policy else source)
        return results, engine, _stderr(engine, f"seq {len(ids)}: ")
    finally:
        engine.close()


def _stderr(engine, last: str) -> str:
    """The engine's stderr so far, once ``last`` is in it (a thread reads it: the last line may
    come after the last answer) or after a few seconds."""
    for _ in range(100):
        tail = engine.stderr_tail()
        if last in tail:
            break
        time.sleep(0.05)
    return tail


def test_the_depth_is_the_engines_declaration_bounded_by_the_harness():
    assert pipeline_depth({}, isolate=False) == 1                      # absent: one at a time
    assert pipeline_depth({"pipeline": 1}, isolate=False) == 1
    assert pipeline_depth({"pipeline": 2}, isolate=False) == 2
    assert pipeline_depth({"pipeline": 500}, isolate=False) == MAX_PIPELINE
    assert pipeline_depth({"pipeline": 8}, isolate=True) == 1          # a process per case
    assert pipeline_depth({"pipeline": True}, isolate=False) == 1       # not a number


def test_the_hello_field_is_in_the_schema_and_serve_declares_it():
    base = {"type": "hello", "protocol": 1, "engine": {"name": "x", "version": "1"}, "features": []}
    assert def_errors("protocol", "hello_reply", {**base, "pipeline": 4}) == []
    assert def_errors("protocol", "hello_reply", {**base, "pipeline": 0})
    assert def_errors("protocol", "hello_reply", {**base, "pipeline": "4"})
    served = hello_reply(load_engine("oracle"))
    assert served["pipeline"] >= 2 and def_errors("protocol", "hello_reply", served) == []


def test_an_engine_that_declares_it_gets_the_next_run_before_it_answers():
    results, engine, stderr = run(fake("ahead", "--wait", "2"))
    assert engine.pipeline == 2
    assert [r.status for r in results] == [Status.PASS] * len(IDS)
    # every run but the last found the next one already sent; the last had none to find
    assert [line for line in stderr.splitlines() if line.startswith("seq ")] == \
        [f"seq {n}: ahead" for n in range(1, len(IDS))] + [f"seq {len(IDS)}: alone"]


def test_an_engine_that_does_not_declare_it_gets_one_run_at_a_time():
    results, engine, stderr = run(fake("ahead", "--wait", "0.2", "--pipeline", "1"))
    assert engine.pipeline == 1
    assert [r.status for r in results] == [Status.PASS] * len(IDS)
    assert [line for line in stderr.splitlines() if line.startswith("seq ")] == \
        [f"seq {n}: alone" for n in range(1, len(IDS) + 1)]


@pytest.mark.parametrize("command, status, message", [
    (fake("crash", "--pipeline", "2"), Status.ERROR, "exited with status 3 while running the case (run seq 3)"),
    (fake("hang", "--pipeline", "2"), Status.TIMEOUT, "no answer within 1 s"),
    (fake("garbage", "--pipeline", "2"), Status.ERROR, "not JSON: 'DEBUG casting spell... {not json'"),
], ids=["crash", "hang", "garbage"])
def test_an_engine_lost_mid_pipeline_keeps_the_answers_and_sends_the_case_sent_ahead_again(command, status, message):
    results, engine, stderr = run(command, timeout=1.0)
    assert [r.case_id for r in results] == IDS          # one result per case, in order
    assert [r.status for r in results[:2]] == [Status.PASS, Status.PASS]   # answered before the loss: kept
    assert results[2].status is status and message in results[2].message and results[2].engine_lost
    # t/ok-3 was sent before the loss was known and never answered: sent again to the restarted
    # engine, it gets the answer a serial run gives it
    assert [r.status for r in results[3:]] == [Status.PASS, Status.PASS]
    assert engine.restarts == 1 and engine.launches == 2


def test_a_case_sent_ahead_of_a_loss_is_known_as_such():
    from castrules.harness.engine_pipeline import SentAhead

    cases = [make_case(i) for i in ["t/ok-1", "t/bad", "t/ok-2"]]
    engine = load_engine(fake("crash", "--pipeline", "2"), timeout=3.0)
    try:
        first, bad, ahead = (engine.submit(c.request(CATALOG.subset(c.card_names()))) for c in cases)
        assert engine.collect(first)["status"] == "ok"
        with pytest.raises(Exception, match="exited with status 3"):
            engine.collect(bad)
        with pytest.raises(SentAhead, match=r"lost while running an earlier case \(run seq 2") as info:
            engine.collect(ahead)
        assert info.value.engine_lost and "NullPointerException in t/bad" in info.value.diagnostics
        # a run never lets it come to that (it sends such a case again); if it did, it would be an error
        item = pipelining._Ahead(cases[2], pipelining.case_base(cases[2]), error=info.value)
        result = pipelining._collect(engine, item)
        assert result.status is Status.ERROR and result.engine_lost and "sent ahead (pipelining)" in result.message
    finally:
        engine.close()


def test_a_crash_loop_mid_pipeline_still_accounts_for_every_case():
    results, engine, _ = run(fake("crash", "--pipeline", "2", "--on", "*"), ids=[f"t/c{n}" for n in range(7)],
                             policy=Policy(max_consecutive_failures=3))
    assert [r.status for r in results] == [Status.ERROR] * 3 + [Status.NOT_RUN] * 4   # as a serial run
    assert all(r.engine_lost and "exited with status 3" in r.message for r in results[:3])


def test_a_run_that_stops_early_kills_what_is_in_flight():
    cases = [make_case(i) for i in IDS]
    engine = load_engine(fake("always_wrong", "--pipeline", "2"), timeout=3.0)
    try:
        session = Session(cases, pipelining.results(engine, cases, CATALOG), Policy(maxfail=1))
        results = list(session)
        assert session.ending is Ending.MAXFAIL
        assert [r.status for r in results] == [Status.FAIL] + [Status.NOT_RUN] * 4
        assert len(engine._flight) == 0 and engine.restarts == 0
        # the engine is still usable: a new process, not counted as a restart
        assert engine.run(cases[0].request(CATALOG.subset(cases[0].card_names())))["status"] == "ok"
        assert engine.restarts == 0 and engine.launches == 2
    finally:
        engine.close()


def test_an_unsupported_case_between_sent_ones_keeps_its_place():
    ids = ["t/ok-1", "t/needs-more", "t/ok-2", "t/ok-3"]
    engine = load_engine(fake("slow_start", "--delay", "0", "--pipeline", "2"), timeout=3.0)
    cases = [make_case(i, features=("casting", "prowl") if "more" in i else ("casting",)) for i in ids]
    try:
        results = list(pipelining.results(engine, cases, CATALOG))
    finally:
        engine.close()
    assert [(r.case_id, r.status) for r in results] == [("t/ok-1", Status.PASS), ("t/needs-more", Status.UNSUPPORTED),
                                                       ("t/ok-2", Status.PASS), ("t/ok-3", Status.PASS)]


def test_the_cli_runs_a_pipelined_engine_case_for_case(suite_builder):
    from tests.conftest import run_with_report

    done, lines = run_with_report(suite_builder, 4, "--timeout", "5",
                                  "--engine", "cmd:" + fake("crash", "--pipeline", "2", "--on", "*c1"))
    assert "Traceback" not in done.stderr, done.stderr
    # the fake answers every other case (wrongly for these cases: a fail, which is an answer);
    # c2, sent ahead of c1's crash, is sent again to the restarted engine
    assert [(line["id"], line["status"]) for line in lines[1:-1]] == [
        ("casting/fixture/c0", "fail"), ("casting/fixture/c1", "error"), ("casting/fixture/c2", "fail"),
        ("casting/fixture/c3", "fail")]
    assert "exited with status 3" in lines[2]["message"] and lines[-1]["ended"] == "completed"


def test_smoke_sends_two_runs_together_only_to_an_engine_that_declares_it():
    from castrules.harness.smoke import smoke

    for args, pipelined in ((("--pipeline", "2"), True), ((), False)):
        out = io.StringIO()
        code = smoke(fake("slow_start", "--delay", "0", *args), timeout=5, startup_timeout=10, out=out)
        assert code == 0, out.getvalue()
        assert ("PASS pipelining" in out.getvalue()) is pipelined


# -- -j: the lanes' engines started together ---------------------------------------------------

def test_the_lanes_engines_start_together(tmp_path):
    from castrules.harness.execution import close_all, open_engines

    # each fake answers hello only once all three have started: one after the other, the first
    # would wait for the others in vain (and exit)
    engines = open_engines(fake("barrier", "--dir", str(tmp_path), "--count", "3"), 3, 10,
                           {"timeout": 5.0, "startup_timeout": 30.0})
    try:
        assert len(engines) == 3 and len({e._supervisor._proc.popen.pid for e in engines}) == 3
    finally:
        close_all(engines)


def test_a_lane_engine_that_cannot_start_is_reported_once_and_the_others_are_closed(tmp_path):
    from castrules.harness.engine import EngineLoadError
    from castrules.harness.execution import open_engines

    with pytest.raises(EngineLoadError, match="exited with status 5 before answering hello") as info:
        open_engines(fake("barrier", "--dir", str(tmp_path), "--count", "9", "--wait", "0.5"), 3, 10,
                     {"timeout": 5.0, "startup_timeout": 30.0})
    assert str(info.value).count("exited with status") == 1
    pids = [int(name.split("-")[1]) for name in os.listdir(tmp_path)]
    assert len(pids) == 3
    for pid in pids:   # none left running
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
