"""Checks a schema cannot make: references between parts of a case and to the suite's data.

Every object or player a step or an expectation names must exist by then; every card must be
in the catalog; every rule, feature, ruling and reason must be in its vocabulary.

Each check is one small function of a `CaseCheck` (the case and the suite's data), run in the
order of `CHECKS`. What a step names is read from the model, not listed here: every step
field typed as an object, a player or either (`castrules.model.refs`) is checked, nested
values too, so a new step kind or field is checked as soon as the model has it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from castrules.harness.catalog import Catalog
from castrules.harness.contract import unlisted
from castrules.harness.excerpts import quoted
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


@dataclass(frozen=True)
class CaseCheck:
    """One case document and what its names are checked against."""

    file: str
    doc: Mapping[str, Any]
    catalog: Catalog
    vocab: Vocabulary
    invented: bool = True   # held to the invented_cards rule (the suite's cases, not a project's own)

    def problem(self, pointer: str, message: str, code: str) -> Problem:
        return Problem(self.file, pointer, message, None, code)

    @property
    def players(self) -> list[str]:
        return list(self.doc["setup"]["players"])

    @property
    def setup_ids(self) -> set[str]:
        return {obj["id"] for obj in self.doc["setup"].get("objects", [])}


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
    or a token made by a known object's effect (``dispute_token``, 111.1); a field naming either
    also accepts an ability made by a known object (``bears_trigger``)."""
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


OBJECT_KEYWORD_COSTS = "keyword_object_costs"


def _casts(case: CaseCheck) -> Iterator[tuple[int, Mapping[str, Any], Mapping[str, Any], list]]:
    """Each cast step with its index, its body, the catalog entry of the card it casts ({} when
    unknown) and its alternative costs as a list: what the feature checks below look at."""
    cards = {obj["id"]: obj.get("card") for obj in case.doc["setup"].get("objects", [])}
    for n, step in enumerate(case.doc["steps"]):
        body = step.get("cast")
        if not isinstance(body, Mapping):
            continue
        alt = body.get("alternative_cost")
        card = case.catalog.cards.get(cards.get(body.get("object")) or "") or {}
        yield n, body, card, [alt] if isinstance(alt, str) else list(alt or [])


def _object_keyword_costs(case: CaseCheck) -> Iterator[Problem]:
    """A cast paying an entwine or escalate cost that is not mana (Solar Tide's lands, Collective
    Brutality's discards) lists keyword_object_costs: an engine with mana entwine and escalate
    only leaves it undeclared and gets the case as unsupported, never as a false failure."""
    if OBJECT_KEYWORD_COSTS in case.doc["features"]:
        return
    for n, body, card, _ in _casts(case):
        if ((body.get("entwine") and isinstance(card.get("entwine"), Mapping))
                or (len(body.get("modes") or ()) > 1 and isinstance(card.get("escalate"), Mapping))):
            yield case.problem(f"/steps/{n}/cast", f"the cast pays {card['name']}'s entwine or escalate cost, which is "
                                                   f"paid with objects: the case must list feature "
                                                   f"{quoted(OBJECT_KEYWORD_COSTS)} in /features", "unlisted_feature")


def _emerge_from(case: CaseCheck) -> Iterator[Problem]:
    """A cast for the emerge cost of a card whose emerge names a quality (702.119b, Crabomination)
    lists emerge_from: an engine with plain emerge only gets the case as unsupported."""
    if "emerge_from" in case.doc["features"]:
        return
    for n, _, card, alternatives in _casts(case):
        if "emerge" in alternatives and any(
                isinstance(a, Mapping) and "emerge_from" in a for a in card.get("alternative_costs") or ()):
            yield case.problem(f"/steps/{n}/cast", f"the cast pays {card['name']}'s emerge from a quality: the case "
                                                   "must list feature 'emerge_from' in /features", "unlisted_feature")


def _granted_flashback(case: CaseCheck) -> Iterator[Problem]:
    """A flashback cast of a card with no flashback of its own, in a case where another object's
    effect may give it (Snapcaster Mage, Past in Flames, 702.34a), lists granted_flashback: an
    engine with printed flashback only gets the case as unsupported. With no such object the cast
    only announces a cost the card lacks, which printed flashback alone answers."""
    if "granted_flashback" in case.doc["features"] or not any(
            "grant_flashback" in json.dumps(case.catalog.cards.get(obj.get("card") or "") or {})
            for obj in case.doc["setup"].get("objects", [])):
        return
    for n, _, card, alternatives in _casts(case):
        if card and "flashback" in alternatives and "flashback" not in card:
            yield case.problem(f"/steps/{n}/cast", f"the cast pays a flashback cost {card['name']} has only if another "
                                                   "object gives it: the case must list feature 'granted_flashback' "
                                                   "in /features", "unlisted_feature")


def _copy_chains(case: CaseCheck) -> Iterator[Problem]:
    """A resolve step choosing more than one permanent to copy (a copy of a permanent with an
    enters-as-copy ability of its own copying again, 707.5, 614.12) lists copy_chains: an engine
    whose permanents copy once only gets the case as unsupported."""
    if "copy_chains" in case.doc["features"]:
        return
    for n, step in enumerate(case.doc["steps"]):
        chosen = ((step.get("resolve") or {}).get("choices") or {}).get("copy")
        if isinstance(chosen, list) and len(chosen) > 1:
            yield case.problem(f"/steps/{n}/resolve/choices/copy", "the entering permanent copies more than once: the "
                                                                   "case must list feature 'copy_chains' in /features",
                               "unlisted_feature")


_MANA_SYMBOL = re.compile(r"\{(?![TQ0]\})[^{}]+\}")   # a mana symbol other than {T}, {Q} and {0}


def _activation_costs(case: CaseCheck) -> Iterator[tuple[int, Mapping[str, Any], bool, bool]]:
    """Each `activate` step of an ability printed on the catalog card of a set-up object, with
    whether its cost asks for mana and whether it sacrifices a permanent (602.2b: the costs are
    paid as a spell's are, 601.2g-h). An ability the object only gains, or an object a step makes,
    is not looked at."""
    cards = {obj["id"]: obj.get("card") for obj in case.doc["setup"].get("objects", [])}
    for n, step in enumerate(case.doc["steps"]):
        body = step.get("activate")
        if not isinstance(body, Mapping):
            continue
        card = case.catalog.cards.get(cards.get(body.get("object")) or "") or {}
        own = [a for a in card.get("abilities") or () if isinstance(a, Mapping) and a.get("kind") == "activated"]
        index = body.get("ability", 0)
        if not isinstance(index, int) or not 0 <= index < len(own):
            continue
        cost = own[index].get("cost")
        if isinstance(cost, str):
            yield n, body, bool(_MANA_SYMBOL.search(cost)), False
        elif isinstance(cost, Mapping):
            yield (n, body, bool(_MANA_SYMBOL.search(str(cost.get("mana") or ""))),
                   bool(cost.get("sacrifice_self") or cost.get("sacrifice")))


def _activation_features(case: CaseCheck) -> Iterator[Problem]:
    """An activation whose cost asks for mana lists payment, and one whose cost sacrifices a
    permanent lists zone_change: an `activate` step needs no casting feature that would cover
    them, so without these an engine declaring neither would get the case and fail it."""
    features = set(case.doc["features"])
    for n, body, mana, sacrifice in _activation_costs(case):
        for needed, feature, what in ((mana, "payment", "asks for mana"), (sacrifice, "zone_change",
                                                                             "sacrifices a permanent")):
            if needed and feature not in features:
                yield case.problem(f"/steps/{n}/activate", f"the activated ability of {quoted(body.get('object'))} "
                                                            f"{what}: the case must list feature {quoted(feature)} in "
                                                            "/features", "unlisted_feature")


def _mode_chooser(case: CaseCheck) -> Iterator[Problem]:
    """A cast of a card whose modes an opponent chooses (601.6: Misfortune) names that opponent
    (`mode_chooser`, the caster's pick among several, 601.6a): a cast without one would read as
    the caster choosing, which an engine could only guess at."""
    for n, body, card, _ in _casts(case):
        if (card.get("modes") or {}).get("chooser") == "opponent" and "mode_chooser" not in body:
            yield case.problem(f"/steps/{n}/cast", f"{card['name']}'s mode is chosen by an opponent of the caster: "
                                                   "the cast must name them in mode_chooser (601.6, 601.6a)",
                               "missing_mode_chooser")


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
    _object_keyword_costs, _emerge_from, _granted_flashback, _copy_chains, _activation_features, _mode_chooser)
