"""The runner against deliberately broken in-process engines, and the strict expectations file."""

from __future__ import annotations

from pathlib import Path

import pytest

from castrules.harness.expectations import Expectations, KnownFailure, load_expectations, updated
from castrules.harness.results import Status
from castrules.harness.runner import run_case, run_cases
from castrules.harness.suite import load_suite
from tests.conftest import good_case

GOOD_REPLY = {"status": "ok", "steps": [{"legal": True, "total_cost": "{G}{1}"}],
              "snapshots": {"1": {"players": {}, "objects": {"bears": {"zone": "stack"}}, "stack": ["bears"]}}}


class FakeEngine:
    name, version = "fake", "1"
    features = frozenset({"casting"})

    def __init__(self, reply=None, error: Exception | None = None):
        self.reply, self.error, self.requests = reply, error, []

    def run(self, request):
        self.requests.append(request)
        if self.error:
            raise self.error
        return self.reply


@pytest.fixture
def suite(suite_builder):
    suite_builder.case("cases/casting/good.yaml", good_case())
    return load_suite(suite_builder.root)


def run(suite, engine, expectations=None):
    return run_case(engine, suite.cases[0], suite.catalog, expectations)


def test_engine_never_sees_the_expectations(suite):
    engine = FakeEngine(GOOD_REPLY)
    run(suite, engine)
    [request] = engine.requests
    assert set(request) == {"case", "cards", "observe"}
    assert "expect" not in request["case"] and "why" not in request["case"] and "title" not in request["case"]
    assert set(request["cards"]) == {"Grizzly Bears", "Forest"}
    assert request["observe"] == [1]


def test_pass_with_symbols_in_another_order(suite):
    assert run(suite, FakeEngine(GOOD_REPLY)).status is Status.PASS


def test_fail_shows_expected_and_observed(suite):
    reply = {**GOOD_REPLY, "steps": [{"legal": True, "total_cost": "{2}{G}"}]}
    result = run(suite, FakeEngine(reply))
    assert result.status is Status.FAIL
    [mismatch] = result.mismatches
    assert (mismatch.path, mismatch.expected, mismatch.observed) == ("total_cost", "{1}{G}", "{2}{G}")
    assert str(mismatch) == "after step 1: total_cost: expected {1}{G}, observed {2}{G}"


def test_missing_object_counts_as_gone(suite):
    reply = {**GOOD_REPLY, "snapshots": {"1": {"objects": {}}}}
    [mismatch] = run(suite, FakeEngine(reply)).mismatches
    assert (mismatch.path, mismatch.observed) == ("objects.bears.zone", "gone")


@pytest.mark.parametrize("reply, words", [
    ([], "returned list"),
    ({"status": "ok", "steps": []}, "snapshots"),
    ({"status": "ok", "steps": [], "snapshots": {"1": {}}}, "0 step results for 1 steps"),
    ({"status": "ok", "steps": [{"legal": True}], "snapshots": {}}, "no snapshot after step(s) 1"),
    ({"status": "maybe"}, "status"),
])
def test_broken_contract_is_an_error(suite, reply, words):
    result = run(suite, FakeEngine(reply))
    assert result.status is Status.ERROR
    assert "contract" in result.message and words in result.message


def test_exception_is_an_error_with_its_text(suite):
    result = run(suite, FakeEngine(error=RuntimeError("boom")))
    assert result.status is Status.ERROR and "RuntimeError: boom" in result.message


def test_lanes_of_out_of_process_engines_leave_sys_stdout_alone(suite):
    """-j lanes are threads: were each case wrapped in a sys.stdout swap, two lanes swapping at
    once could leave sys.stdout on one case's buffer, and the run's own output would vanish."""
    import sys
    import threading

    from castrules.harness.parallel import Lanes

    real = sys.stdout
    both_inside = threading.Barrier(2, timeout=10)

    class Remote(FakeEngine):
        out_of_process = True

        def run(self, request):
            both_inside.wait()          # both lanes are inside run() at the same time
            assert sys.stdout is real   # nothing was swapped around the call
            return super().run(request)

    cases = [suite.cases[0], suite.cases[0]]
    results = list(Lanes(cases, [Remote(GOOD_REPLY), Remote(GOOD_REPLY)],
                         lambda engine, case: run_case(engine, case, suite.catalog)))
    assert [r.status for r in results] == [Status.PASS, Status.PASS]
    assert sys.stdout is real


def test_unsupported_when_a_feature_is_missing(suite):
    engine = FakeEngine(GOOD_REPLY)
    engine.features = frozenset({"prowl"})
    result = run(suite, engine)
    assert result.status is Status.UNSUPPORTED and "casting" in result.message and engine.requests == []


def test_skip_with_reason(suite):
    result = run(suite, FakeEngine({"status": "skipped", "reason": "no stack yet", "issue_url": "https://x.invalid/1"}))
    assert result.status is Status.SKIPPED and result.message == "no stack yet" and result.issue_url == "https://x.invalid/1"


def test_known_failure_and_strict_unexpected_pass(suite):
    listed = Expectations({"casting/fixture/bears": KnownFailure("fail", "cost off by one")})
    bad = {**GOOD_REPLY, "steps": [{"legal": True, "total_cost": "{2}{G}"}]}
    known = run(suite, FakeEngine(bad), listed)
    assert known.status is Status.KNOWN_FAILURE and known.raw_status is Status.FAIL
    assert not known.status.is_unexpected
    unexpected = run(suite, FakeEngine(GOOD_REPLY), listed)
    assert unexpected.status is Status.UNEXPECTED_PASS and unexpected.status.is_unexpected
    assert "remove it" in unexpected.message


def test_one_broken_case_does_not_stop_the_others(suite_builder):
    for n in range(3):
        suite_builder.case(f"cases/casting/c{n}.yaml", good_case(f"casting/fixture/c{n}"))
    suite = load_suite(suite_builder.root)

    class Flaky(FakeEngine):
        def run(self, request):
            if request["case"]["id"].endswith("c1"):
                raise ValueError("bad")
            return GOOD_REPLY

    statuses = [r.status for r in run_cases(Flaky(), suite.cases, suite.catalog)]
    assert statuses == [Status.PASS, Status.ERROR, Status.PASS]


def test_update_expectations_round_trip(suite, tmp_path):
    bad = {**GOOD_REPLY, "steps": [{"legal": False}]}
    results = run_cases(FakeEngine(bad), suite.cases, suite.catalog)
    document = updated(Expectations({}), results, "fake")
    assert list(document["cases"]) == ["casting/fixture/bears"]
    path = tmp_path / "expectations.yaml"
    from castrules.harness.expectations import write

    write(path, document)
    again = load_expectations(path)
    assert again.entries["casting/fixture/bears"].status == "fail"


def _containers(value, found):
    """Every dict and list inside ``value``, by identity."""
    if isinstance(value, (dict, list, tuple)):
        found.add(id(value))
        for item in (value.values() if isinstance(value, dict) else value):
            _containers(item, found)
    return found


def test_a_fresh_request_is_the_json_round_trip_and_shares_nothing_mutable():
    """The copy taken of plain requests (every case of the shipped suite) is exactly what the
    JSON round trip gives, and no map or list of it is the suite's; a request that is not plain
    JSON data (a tuple, a non-string key, another type) takes the round trip itself."""
    import json
    from castrules.harness.runner import fresh_request
    full = load_suite()
    for case in full.cases:
        original = case.request(full.catalog.subset(case.card_names()))
        fresh = fresh_request(case, full.catalog)
        assert fresh == json.loads(json.dumps(original, default=str)), case.id
        assert not _containers(fresh, set()) & _containers(original, set()), case.id

    class Odd(type(full.cases[0])):
        def request(self, cards):
            return {"case": {"a": (1, {2: Path("x")})}, "b": (1.5, None, True)}

    case = full.cases[0]
    odd = Odd(case.id, case.title, case.path, case.file, case.rules, case.features, case.doc)
    assert fresh_request(odd, full.catalog) == {"case": {"a": [1, {"2": "x"}]}, "b": [1.5, None, True]}
