"""Automatic payment with thousands of sources gives the right answer (issue: faults, point 9).

No clock here: `castrules bench` prints how the time grows. These tests only make sure that a
large game is paid correctly, which also keeps it from being quadratic by accident (a
quadratic oracle would take minutes on them, not seconds).
"""

from __future__ import annotations

from castrules.oracle.engine import OracleEngine
from castrules.oracle.mana import ManaCost, ManaPool, bruteforce, solve
from castrules.benchmarks.bench_solver import mixed_cost, mixed_sources, oracle_request


def test_ten_thousand_forests_pay_x_ten_thousand():
    reply = OracleEngine().run(oracle_request(10_000, 10_000))
    [step] = reply["steps"]
    assert step["legal"] is True and step["total_cost"] == "{10000}"
    snapshot = reply["snapshots"]["1"]
    objects = snapshot["objects"]
    assert all(objects[f"f{i}"]["tapped"] for i in range(10_000))
    assert objects["endless"]["zone"] == "stack" and objects["endless"]["mana_value"] == 10_000
    assert snapshot["players"]["A"]["mana_pool"] == ""


def test_one_mana_short_of_thousands_is_illegal():
    [step] = OracleEngine().run(oracle_request(2_000, 2_001))["steps"]
    assert step["legal"] is False and step["reason"] == "insufficient_mana"


def test_the_solver_pays_ten_thousand_mixed_sources_exactly():
    sources = mixed_sources(10_000)
    pool = ManaPool.parse("{G}{U}")
    cost = mixed_cost(60) + ManaCost.parse("{9000}")
    payment = solve(cost, pool, sources, 20)
    assert payment is not None
    assert bruteforce.verify_payment(cost, pool, sources, payment, 20) == []
    units = sum(len(s.units) for s in sources) + 2
    assert solve(ManaCost.parse("{%d}" % (units + 1)), pool, sources, 20) is None
