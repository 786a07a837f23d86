"""The checks that a case lists the features its steps need because of the card they use, beyond
what a step's fields ask for (the contract's inputs): an entwine or escalate cost paid with
objects, emerge from a quality, flashback another object gave, a chain of copies, an activation's
mana or sacrifice, a spell whose mode an opponent chooses, an Aura, a cast from a library, a cast
leaving hybrid or Phyrexian choices to automatic payment, and a card with a part one table ties
to a feature (`CARD_FEATURES`: an ability's or an effect's kind, a field of one, what a cost
modifier counts). Each is one small function of a `CaseCheck`;
`FEATURE_CHECKS` lists them in the order `castrules.harness.checks` runs them. Like the checks
of the contract, they ask that a needed feature be listed, never that a listed one be needed
(only `invented_cards` is checked both ways, in `castrules.harness.invented`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

from castrules.harness.card_features import CARD_FEATURES, CardPart, parts_of
from castrules.harness.case_check import CaseCheck
from castrules.harness.excerpts import quoted
from castrules.harness.problems import Problem
from castrules.model.step_base import pays_automatically

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
    """Where another object may give flashback (Snapcaster Mage, Past in Flames, 702.34a), a flashback cast
    lists granted_flashback for a card with none of its own, flashback_choice for one with its own naming
    another object as `permission`; with no such object, a cost the card lacks needs only `flashback`."""
    if not any((CardPart.EFFECT, "grant_flashback") in parts_of(case.catalog.cards.get(obj.get("card") or ""))
               for obj in case.doc["setup"].get("objects", [])):
        return
    for n, body, card, alternatives in _casts(case):
        feature = "flashback_choice" if "flashback" in card else "granted_flashback"
        if (card and "flashback" in alternatives and feature not in case.doc["features"]
                and (feature == "granted_flashback" or body.get("permission") not in (None, body.get("object")))):
            yield case.problem(f"/steps/{n}/cast", f"the cast pays a flashback cost {card['name']} has only if another "
                                                   f"object gives it: the case must list feature '{feature}' "
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


AUTO_PAYMENT_CHOICES = "auto_payment_choices"


def _omitted_choice(cost: str, body: Mapping[str, Any]) -> bool:
    """Whether a cast leaves out a 601.2b announcement its mana cost asks for: a Phyrexian symbol
    and no `phyrexian`; a hybrid one and no `hybrid` ({G/U/P} only when paid with mana)."""
    symbols, paid = [s.split("/") for s in re.findall(r"\{([^{}]+/[^{}]+)\}", cost)], body.get("phyrexian")
    if paid is None and any("P" in parts for parts in symbols):
        return True
    entries = iter(paid or ())
    return "hybrid" not in body and any("P" not in parts or (next(entries, None) == "mana" and len(parts) > 2)
                                        for parts in symbols)


def auto_choice_casts(doc: Mapping[str, Any], cards: Mapping[str, Any]) -> Iterator[tuple[int, str]]:
    """The index and card name of each cast paid automatically (`pay: auto`, or no
    `mana_abilities`) that leaves out its mana cost's hybrid or Phyrexian choices. A cast for
    another cost (alternative, half, prototype) or under a set total (cost_set) is not looked at:
    its mana cost is not what is paid. The generator asks it too."""
    objects = doc["setup"].get("objects", [])
    if any((CardPart.ABILITY, "cost_set") in parts_of(cards.get(obj.get("card") or "")) for obj in objects):
        return
    names = {obj["id"]: obj.get("card") for obj in objects}
    for n, step in enumerate(doc["steps"]):
        body = step.get("cast")
        if (isinstance(body, Mapping) and not any(body.get(k) for k in ("alternative_cost", "half", "fuse", "prototype"))
                and pays_automatically(body.get("pay"), "mana_abilities" in body)):
            card = cards.get(names.get(body.get("object")) or "") or {}
            if _omitted_choice(str(card.get("mana_cost") or ""), body):
                yield n, card["name"]


def _auto_payment_choices(case: CaseCheck) -> Iterator[Problem]:
    """Such a cast lists auto_payment_choices: an engine that does not look ahead for payable
    announcements (601.2b, 601.2h) gets the case as unsupported, not as a false failure."""
    if AUTO_PAYMENT_CHOICES in case.doc["features"]:
        return
    for n, name in auto_choice_casts(case.doc, case.catalog.cards):
        yield case.problem(f"/steps/{n}/cast", f"the cast leaves {name}'s hybrid or Phyrexian choices to automatic "
                                               f"payment: the case must list feature {quoted(AUTO_PAYMENT_CHOICES)} "
                                               "in /features", "unlisted_feature")


def _card_features(case: CaseCheck) -> Iterator[Problem]:
    """A case with a card that has a part `CARD_FEATURES` names (Manascape Refractor's borrowed
    abilities, Test Fixed Toll's set cost, Electrodominance's free cast...) lists its feature: an
    engine without it gets the case as unsupported, never a false failure. A feature listed
    without such a card is no problem: other cards and steps may need it too."""
    features = set(case.doc["features"])
    for i, obj in enumerate(case.doc["setup"].get("objects", [])):
        card = case.catalog.cards.get(obj.get("card") or "") or {}
        needed: dict[str, tuple[CardPart, str]] = {}
        for part, name in parts_of(card):
            needed.setdefault(CARD_FEATURES.get((part, name), ""), (part, name))
        for feature, (part, name) in needed.items():
            if feature and feature not in features:
                yield case.problem(f"/setup/objects/{i}/card", f"{card['name']}'s {part.value} {quoted(name)} needs "
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


CAST_FROM_LIBRARY = "cast_from_library"
FROM_OPPONENTS_LIBRARY = "cast_from_opponents_library"     # casts a resolving effect instructs from another's library


def _instructed_from_library(parts: Iterable[tuple[CardPart, str]]) -> Iterator[bool]:
    """For each effect of a card that instructs a cast as it resolves (608.2g), whether it casts
    a card in a library: cast_if_able does (the top card), cast_free when it says `from: library`,
    cast_copy never (the copy of a card imprinted)."""
    parts = set(parts)
    for part, name in parts:
        if part is CardPart.EFFECT and name in ("cast_if_able", "cast_copy"):
            yield name == "cast_if_able"
        elif part is CardPart.FIELD and name.startswith("cast_free.from."):
            yield name == "cast_free.from.library"
    if (CardPart.EFFECT, "cast_free") in parts and (CardPart.FIELD, "cast_free.from") not in parts:
        yield False


def _library_casts(case: CaseCheck) -> Iterator[tuple[str, bool]]:
    """The pointer of each cast of a card in a library, and whether a resolving effect instructs
    it. A cast saying `from: library` is one. So is a cast of a card set up in a library while
    nothing can have moved it (no earlier step names it, nothing has resolved before: a draw, an
    exiled top card), when a cast step or an effect of the case that casts from a library makes it;
    and a cast an effect instructs naming no card, when every such effect of the case casts from a
    library (cast_if_able: the top card)."""
    objects = case.doc["setup"].get("objects", [])
    in_library = {obj["id"] for obj in objects if obj.get("zone") == "library"}
    reach = {r for obj in objects for r in _instructed_from_library(parts_of(case.catalog.cards.get(obj.get("card") or "")))}
    earlier, resolved = "", False     # the earlier steps, as text, while a card set up in a library may be cast
    for n, step in enumerate(case.doc["steps"]):
        kind, body = next(iter(step.items()))
        cast, pointer = (body, f"/steps/{n}/cast") if kind == "cast" else (
            ((body or {}).get("choices") or {}).get("cast") if kind == "resolve" else None, f"/steps/{n}/resolve/choices/cast")
        if isinstance(cast, Mapping):
            obj, by_effect = cast.get("object"), kind == "resolve"
            untouched = obj in in_library and not resolved and json.dumps(obj) not in earlier
            if cast.get("from") == "library" or (untouched and (not by_effect or True in reach)) or (
                    by_effect and obj is None and reach == {True}):
                yield pointer, by_effect
        earlier, resolved = earlier + (json.dumps(step) if in_library else ""), resolved or kind == "resolve"


def _cast_from_library(case: CaseCheck) -> Iterator[Problem]:
    """A cast of a card in a library (Future Sight's permission, Test Compelling Order's cast if
    able, or none at all, 601.3) lists cast_from_library, or, for a cast a resolving effect
    instructs, cast_from_opponents_library (Knowledge Exploitation), which casts from a library as
    well: an engine that casts from no library gets the case as unsupported, not a false failure."""
    features = set(case.doc["features"])
    if CAST_FROM_LIBRARY in features:
        return
    for pointer, by_effect in _library_casts(case):
        if not (by_effect and FROM_OPPONENTS_LIBRARY in features):
            yield case.problem(pointer, "the cast is of a card in a library: the case must list feature "
                                        f"{quoted(CAST_FROM_LIBRARY)} in /features", "unlisted_feature")


FEATURE_CHECKS: tuple[Callable[[CaseCheck], Iterable[Problem]], ...] = (
    _object_keyword_costs, _emerge_from, _granted_flashback, _copy_chains,
    _activation_features, _mode_chooser, _card_features, _auras, _cast_from_library, _auto_payment_choices)
