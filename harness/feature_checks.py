"""The checks that a case lists the features its steps need because of the card they use, beyond
what a step's fields ask for (the contract's inputs): an entwine or escalate cost paid with
objects, emerge from a quality, flashback another object gave, a chain of copies, a copy effect
with a linked trigger, an activation's mana or sacrifice, a spell whose mode an opponent chooses,
a card borrowing abilities or changing activation costs. Each is one small function of a
`CaseCheck`; `FEATURE_CHECKS` lists them in the order `castrules.harness.checks` runs them."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

from castrules.harness.case_check import CaseCheck
from castrules.harness.excerpts import quoted
from castrules.harness.problems import Problem

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


def _copy_linked_triggers(case: CaseCheck) -> Iterator[Problem]:
    """A case with a card whose copy effect has a linked trigger (Superior Spider-Man, 603.11,
    707.9g) lists copy_linked_triggers: an engine without it gets the case as unsupported."""
    if "copy_linked_triggers" in case.doc["features"]:
        return
    for n, obj in enumerate(case.doc["setup"].get("objects", [])):
        card = case.catalog.cards.get(obj.get("card") or "") or {}
        if any(isinstance(a, Mapping) and a.get("exile_copied") for a in card.get("abilities") or ()):
            yield case.problem(f"/setup/objects/{n}", f"{card['name']}'s copy effect has a linked trigger: the case "
                                                      "must list feature 'copy_linked_triggers' in /features",
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


# a spelled-out static ability of a card set up in a case -> the feature the case must list
STATIC_FEATURES = {"abilities_of": "borrowed_abilities", "activation_any_color": "activation_any_colour",
                   "activation_cost_increase": "activation_cost_increase",
                   "activation_cost_reduction": "activation_cost_reduction"}


def _static_features(case: CaseCheck) -> Iterator[Problem]:
    """A case with a card whose static ability borrows other permanents' abilities (Manascape
    Refractor) or changes activation costs (Suppression Field; 602.1e, 602.2b) lists the feature:
    an engine without it gets the case as unsupported, never a false failure."""
    features = set(case.doc["features"])
    for i, obj in enumerate(case.doc["setup"].get("objects", [])):
        card = case.catalog.cards.get(obj.get("card") or "") or {}
        for ab in card.get("abilities") or ():
            for key, feature in STATIC_FEATURES.items():
                if isinstance(ab, Mapping) and ab.get("kind") == "static" and key in ab and feature not in features:
                    yield case.problem(f"/setup/objects/{i}/card", f"{card['name']}'s static ability {quoted(key)} needs "
                                                                   f"feature {quoted(feature)}, which the case does not "
                                                                   "list in /features", "unlisted_feature")


def _auras(case: CaseCheck) -> Iterator[Problem]:
    """A cast of an Aura (a card with `enchant`) lists auras, and of an Aura whose static ability
    makes what it enchants a copy (Metamorphic Alteration, 707.2c) lists aura_copy too: an engine
    without Auras, or without static copy effects, gets the case as unsupported."""
    for n, _, card, _ in _casts(case):
        needed = (["auras"] if "enchant" in card else []) + (
            ["aura_copy"] if any(isinstance(a, Mapping) and a.get("kind") == "enchanted_copy"
                                 for a in card.get("abilities") or ()) else [])
        for feature in needed:
            if feature not in case.doc["features"]:
                yield case.problem(f"/steps/{n}/cast", f"the cast is of {card['name']}, an Aura: the case must list "
                                                       f"feature {quoted(feature)} in /features", "unlisted_feature")


FEATURE_CHECKS: tuple[Callable[[CaseCheck], Iterable[Problem]], ...] = (
    _object_keyword_costs, _emerge_from, _granted_flashback, _copy_chains, _copy_linked_triggers,
    _activation_features, _mode_chooser, _static_features, _auras)
