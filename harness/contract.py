"""The contract between features and observations (cases/observations.yaml).

Every observation field belongs to a feature (or is core: every engine reports it), and two
conditions belong to behaviours: the state after an illegal step to ``illegal_rewind``, a step
that leaves the payment to the engine to ``auto_payment``. A case may expect a field only if it
lists the field's feature, so an engine that leaves a feature undeclared never fails a case on
that feature's observations; ``castrules validate`` checks it with :func:`unlisted`. The same
holds for what a case asks an engine to do: a cast step's choices (``inputs``: its X, targets,
Phyrexian payments, delve...) and the alternative cost it names each belong to a feature.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Iterator

from castrules.harness import paths
from castrules.harness.cases import STATE_FIELDS, STEP_FIELDS, after_index
from castrules.harness.excerpts import quoted
from castrules.model import STEP_TYPES
from castrules.model.step_base import Paying, pays_automatically

CORE = "core"
# the step kinds whose costs are paid (with listed mana abilities, or by the engine)
PAYING_STEPS = tuple(kind for kind, step in STEP_TYPES.items() if issubclass(step, Paying))


class ReasonDetail(enum.Enum):
    """How finely an engine reports why a step is illegal; ``legal`` is always compared."""

    NONE = "none"        # only legal / illegal
    FAMILY = "family"    # the reason's family (schema/reasons.json), no sub-step
    EXACT = "exact"      # the exact reason code and the 601.2 sub-step

    @property
    def rank(self) -> int:
        return ("none", "family", "exact").index(self.value)

    def compares(self, needed: "ReasonDetail") -> bool:
        return self.rank >= needed.rank

    def describe(self) -> str:
        """What comparison checks of an illegal step, for reports."""
        return {"none": "legal only (no reasons or sub-steps compared)",
                "family": "legal and the reason's family (no exact codes or sub-steps compared)",
                "exact": "legal, the exact reason code and the sub-step"}[self.value]

    @classmethod
    def parse(cls, value: object) -> "ReasonDetail":
        """An engine's declaration; absent means exact (what engines have always been held to)."""
        if value is None:
            return cls.EXACT
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value))
        except ValueError:
            raise ValueError(f"reason detail {quoted(value)} is not one of none, family, exact") from None


@dataclass(frozen=True)
class Owner:
    """Who an observation field belongs to: a feature, the core, or a level of reason detail."""

    feature: str | None = None          # None: core, or a reason field
    reasons: ReasonDetail | None = None

    @classmethod
    def parse(cls, value: object) -> "Owner":
        if isinstance(value, Mapping) and "reasons" in value:
            return cls(reasons=ReasonDetail(str(value["reasons"])))
        return cls() if value == CORE else cls(feature=str(value))


@dataclass(frozen=True)
class Contract:
    step: Mapping[str, Owner]
    player: Mapping[str, Owner]
    object: Mapping[str, Owner]
    snapshot: Mapping[str, Owner]
    conditions: Mapping[str, str]       # condition -> feature
    inputs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)   # step kind -> field -> feature
    alternative_costs: Mapping[str, str] = field(default_factory=dict)      # a cast's alternative cost -> feature

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> "Contract":
        def part(name: str) -> dict[str, Owner]:
            return {str(k): Owner.parse(v) for k, v in (doc.get(name) or {}).items()}

        def names(value: Any) -> dict[str, str]:
            return {str(k): str(v) for k, v in (value or {}).items()}
        inputs = dict(doc.get("inputs") or {})
        alternative = names(inputs.pop("alternative_cost", None))
        return cls(part("step"), part("player"), part("object"), part("snapshot"), names(doc.get("conditions")),
                   {str(kind): names(fields) for kind, fields in inputs.items()}, alternative)

    def features(self) -> set[str]:
        """Every feature the contract names (each must be in cases/features.yaml)."""
        owners = [*self.step.values(), *self.player.values(), *self.object.values(), *self.snapshot.values()]
        chosen = {f for fields in self.inputs.values() for f in fields.values()} | set(self.alternative_costs.values())
        return {o.feature for o in owners if o.feature} | set(self.conditions.values()) | chosen

    def fields_of(self, feature: str) -> list[str]:
        """The observation fields a feature owns, as ``step.total_cost``, ``object.colors``."""
        parts = {"step": self.step, "player": self.player, "object": self.object, "snapshot": self.snapshot}
        return [f"{p}.{k}" for p, fields in parts.items() for k, o in fields.items() if o.feature == feature]

    @property
    def rewind_feature(self) -> str:
        return self.conditions.get("after_illegal_step", "illegal_rewind")

    @property
    def auto_payment_feature(self) -> str:
        return self.conditions.get("implicit_payment", "auto_payment")


@cache
def load_contract(root: Path | None = None) -> Contract:
    from castrules.harness.documents import load_document
    path = (root or paths.suite_root()) / "cases" / "observations.yaml"
    return Contract.from_document(load_document(path) or {})


@dataclass(frozen=True)
class Need:
    """One place where a case needs a feature: the JSON pointer, what is there, the feature."""

    pointer: str
    what: str
    feature: str


def needs(doc: Mapping[str, Any], contract: Contract) -> Iterator[Need]:
    """Every feature a case's expectations and steps need, with the place that needs it."""
    yield from _field_needs(doc, contract)
    yield from _input_needs(doc, contract)
    yield from _rewind_needs(doc, contract)
    for pointer in implicit_payments(doc):
        yield Need(pointer, "a payment the engine must find itself", contract.auto_payment_feature)


def unlisted(doc: Mapping[str, Any], contract: Contract) -> Iterator[Need]:
    """The needs of a case whose feature it does not list."""
    listed = set(doc.get("features", ()))
    return (n for n in needs(doc, contract) if n.feature not in listed)


def _field_needs(doc: Mapping[str, Any], contract: Contract) -> Iterator[Need]:
    for e, expectation in enumerate(doc.get("expect", ())):
        base = f"/expect/{e}"
        for key in STEP_FIELDS:
            owner = contract.step.get(key)
            if key in expectation and owner and owner.feature:
                yield Need(f"{base}/{key}", f"the step's {key}", owner.feature)
        for name, fields in (expectation.get("players") or {}).items():
            for key in fields:
                owner = contract.player.get(key)
                if owner and owner.feature:
                    yield Need(f"{base}/players/{name}/{key}", f"player {name}'s {key}", owner.feature)
        for oid, fields in (expectation.get("objects") or {}).items():
            for key in fields:
                owner = contract.object.get(key)
                if owner and owner.feature:
                    yield Need(f"{base}/objects/{oid}/{key}", f"object {oid}'s {key}", owner.feature)
        owner = contract.snapshot.get("stack")
        if "stack" in expectation and owner and owner.feature:
            yield Need(f"{base}/stack", "the stack", owner.feature)


def _chosen(value: Any) -> bool:
    """A step field that asks something of the engine (``x: 0`` does; ``prototype: false`` and
    an empty list do not)."""
    return value is not None and value is not False and value != [] and value != {}


def _input_needs(doc: Mapping[str, Any], contract: Contract) -> Iterator[Need]:
    for n, step in enumerate(doc.get("steps", ())):
        kind, body = next(iter(step.items()))
        if not isinstance(body, Mapping):
            continue
        for key, feature in contract.inputs.get(kind, {}).items():
            if _chosen(body.get(key)):
                yield Need(f"/steps/{n}/{kind}/{key}", f"the {kind}'s {key}", feature)
        if kind != "cast":
            continue
        alternative = body.get("alternative_cost")
        for a, name in enumerate(alternative if isinstance(alternative, list) else [alternative]):
            feature = contract.alternative_costs.get(str(name))
            if feature:
                where = f"/steps/{n}/cast/alternative_cost" + (f"/{a}" if isinstance(alternative, list) else "")
                yield Need(where, f"the alternative cost {quoted(name)}", feature)


def first_expected_illegal(doc: Mapping[str, Any]) -> int | None:
    """The first step the case expects to be illegal (1-based), if any."""
    last = len(doc.get("steps", ()))
    found = [after_index(e["after"], last) for e in doc.get("expect", ()) if e.get("legal") is False]
    return min(found) if found else None


def _rewind_needs(doc: Mapping[str, Any], contract: Contract) -> Iterator[Need]:
    illegal = first_expected_illegal(doc)
    if illegal is None:
        return
    last = len(doc.get("steps", ()))
    for e, expectation in enumerate(doc.get("expect", ())):
        index = after_index(expectation["after"], last)
        state = index >= illegal and any(k in expectation for k in STATE_FIELDS)
        later = index > illegal and any(k in expectation for k in STEP_FIELDS)
        if state or later:
            yield Need(f"/expect/{e}", f"{'the state' if state else 'a step result'} after illegal step {illegal}",
                       contract.rewind_feature)


def implicit_payments(doc: Mapping[str, Any]) -> Iterator[str]:
    """Pointers to the steps that leave finding the payment to the engine."""
    for n, step in enumerate(doc.get("steps", ())):
        kind, body = next(iter(step.items()))
        if kind == "pay_mana_cost":
            yield f"/steps/{n}/{kind}"
        elif (kind in PAYING_STEPS and isinstance(body, Mapping)
              and pays_automatically(body.get("pay"), "mana_abilities" in body)):
            yield f"/steps/{n}/{kind}"
