"""pay: auto's activations made into one new state (oracle.payment._activate_at_once) answer
exactly what activating them one at a time answers: every reply, trace notes included, of each
suite case that pays automatically, and of the Forests of the payment benchmark."""
from __future__ import annotations

import json

import pytest

from castrules.benchmarks.bench_solver import oracle_request
from castrules.harness.runner import fresh_request
from castrules.harness.suite import shared_suite
from castrules.oracle import payment
from castrules.oracle.engine import OracleEngine


def _auto_requests() -> list[dict]:
    suite = shared_suite()
    out = [fresh_request(case, suite.catalog) for case in suite.cases]
    out = [r for r in out if '"auto"' in json.dumps(r["case"]["steps"])]
    return out + [oracle_request(40, 39), oracle_request(600, 600)]


def test_at_once_answers_as_one_at_a_time(monkeypatch: pytest.MonkeyPatch):
    requests = _auto_requests()
    engine = OracleEngine()
    batched = 0
    real = payment._activate_at_once

    def counted(*args, **kwargs):
        nonlocal batched
        batched += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(payment, "_activate_at_once", counted)
    at_once = [json.dumps(engine.run(r), sort_keys=True) for r in requests]
    monkeypatch.setattr(payment, "_at_once", lambda state, keys: False)
    one_by_one = [json.dumps(engine.run(r), sort_keys=True) for r in requests]
    assert len(requests) > 20 and batched > 20           # the comparison reached the batched path
    for request, a, b in zip(requests, at_once, one_by_one):
        assert a == b, request["case"]["id"]
