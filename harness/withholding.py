"""Withholding engines: an engine made to leave features undeclared and withhold what they own.

``Withholding(engine, {"mana_value"})`` declares every feature of ``engine`` but those, and
removes from its replies every observation the contract (cases/observations.yaml) gives to
them. For the two behaviours it also spoils what cannot be trusted without them, as an engine
lacking them would: without ``illegal_rewind`` everything after the first illegal step (the
state from that step on, the results of later steps, their ``legal`` inverted since ``legal``
is always reported); without ``auto_payment`` everything from the first step that leaves the
payment to the engine. ``reasons`` coarsens why steps are illegal to what an engine reporting
only families (or nothing) would say.

The suite keeps its promise to honest engines when the oracle, withholding any feature, fails
no case (the project's tests check it), and an engine declaring a subset gets no failure the
oracle would not also get on the same observations.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable, Mapping

from castrules.harness.contract import Contract, ReasonDetail, implicit_payments, load_contract


class Withholding:
    """``engine`` with ``withheld`` features undeclared and their observations withheld."""

    def __init__(self, engine: Any, withheld: Iterable[str], reasons: ReasonDetail | str = ReasonDetail.EXACT,
                 contract: Contract | None = None) -> None:
        self.inner = engine
        self.withheld = frozenset(withheld)
        self.reasons = ReasonDetail.parse(reasons).value
        self.contract = contract or load_contract()
        self.features = frozenset(engine.features) - self.withheld
        self.name = f"{engine.name}-without-{'-'.join(sorted(self.withheld)) or 'nothing'}"
        self.version = engine.version

    def run(self, request: Mapping[str, Any]) -> dict:
        reply = copy.deepcopy(dict(self.inner.run(request)))
        if reply.get("status") != "ok":
            return reply
        return withhold(reply, request, self.withheld, ReasonDetail(self.reasons), self.contract)


def withhold(reply: dict, request: Mapping[str, Any], withheld: frozenset[str], reasons: ReasonDetail,
             contract: Contract) -> dict:
    """The reply an engine lacking ``withheld`` (and reporting reasons as ``reasons``) could give."""
    for step in reply["steps"]:
        _coarsen(step, reasons)
        for key, owner in contract.step.items():
            if owner.feature in withheld:
                step.pop(key, None)
    for snapshot in reply["snapshots"].values():
        _withhold_snapshot(snapshot, withheld, contract)
    spoiled = _untrusted_from(reply, request, withheld, contract)
    if spoiled is not None:
        _spoil(reply, *spoiled)
    return reply


def _coarsen(step: dict, reasons: ReasonDetail) -> None:
    if reasons is not ReasonDetail.EXACT:
        step.pop("substep", None)
    if reasons is ReasonDetail.NONE:
        step.pop("reason", None)
    elif reasons is ReasonDetail.FAMILY and "reason" in step:
        step["reason"] = family_representative(step["reason"])


def family_representative(code: str) -> str:
    """The first code of ``code``'s family: what a coarse engine might report instead."""
    from castrules.harness.vocabulary import load
    reasons = load().reasons
    family = reasons.get(code, {}).get("family")
    return next((c for c, entry in reasons.items() if entry.get("family") == family), code) if family else code


def _withhold_snapshot(snapshot: dict, withheld: frozenset[str], contract: Contract) -> None:
    for fields in (snapshot.get("players") or {}).values():
        for key, owner in contract.player.items():
            if owner.feature in withheld:
                fields.pop(key, None)
    for fields in (snapshot.get("objects") or {}).values():
        for key, owner in contract.object.items():
            if owner.feature in withheld:
                fields.pop(key, None)
    owner = contract.snapshot.get("stack")
    if owner and owner.feature in withheld:
        snapshot.pop("stack", None)


def _untrusted_from(reply: dict, request: Mapping[str, Any], withheld: frozenset[str],
                    contract: Contract) -> tuple[int, bool] | None:
    """(step, that step included) from which nothing can be trusted, if anything."""
    found: list[tuple[int, bool]] = []
    if contract.rewind_feature in withheld:
        illegal = next((n for n, s in enumerate(reply["steps"], start=1) if not s.get("legal")), None)
        if illegal is not None:
            found.append((illegal, False))
    if contract.auto_payment_feature in withheld:
        first = next(iter(implicit_payments(request["case"])), None)
        if first is not None:
            found.append((int(first.split("/")[2]) + 1, True))
    return min(found) if found else None


def _spoil(reply: dict, step: int, including: bool) -> None:
    """Make every step result after ``step`` (and ``step`` itself when ``including``) and every
    snapshot from ``step`` on untrustworthy: legal inverted, everything else dropped."""
    first = step if including else step + 1
    for n, result in enumerate(reply["steps"], start=1):
        if n >= first:
            reply["steps"][n - 1] = {"legal": not result.get("legal")}
    for key in list(reply["snapshots"]):
        if int(key) >= step:
            reply["snapshots"][key] = {"players": {}, "objects": {}, "stack": ["<withheld>"]}
