"""Engines for measuring the harness itself: they do no rules work at all.

``ReplayEngine`` answers every case with exactly what its expectations ask for, so a run
with it costs only loading, requests, contract checks and comparison: the harness's own
overhead, which is what the speed targets are about.
"""

from __future__ import annotations

from typing import Any, Mapping

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
