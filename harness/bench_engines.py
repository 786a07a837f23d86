"""Engines for measuring the harness itself: they do no rules work at all.

``ReplayEngine`` answers every case with exactly what its expectations ask for, so a run
with it costs only loading, requests, contract checks and comparison: the harness's own
overhead, which is what the speed targets are about. ``OracleCopy`` and ``worker_cost`` price
the worker process that contains an in-process engine; ``measure_protocol`` a protocol engine.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from castrules.harness.cases import STATE_FIELDS, STEP_FIELDS, after_index
from castrules.harness.suite import shared_suite


class ReplayEngine:
    name, version = "castrules-replay", "1"

    def __init__(self) -> None:
        suite = shared_suite()
        self.features = frozenset(suite.vocabulary.features)
        self._replies = {case.id: replay(case) for case in suite.cases}

    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        return self._replies[request["case"]["id"]]


def replay(case) -> dict:
    steps = [{"legal": True} for _ in case.steps]
    snapshots: dict[str, dict] = {str(n): {"players": {}, "objects": {}, "stack": []} for n in case.observe_points()}
    last = len(case.steps)
    for expectation in case.expectations:
        index = after_index(expectation["after"], last)
        if index > 0:
            steps[index - 1].update({k: expectation[k] for k in STEP_FIELDS if k in expectation})
        if any(k in expectation for k in STATE_FIELDS):
            snap = snapshots[str(index)]
            for name, fields in expectation.get("players", {}).items():
                snap["players"].setdefault(name, {}).update(fields)
            for oid, fields in expectation.get("objects", {}).items():
                snap["objects"].setdefault(oid, {}).update(fields)
            if "stack" in expectation:
                snap["stack"] = list(expectation["stack"])
    return {"status": "ok", "steps": steps, "snapshots": snapshots}


class OracleCopy:
    """The oracle behind the face of an engine like any other (not castrules' own, not the
    reference): what ``castrules run`` puts in a worker process by default, so bench can
    price that worker against running the same engine in process."""

    name, version = "castrules-oracle-copy", "1"

    def __init__(self) -> None:
        from castrules.harness.engine import load_engine

        self._oracle = load_engine("oracle")
        self.features = frozenset(self._oracle.features)
        self.reasons = getattr(self._oracle, "reasons", "exact")

    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        return self._oracle.run(request)


COPY_SPEC = "py:castrules.harness.bench_engines:OracleCopy"


def worker_cost(measure: Callable[[Any], float], cases: int) -> dict:
    """The worker process's cost for an in-process engine (the default since workers contain
    them): the same engine (``OracleCopy``) run by ``measure`` in its worker and in process
    (``--in-process``); the worker's start-up (a Python start and the handshake) apart."""
    from castrules.harness.engine import close, load_engine
    from castrules.harness.engine_spec import parse_engine_spec
    from castrules.harness.worker_engine import worker_engine

    spec = parse_engine_spec(COPY_SPEC)
    inside = load_engine(spec)
    try:
        in_process = measure(inside)
    finally:
        close(inside)
    started = time.perf_counter()
    worker = worker_engine(spec, timeout=30)
    startup = time.perf_counter() - started
    try:
        in_worker = measure(worker)
    finally:
        close(worker)
    return {"engine": COPY_SPEC, "cases": cases, "startup_s": startup,
            "in_process_cases_per_s": cases / in_process, "worker_cases_per_s": cases / in_worker,
            "ratio": in_process / in_worker}


def measure_protocol(command: list[str], cases: int, isolate: bool, timed: Callable[[Any], list[float]]) -> dict:
    """Cases per second of the protocol engine ``command`` starts, from ``timed``'s pass times on it
    (bench's ``passes``). A persistent one is measured as the in-process figure is: a first pass
    (its caches empty, as in one run), then the best of the passes after it, both kept; with
    ``isolate`` (a process per case) every pass is a first one. An engine that cannot start is
    the figure's error, not the bench's end."""
    import shlex

    from castrules.harness.engine import close, load_engine

    try:
        engine = load_engine(shlex.join(command), timeout=30, isolate=isolate)
    except Exception as exc:  # the protocol route is optional in a bench: say why it is missing
        return {"error": f"{type(exc).__name__}: {exc}"}
    try:
        times = timed(engine)
    finally:
        close(engine)
    seconds = min(times[1:] or times)
    return {"cases": cases, "seconds": seconds, "cases_per_s": cases / seconds, "first_pass_cases_per_s": cases / times[0]}
