"""Checks a schema cannot make: references between parts of a case and to the suite's data.

Every object or player a step or an expectation names must exist by then; every card must be
in the catalog; every rule, feature, ruling and reason must be in its vocabulary.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

from castrules.harness.catalog import Catalog
from castrules.model import is_player
from castrules.harness.contract import unlisted
from castrules.harness.invented import check_invented
from castrules.harness.problems import Problem
from castrules.harness.vocabulary import Vocabulary
from castrules.harness.excerpts import quoted

_DERIVED_ID = re.compile(r"^(?P<source>[a-z][a-z0-9_]*?)_(trigger|ability|token)\d*$")  # abilities on the stack, tokens made by them

# step kind -> fields naming objects, fields naming players, fields naming either
_OBJECT_FIELDS = ("object", "source", "permission", "of", "flash_cost")
_OBJECT_LISTS = ("attackers", "sacrifice", "reveal", "replacements")
_PLAYER_FIELDS = ("player", "defender", "controller")


def check_case(file: str, doc: Mapping[str, Any], catalog: Catalog, vocab: Vocabulary,
               invented: bool = True) -> list[Problem]:
    """Every problem of one case document. ``invented``: hold it to the invented_cards rule (the
    suite's cases; an engine project's own cases use its own cards, which it knows)."""
    return [*_check(file, doc, catalog, vocab), *_contract(file, doc, vocab),
            *(check_invented(file, doc, catalog) if invented else ())]


def _contract(file: str, doc: Mapping[str, Any], vocab: Vocabulary) -> Iterator[Problem]:
    """An observation (or a behaviour) whose feature the case does not list (cases/observations.yaml):
    an engine that leaves that feature undeclared would get the case and fail it."""
    if vocab.contract is None:
        return
    for need in unlisted(doc, vocab.contract):
        yield Problem(file, need.pointer, f"{need.what} needs feature {quoted(need.feature)}, which the case does not list "
                      f"in /features (cases/observations.yaml)", None, "unlisted_feature")


def _check(file: str, doc: Mapping[str, Any], catalog: Catalog, vocab: Vocabulary) -> Iterator[Problem]:
    def problem(pointer: str, message: str, code: str) -> Problem:
        return Problem(file, pointer, message, None, code)

    for i, rule in enumerate(doc["rules"]):
        if vocab.rules and rule not in vocab.rules:
            yield problem(f"/rules/{i}", f"rule {rule} is not in the rules index (schema/rules-index.json)", "unknown_rule")
    for i, feature in enumerate(doc["features"]):
        if feature not in vocab.features:
            yield problem(f"/features/{i}", f"feature {quoted(feature)} is not in the vocabulary (cases/features.yaml)", "unknown_feature")
    for i, ruling in enumerate(doc.get("rulings", [])):
        known = vocab.rulings.get(ruling["ref"])
        if known is None:
            yield problem(f"/rulings/{i}/ref", f"ruling {quoted(ruling['ref'])} is not in cases/rulings.yaml", "unknown_ruling")
        elif str(known.get("seed")) != ruling["seed"]:
            yield problem(f"/rulings/{i}/seed", f"ruling {quoted(ruling['ref'])} comes from seed {known.get('seed')}, not {ruling['seed']}", "unknown_ruling")

    setup = doc["setup"]
    players = list(setup["players"])
    objects: dict[str, str] = {}
    for i, obj in enumerate(setup.get("objects", [])):
        if obj["id"] in objects:
            yield problem(f"/setup/objects/{i}/id", f"object id {quoted(obj['id'])} is set up twice", "duplicate_object")
        objects[obj["id"]] = obj["card"]
        if obj["card"] not in catalog:
            yield problem(f"/setup/objects/{i}/card", f"card {quoted(obj['card'])} is not in the catalog (cases/catalog/)", "unknown_card")
        for key in ("owner", "controller"):
            if key in obj and obj[key] not in players:
                yield problem(f"/setup/objects/{i}/{key}", f"player {quoted(obj[key])} is not in /setup/players", "unknown_player")
        if "melded_with" in obj and obj["melded_with"] not in catalog:
            yield problem(f"/setup/objects/{i}/melded_with", f"card {quoted(obj['melded_with'])} is not in the catalog (cases/catalog/)", "unknown_card")
        if obj["zone"] != "battlefield":
            for key in ("tapped", "summoning_sick", "damage", "transformed", "melded_with"):
                if key in obj:
                    yield problem(f"/setup/objects/{i}/{key}", f"{quoted(key)} applies only to objects on the battlefield", "bad_state")
    turn = setup.get("turn", {})
    if "active" in turn and turn["active"] not in players:
        yield problem("/setup/turn/active", f"player {quoted(turn['active'])} is not in /setup/players", "unknown_player")
    for oid in setup.get("choices", {}):
        if oid not in objects:
            yield problem(f"/setup/choices/{oid}", f"object {quoted(oid)} is not set up in /setup/objects", "unknown_object")

    known = set(objects)
    for n, step in enumerate(doc["steps"]):
        kind, body = next(iter(step.items()))
        base = f"/steps/{n}/{kind}"
        yield from _refs(base, body, known, players, problem)
        if "new_id" in body:
            if body["new_id"] in known:
                yield problem(base + "/new_id", f"new_id {quoted(body['new_id'])} is already an object id", "duplicate_object")
            known.add(body["new_id"])
        for ref, new_id in body.get("new_ids", {}).items() if kind == "copy_spell_for_each" else ():
            # 707.10d: each candidate's copy gets its own id (known from here on, whether or not it is made)
            if new_id in known:
                yield problem(f"{base}/new_ids/{ref}", f"new id {quoted(new_id)} is already an object id", "duplicate_object")
            known.add(new_id)
        for m, activation in enumerate(body.get("mana_abilities", [])):
            if activation["object"] not in known:
                yield problem(f"{base}/mana_abilities/{m}/object", _unknown(activation["object"]), "unknown_object")
            for key in ("sacrifice", "replacements"):
                for i, oid in enumerate(activation.get(key, [])):
                    if oid not in known:
                        yield problem(f"{base}/mana_abilities/{m}/{key}/{i}", _unknown(oid), "unknown_object")
        for ref in body.get("division", {}) if kind == "cast" else ():
            # 601.2d: a division names targets; naming a non-target is a case for invalid_division,
            # but the name itself must exist
            if is_player(ref):
                if ref not in players:
                    yield problem(f"{base}/division/{ref}", f"player {quoted(ref)} is not in /setup/players", "unknown_player")
            elif not _is_known(ref, known):
                yield problem(f"{base}/division/{ref}", _unknown(ref), "unknown_object")
        for m, reduction in enumerate(body.get("reductions", [])):
            if reduction["source"] not in known:
                yield problem(f"{base}/reductions/{m}/source", _unknown(reduction["source"]), "unknown_object")
        instructed = (body.get("choices") or {}).get("cast") if kind == "resolve" else None
        if isinstance(instructed, Mapping):
            # a cast instructed by the resolving spell (608.2g): its choices name objects too
            yield from _refs(base + "/choices/cast", instructed, known, players, problem)
        if kind == "block":
            for blocker, attacker in body["blockers"].items():
                for oid in (blocker, attacker):
                    if oid not in known:
                        yield problem(f"{base}/blockers/{blocker}", _unknown(oid), "unknown_object")

    last = len(doc["steps"])
    for e, expectation in enumerate(doc["expect"]):
        after = expectation["after"]
        index = last if after == "final" else after
        if index > last:
            yield problem(f"/expect/{e}/after", f"step {after} does not exist: the case has {last} steps", "bad_step")
        step_fields = [k for k in ("legal", "reason", "substep", "total_cost", "life_paid") if k in expectation]
        if step_fields and index == 0:
            yield problem(f"/expect/{e}/after", f"{', '.join(step_fields)} describe a step, but 'after: {after}' names the setup", "bad_step")
        reason = expectation.get("reason")
        if reason is not None:
            entry = vocab.reasons.get(reason)
            if entry is None:
                yield problem(f"/expect/{e}/reason", f"reason {quoted(reason)} is not in schema/reasons.json", "unknown_reason")
            elif "substep" in expectation and entry["substeps"] and expectation["substep"] not in entry["substeps"]:
                yield problem(f"/expect/{e}/substep", f"reason {quoted(reason)} happens at {', '.join(entry['substeps'])}, not {expectation['substep']}", "bad_substep")
        for name in expectation.get("players", {}):
            if name not in players:
                yield problem(f"/expect/{e}/players/{name}", f"player {quoted(name)} is not in /setup/players", "unknown_player")
        for oid in expectation.get("objects", {}):
            if not _is_known(oid, known):
                yield problem(f"/expect/{e}/objects/{oid}", _unknown(oid), "unknown_object")
        for s, oid in enumerate(expectation.get("stack", [])):
            if not _is_known(oid, known):
                yield problem(f"/expect/{e}/stack/{s}", _unknown(oid), "unknown_object")


def _refs(base: str, body: Mapping[str, Any], known: set[str], players: list[str], problem) -> Iterator[Problem]:
    for key in _OBJECT_FIELDS:
        if key in body and body[key] not in known:
            yield problem(f"{base}/{key}", _unknown(body[key]), "unknown_object")
    for key in _OBJECT_LISTS:
        for i, oid in enumerate(body.get(key, [])):
            if oid not in known:
                yield problem(f"{base}/{key}/{i}", _unknown(oid), "unknown_object")
    for key in _PLAYER_FIELDS:
        if key in body and body[key] not in players:
            yield problem(f"{base}/{key}", f"player {quoted(body[key])} is not in /setup/players", "unknown_player")
    refs = [("to", body["to"])] if "to" in body else []
    refs += [(f"targets/{i}", t) for i, t in enumerate(body.get("targets", []))]
    refs += [("target", body["target"])] if "target" in body else []            # copy_spell (707.10e)
    refs += [(f"new_ids/{ref}", ref) for ref in body.get("new_ids", {})]       # copy_spell_for_each candidates (707.10d)
    for key, ref in refs:
        if is_player(ref):
            if ref not in players:
                yield problem(f"{base}/{key}", f"player {quoted(ref)} is not in /setup/players", "unknown_player")
        elif not _is_known(ref, known):
            yield problem(f"{base}/{key}", _unknown(ref), "unknown_object")


def _is_known(oid: str, known: set[str]) -> bool:
    if oid in known:
        return True
    m = _DERIVED_ID.match(oid)
    return bool(m and m.group("source") in known)


def _unknown(oid: str) -> str:
    return f"object {quoted(oid)} is not set up in /setup/objects nor made by an earlier step's new_id"
