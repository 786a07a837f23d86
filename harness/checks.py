"""Checks a schema cannot make: references between parts of a case and to the suite's data.

Every object or player a step or an expectation names must exist by then; every card must be
in the catalog; every rule, feature, ruling and reason must be in its vocabulary.

Each check is one small function of a `CaseCheck` (the case and the suite's data), run in the
order of `CHECKS`. What a step names is read from the model, not listed here: every step
field typed as an object, a player or either (`castrules.model.refs`) is checked, nested
values too, so a new step kind or field is checked as soon as the model has it. The case
checked is a `case_check.CaseCheck`; the checks that a case lists the features its steps' cards
ask for are in `feature_checks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

from castrules.harness.case_check import CaseCheck
from castrules.harness.catalog import Catalog
from castrules.harness.contract import unlisted
from castrules.harness.excerpts import quoted
from castrules.harness.feature_checks import FEATURE_CHECKS, OBJECT_KEYWORD_COSTS  # noqa: F401 (re-exported)
from castrules.harness.invented import check_invented
from castrules.harness.problems import Problem
from castrules.harness.vocabulary import Vocabulary
from castrules.model import STEP_FIELDS, STEP_TYPES, Cast, is_player
from castrules.model.refs import RefField, RefRole, ref_fields
from castrules.model.steps import Resolve

_DERIVED_ID = re.compile(r"^(?P<source>[a-z][a-z0-9_]*?)_(trigger|ability|token|copy)\d*$")  # abilities on the stack, tokens made by them, copies cast (707.12)
# setup object fields that describe a permanent's status (110.5), meaningless in any other zone
_BATTLEFIELD_ONLY = ("tapped", "summoning_sick", "damage", "transformed", "melded_with")
FACE_DOWN_EXILE = "face_down_exile"     # the feature of cards set up face down in exile (406.3, 601.3f)


def check_case(file: str, doc: Mapping[str, Any], catalog: Catalog, vocab: Vocabulary,
               invented: bool = True) -> list[Problem]:
    """Every problem of one case document. ``invented``: hold it to the invented_cards rule (the
    suite's cases; an engine project's own cases use its own cards, which it knows)."""
    case = CaseCheck(file, doc, catalog, vocab, invented)
    return [problem for check in CHECKS for problem in check(case)]


# ---- the vocabularies ----------------------------------------------------------------------------

def _rules(case: CaseCheck) -> Iterator[Problem]:
    rules = case.vocab.rules
    for i, rule in enumerate(case.doc["rules"]):
        if rules and rule not in rules:
            yield case.problem(f"/rules/{i}", f"rule {rule} is not in the rules index (schema/rules-index.json)", "unknown_rule")


def _features(case: CaseCheck) -> Iterator[Problem]:
    for i, feature in enumerate(case.doc["features"]):
        if feature not in case.vocab.features:
            yield case.problem(f"/features/{i}", f"feature {quoted(feature)} is not in the vocabulary (cases/features.yaml)",
                               "unknown_feature")


def _rulings(case: CaseCheck) -> Iterator[Problem]:
    for i, ruling in enumerate(case.doc.get("rulings", [])):
        known = case.vocab.rulings.get(ruling["ref"])
        if known is None:
            yield case.problem(f"/rulings/{i}/ref", f"ruling {quoted(ruling['ref'])} is not in cases/rulings.yaml", "unknown_ruling")
        elif str(known.get("seed")) != ruling["seed"]:
            yield case.problem(f"/rulings/{i}/seed", f"ruling {quoted(ruling['ref'])} comes from seed {known.get('seed')}, "
                                                    f"not {ruling['seed']}", "unknown_ruling")


# ---- the setup -----------------------------------------------------------------------------------

def _setup_objects(case: CaseCheck) -> Iterator[Problem]:
    seen: set[str] = set()
    for i, obj in enumerate(case.doc["setup"].get("objects", [])):
        base = f"/setup/objects/{i}"
        if obj["id"] in seen:
            yield case.problem(f"{base}/id", f"object id {quoted(obj['id'])} is set up twice", "duplicate_object")
        seen.add(obj["id"])
        for key in ("card", "melded_with"):
            if key in obj and obj[key] not in case.catalog:
                yield case.problem(f"{base}/{key}", f"card {quoted(obj[key])} is not in the catalog (cases/catalog/)", "unknown_card")
        for key in ("owner", "controller"):
            if key in obj and obj[key] not in case.players:
                yield case.problem(f"{base}/{key}", f"player {quoted(obj[key])} is not in /setup/players", "unknown_player")
        if obj["zone"] != "battlefield":
            for key in _BATTLEFIELD_ONLY:
                if key in obj:
                    yield case.problem(f"{base}/{key}", f"{quoted(key)} applies only to objects on the battlefield", "bad_state")
        yield from _face_down(case, base, obj)


def _face_down(case: CaseCheck, base: str, obj: Mapping[str, Any]) -> Iterator[Problem]:
    """A face-down card (406.3) is set up in exile only, `may_look` only for one, naming players;
    the case lists face_down_exile, so an engine without face-down exile gets it as unsupported."""
    if obj.get("face_down") and obj["zone"] != "exile":
        yield case.problem(f"{base}/face_down", "'face_down' applies only to cards in exile (406.3)", "bad_state")
    if obj.get("may_look") and not obj.get("face_down"):
        yield case.problem(f"{base}/may_look", "'may_look' applies only to a face-down card (406.3)", "bad_state")
    for i, who in enumerate(obj.get("may_look") or ()):
        if who not in case.players:
            yield case.problem(f"{base}/may_look/{i}", f"player {quoted(who)} is not in /setup/players", "unknown_player")
    if obj.get("face_down") and FACE_DOWN_EXILE not in case.doc["features"]:
        yield case.problem(f"{base}/face_down", f"a face-down exiled card needs feature {quoted(FACE_DOWN_EXILE)}, which "
                                                "the case does not list in /features", "unlisted_feature")


def _setup_turn_and_choices(case: CaseCheck) -> Iterator[Problem]:
    setup = case.doc["setup"]
    turn = setup.get("turn", {})
    if "active" in turn and turn["active"] not in case.players:
        yield case.problem("/setup/turn/active", f"player {quoted(turn['active'])} is not in /setup/players", "unknown_player")
    for oid in setup.get("choices", {}):
        if oid not in case.setup_ids:
            yield case.problem(f"/setup/choices/{oid}", f"object {quoted(oid)} is not set up in /setup/objects", "unknown_object")


# ---- the steps: every name a step uses exists by then ---------------------------------------------

def _steps(case: CaseCheck) -> Iterator[Problem]:
    known = case.setup_ids
    for n, step in enumerate(case.doc["steps"]):
        kind, body = next(iter(step.items()))
        base, model = f"/steps/{n}/{kind}", STEP_TYPES[kind]
        yield from _names(case, base, body or {}, model, known)
        instructed = (body.get("choices") or {}).get("cast") if model is Resolve and body else None
        if isinstance(instructed, Mapping):
            # a cast instructed by the resolving spell (608.2g): its choices name objects too
            yield from _names(case, base + "/choices/cast", instructed, Cast, known)
        for pointer, new_id, label in _made_by(base, body or {}, model):
            if new_id in known:
                yield case.problem(pointer, f"{label} {quoted(new_id)} is already an object id", "duplicate_object")
            known.add(new_id)


def _made_by(base: str, body: Mapping[str, Any], model: type) -> Iterator[tuple[str, str, str]]:
    """The ids of the objects a step makes, with their pointers and what to call them: known
    from the next step on (707.10d: each candidate's copy has its id, whether or not it is made)."""
    for field in ref_fields(model):
        if field.role is not RefRole.NEW_OBJECT or field.key not in body:
            continue
        value = body[field.key]
        if field.mapping:
            yield from ((f"{base}/{field.key}/{ref}", new_id, "new id") for ref, new_id in value.items())
        else:
            yield f"{base}/{field.key}", value, field.key


def _names(case: CaseCheck, base: str, body: Mapping[str, Any], model: type, known: set[str]) -> Iterator[Problem]:
    """Every name in `body` (a document of `model`) that no player or known object has."""
    for field in ref_fields(model):
        if field.key not in body or body[field.key] is None:
            continue
        where, value = f"{base}/{field.key}", body[field.key]
        if field.nested is not None:
            items = enumerate(value) if field.many else [(None, value)]
            for i, item in items:
                yield from _names(case, where if i is None else f"{where}/{i}", item, field.nested, known)
        else:
            yield from _field_names(case, where, value, field, known)


def _field_names(case: CaseCheck, where: str, value: Any, field: RefField, known: set[str]) -> Iterator[Problem]:
    if field.mapping:
        for ref, item in value.items():
            yield from _name(case, f"{where}/{ref}", ref, field.key_role, known)
            yield from _name(case, f"{where}/{ref}", item, field.role, known)
    elif field.many:
        for i, item in enumerate(value):
            yield from _name(case, f"{where}/{i}", item, field.role, known)
    else:
        yield from _name(case, where, value, field.role, known)


def _name(case: CaseCheck, pointer: str, ref: Any, role: RefRole | None, known: set[str]) -> Iterable[Problem]:
    """One name checked for its role. An object field names an object set up or made by a step,
    or a token made by a known object's effect (``dispute_token``, 111.1); a field naming either,
    or an ability (`copy_ability`'s object), also accepts an ability made by a known object
    (``bears_trigger``)."""
    if role is None or role is RefRole.NEW_OBJECT:
        return ()
    if role is RefRole.PLAYER or (role is RefRole.EITHER and is_player(ref)):
        bad = ref not in case.players
        return [case.problem(pointer, f"player {quoted(ref)} is not in /setup/players", "unknown_player")] if bad else []
    bad = not _is_known(ref, known, tokens_only=role is RefRole.OBJECT)
    return [case.problem(pointer, _unknown(ref), "unknown_object")] if bad else []


# ---- the expectations ----------------------------------------------------------------------------

def _expectations(case: CaseCheck) -> Iterator[Problem]:
    known = case.setup_ids
    for step in case.doc["steps"]:
        kind, body = next(iter(step.items()))
        known.update(new_id for _, new_id, _ in _made_by("", body or {}, STEP_TYPES[kind]))
    for e, expectation in enumerate(case.doc["expect"]):
        yield from _expectation_step(case, f"/expect/{e}", expectation)
        yield from _expectation_reason(case, f"/expect/{e}", expectation)
        yield from _expectation_names(case, f"/expect/{e}", expectation, known)


def _expectation_step(case: CaseCheck, base: str, expectation: Mapping[str, Any]) -> Iterator[Problem]:
    last = len(case.doc["steps"])
    after = expectation["after"]
    index = last if after == "final" else after
    if index > last:
        yield case.problem(f"{base}/after", f"step {after} does not exist: the case has {last} steps", "bad_step")
    step_fields = [k for k in STEP_FIELDS if k in expectation]
    if step_fields and index == 0:
        yield case.problem(f"{base}/after", f"{', '.join(step_fields)} describe a step, but 'after: {after}' names "
                                            "the setup", "bad_step")


def _expectation_reason(case: CaseCheck, base: str, expectation: Mapping[str, Any]) -> Iterator[Problem]:
    reason = expectation.get("reason")
    if reason is None:
        return
    entry = case.vocab.reasons.get(reason)
    if entry is None:
        yield case.problem(f"{base}/reason", f"reason {quoted(reason)} is not in schema/reasons.json", "unknown_reason")
    elif "substep" in expectation and entry["substeps"] and expectation["substep"] not in entry["substeps"]:
        yield case.problem(f"{base}/substep", f"reason {quoted(reason)} happens at {', '.join(entry['substeps'])}, "
                                              f"not {expectation['substep']}", "bad_substep")


def _expectation_names(case: CaseCheck, base: str, expectation: Mapping[str, Any], known: set[str]) -> Iterator[Problem]:
    for name in expectation.get("players", {}):
        if name not in case.players:
            yield case.problem(f"{base}/players/{name}", f"player {quoted(name)} is not in /setup/players", "unknown_player")
    for oid in expectation.get("objects", {}):
        if not _is_known(oid, known):
            yield case.problem(f"{base}/objects/{oid}", _unknown(oid), "unknown_object")
    for s, oid in enumerate(expectation.get("stack", [])):
        if not _is_known(oid, known):
            yield case.problem(f"{base}/stack/{s}", _unknown(oid), "unknown_object")


def _contract(case: CaseCheck) -> Iterator[Problem]:
    """An observation (or a behaviour) whose feature the case does not list (cases/observations.yaml):
    an engine that leaves that feature undeclared would get the case and fail it."""
    if case.vocab.contract is None:
        return
    for need in unlisted(case.doc, case.vocab.contract):
        yield case.problem(need.pointer, f"{need.what} needs feature {quoted(need.feature)}, which the case does not list "
                                         f"in /features (cases/observations.yaml)", "unlisted_feature")


def _invented(case: CaseCheck) -> Iterable[Problem]:
    """A case using an invented card lists invented_cards, and one listing it uses one."""
    return check_invented(case.file, case.doc, case.catalog) if case.invented else ()


def _is_known(oid: str, known: set[str], tokens_only: bool = False) -> bool:
    if oid in known:
        return True
    m = _DERIVED_ID.match(oid)
    return bool(m and m.group("source") in known and (not tokens_only or m.group(2) == "token"))


def _unknown(oid: str) -> str:
    return f"object {quoted(oid)} is not set up in /setup/objects nor made by an earlier step's new_id"


# the checks in the order their problems are reported
CHECKS: tuple[Callable[[CaseCheck], Iterable[Problem]], ...] = (
    _rules, _features, _rulings, _setup_objects, _setup_turn_and_choices, _steps, _expectations, _contract, _invented,
    *FEATURE_CHECKS)
