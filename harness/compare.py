"""Partial comparison of a case's expectations with an engine's observations.

Only what a case expects is checked. Costs compare as multisets of symbols; colours and types
as sets; counters ignoring zero entries; everything else by equality. Why a step is illegal is
compared only as finely as the engine reports it (``reasons``: none, family, exact); ``legal`` is
always compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from castrules.harness.cases import STATE_FIELDS, STEP_FIELDS, after_index
from castrules.harness.contract import ReasonDetail
from castrules.harness.manatext import same_cost
from castrules.harness.results import MISSING, Mismatch

_SET_FIELDS = {"colors", "types", "subtypes", "supertypes"}
_COST_FIELDS = {"mana_cost", "total_cost", "mana_pool"}


def compare(expectations: list[Mapping[str, Any]], steps_count: int, observation: Mapping[str, Any],
            reasons: ReasonDetail = ReasonDetail.EXACT) -> list[Mismatch]:
    steps = observation.get("steps", [])
    snapshots = observation.get("snapshots", {})
    out: list[Mismatch] = []
    for expectation in expectations:
        index = after_index(expectation["after"], steps_count)
        where = "after the setup" if index == 0 else f"after step {index}"
        if any(k in expectation for k in STEP_FIELDS):
            step = steps[index - 1] if 0 < index <= len(steps) else {}
            for key in STEP_FIELDS:
                if key not in expectation or not compared(key, reasons):
                    continue
                if key == "reason" and reasons is ReasonDetail.FAMILY:
                    _check(out, where, "reason family", reason_family(expectation[key]),
                           reason_family(step.get(key)) if key in step else MISSING)
                else:
                    _check(out, where, key, expectation[key], step.get(key, MISSING))
        if any(k in expectation for k in STATE_FIELDS):
            snapshot = snapshots.get(str(index), {})
            _compare_state(out, where, expectation, snapshot)
    return out


def compared(key: str, reasons: ReasonDetail) -> bool:
    """Whether a step field is compared for an engine reporting reasons this finely."""
    if key == "reason":
        return reasons.compares(ReasonDetail.FAMILY)
    if key == "substep":
        return reasons is ReasonDetail.EXACT
    return True


def reason_family(code: object) -> str | None:
    """The family of a reason code (schema/reasons.json); an unknown code is its own family."""
    from castrules.harness.vocabulary import load
    entry = load().reasons.get(code) if isinstance(code, str) else None
    return entry.get("family", code) if entry else (code if isinstance(code, str) else None)


def _compare_state(out: list[Mismatch], where: str, expectation: Mapping, snapshot: Mapping) -> None:
    # a field's path is written only for a mismatch: a fuzz run compares ~1,000 fields per case
    players = snapshot.get("players", {})
    for name, fields in expectation.get("players", {}).items():
        observed = players.get(name, {})
        for key, value in fields.items():
            seen = observed.get(key, MISSING)
            if not same(key, value, seen):
                out.append(Mismatch(where, f"players.{name}.{key}", value, seen))
    objects = snapshot.get("objects", {})
    for oid, fields in expectation.get("objects", {}).items():
        observed = objects.get(oid)
        if observed is None:
            observed = {"zone": "gone"}  # an object the engine no longer knows has ceased to exist
        for key, value in fields.items():
            seen = observed.get(key, MISSING)
            if not same(key, value, seen):
                out.append(Mismatch(where, f"objects.{oid}.{key}", value, seen))
    if "stack" in expectation:
        _check(out, where, "stack", expectation["stack"], snapshot.get("stack", MISSING))


def _check(out: list[Mismatch], where: str, path: str, expected: Any, observed: Any) -> None:
    if not same(path.rsplit(".", 1)[-1], expected, observed):
        out.append(Mismatch(where, path, expected, observed))


def same(key: str, expected: Any, observed: Any) -> bool:
    if observed is MISSING:
        return False
    if type(expected) is type(observed) and expected == observed:
        # equal data of one type is the same under every rule below (the fast, common case: a
        # fuzz run compares a few hundred fields per generated case); a set field must be a list
        return key not in _SET_FIELDS or isinstance(observed, list)
    if key in _COST_FIELDS:
        if expected is None or observed is None:
            return expected is None and observed is None
        if key == "mana_pool":
            return same_cost(expected or "", observed or "")
        return same_cost(expected, observed)
    if key in _SET_FIELDS:
        return isinstance(observed, list) and sorted(map(str, expected)) == sorted(map(str, observed))
    if key == "counters":
        return isinstance(observed, Mapping) and _nonzero(expected) == _nonzero(observed)
    if isinstance(expected, bool) or isinstance(observed, bool):
        return type(expected) is type(observed) and expected == observed
    return expected == observed


def _nonzero(counters: Mapping) -> dict:
    return {k: v for k, v in counters.items() if v}
