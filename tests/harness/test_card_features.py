"""The features a case needs because of a card it sets up (`CARD_FEATURES`: an ability's or an
effect's kind, a field of one, what a cost modifier counts) and cast_from_library, which a cast of
a card in a library needs: validate reports a case leaving one out, with its file, the place and
the feature expected, so an engine lacking the feature gets the case as unsupported, never as a
false failure; and it leaves alone a case that lists them all, or holds no such card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from castrules.harness.checks import check_case
from castrules.harness.card_features import CARD_FEATURES, CardPart, card_features, parts_of
from castrules.harness.suite import shared_suite
from tests.conftest import FIXTURE_CARDS, castrules, good_case

SUITE = shared_suite()
ROOT = Path(__file__).resolve().parents[2]


def _problems(doc: dict) -> list:
    return [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]


def _doc(case_id: str) -> dict:
    return json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))


def _holding(feature: str) -> tuple[dict, int, str]:
    """The first suite case setting up a card with a part tied to `feature`: its document, the
    object's index and the card's name."""
    for case in SUITE.cases:
        for i, obj in enumerate(case.doc["setup"].get("objects", [])):
            card = SUITE.catalog.cards.get(obj.get("card") or "")
            if any(CARD_FEATURES.get(part) == feature for part in parts_of(card)):
                return json.loads(json.dumps(case.doc)), i, card["name"]
    raise AssertionError(f"no case sets up a card needing {feature}")


@pytest.mark.parametrize("feature", sorted(set(CARD_FEATURES.values())))
def test_a_case_holding_the_card_must_list_its_feature(feature):
    doc, index, name = _holding(feature)
    assert not [p for p in _problems(doc) if feature in p.message]
    doc["features"].remove(feature)
    found = {p.pointer: p for p in _problems(doc) if feature in p.message}
    problem = found[f"/setup/objects/{index}/card"]
    assert problem.file == "cases/x.yaml" and name in problem.message
    assert f"feature '{feature}'" in problem.message


def test_a_card_needing_one_feature_twice_is_reported_once():
    doc, index, _ = _holding("counted_cost_modifiers")
    doc["setup"]["objects"].append(dict(doc["setup"]["objects"][index], id="another"))
    doc["features"].remove("counted_cost_modifiers")
    pointers = [p.pointer for p in _problems(doc) if "counted_cost_modifiers" in p.message]
    assert len(pointers) == len(set(pointers)) == 2


def test_the_table_names_parts_and_features_that_exist():
    schema = json.loads((ROOT / "schema" / "card.schema.json").read_text(encoding="utf-8"))["$defs"]
    kinds = {alt["properties"]["kind"]["const"] for alt in schema["ability"]["oneOf"]}
    effects = set(schema["effect"]["properties"])
    counts = set(next(alt for alt in schema["ability"]["oneOf"]
                      if alt["properties"]["kind"]["const"] == "cost_modifier")["properties"]["per"]["enum"])
    features = yaml.safe_load((ROOT / "cases" / "features.yaml").read_text(encoding="utf-8"))
    for (part, name), feature in CARD_FEATURES.items():
        assert feature in features, feature
        allowed = {CardPart.ABILITY: kinds, CardPart.EFFECT: effects, CardPart.COUNT: counts,
                   CardPart.FIELD: kinds | effects}[part]
        assert (name.split(".")[0] if part is CardPart.FIELD else name) in allowed, name


REDUCTIONS = ("coloured_only_reductions", "chosen_creature_type_reductions", "linked_type_reductions")


@pytest.mark.parametrize("name, needed", [
    ("Edgewalker", {"coloured_only_reductions"}),
    ("Ragemonger", {"coloured_only_reductions"}),
    ("Urza's Incubator", {"chosen_creature_type_reductions"}),
    ("Morophon, the Boundless", {"coloured_only_reductions", "chosen_creature_type_reductions"}),
    ("Cloud Key", {"linked_type_reductions"}),
    ("Semblance Anvil", {"linked_type_reductions"}),
    ("Heartless Summoning", set()),
    ("Foundry Inspector", set()),
])
def test_a_reduction_with_a_field_beyond_amount_and_spells_needs_its_feature(name, needed):
    """A cost modifier's `only_coloured`, `chosen_type`, `chosen_card_type` or `imprinted_types`
    changes which spells it reduces, or by what: an engine knowing only plain reductions would
    reduce the wrong spells or the wrong mana, so it must get these cards' cases as unsupported.
    A plain reduction (Heartless Summoning's {2} off creature spells) needs none of them."""
    assert card_features(SUITE.catalog.cards[name]) & set(REDUCTIONS) == needed


REDUCTION_CASES = (("cost/cloud-key/creature-does-not-reduce-kindred-sorcery", "linked_type_reductions"),
                   ("cost/anvil/instant-imprint-skips-creature", "linked_type_reductions"),
                   ("cost/ragemonger/one-red-of-two-comes-off", "coloured_only_reductions"))


def test_the_documentation_lists_every_tied_feature():
    text = (ROOT / "docs" / "observations.md").read_text(encoding="utf-8")
    assert all(f"`{feature}`" in text for feature in CARD_FEATURES.values())



# ---- cast_prohibitions (601.3) ------------------------------------------------------------------

def test_every_catalog_card_with_a_prohibition_needs_cast_prohibitions():
    """Void Winnower, Gaddock Teeg, Grafdigger's Cage, Ashes of the Abhorrent, Drannith Magistrate:
    an engine without prohibitions cannot build them, wherever they are set up."""
    holders = {name for name, card in SUITE.catalog.cards.items()
               if any(isinstance(a, dict) and a.get("kind") == "cast_prohibition" for a in card.get("abilities") or ())}
    assert {"Void Winnower", "Grafdigger's Cage", "Drannith Magistrate"} <= holders
    assert all("cast_prohibitions" in card_features(SUITE.catalog.cards[name]) for name in holders)


def test_a_static_ability_spelling_out_a_prohibition_needs_it_too():
    card = {"name": "Test Spelled Prohibition", "abilities": [
        {"kind": "static", "cast_prohibition": {"players": "opponents", "spells": {"mana_value": "even"}}}]}
    assert card_features(card) == {"cast_prohibitions"}


def test_every_case_setting_up_a_prohibition_lists_it():
    """Each suite case with such a card is reported once the feature is taken out, at that card."""
    cases = [c for c in SUITE.cases if any("cast_prohibitions" in card_features(SUITE.catalog.cards.get(o.get("card") or ""))
                                           for o in c.doc["setup"].get("objects", []))]
    assert len(cases) >= 20
    for case in cases:
        doc = _doc(case.id)
        doc["features"].remove("cast_prohibitions")
        assert [p for p in _problems(doc) if "cast_prohibitions" in p.message], case.id

# ---- cast_from_library --------------------------------------------------------------------------

NO_PERMISSION = "casting/permission/library-top-card-no-permission"     # Grizzly Bears cast from the library


def _library_problems(doc: dict) -> list[str]:
    return [p.pointer for p in _problems(doc) if "cast_from_library" in p.message]


def test_a_cast_of_a_card_set_up_in_a_library_must_list_cast_from_library():
    doc = _doc(NO_PERMISSION)
    assert not _library_problems(doc)
    doc["features"].remove("cast_from_library")
    found = [p for p in _problems(doc) if "cast_from_library" in p.message]
    assert [(p.file, p.pointer) for p in found] == [("cases/x.yaml", "/steps/0/cast")]


def test_a_cast_saying_from_library_needs_it_whatever_came_before():
    doc = _doc("library/future-sight/only-the-top-card")    # its third cast names a card an earlier step did
    doc["features"].remove("cast_from_library")
    assert _library_problems(doc) == [f"/steps/{n}/cast" for n, step in enumerate(doc["steps"])
                                      if (step.get("cast") or {}).get("from") == "library"]


@pytest.mark.parametrize("before", [{"resolve": {}}, {"exile": {"object": "bears"}}])
def test_a_card_that_may_have_left_the_library_is_not_taken_for_one_in_it(before):
    """Something resolved (a draw, an exiled top card) or an earlier step named the card: where it
    is now only an engine can tell, and validate asks nothing it cannot be sure of."""
    doc = _doc(NO_PERMISSION)
    doc["features"].remove("cast_from_library")
    doc["steps"].insert(0, before)
    assert not _library_problems(doc)


def test_an_instructed_cast_from_a_library_needs_it():
    doc = _doc("matrix/set/free-instructed-from-library")     # Test Compelling Order: cast if able, no card named
    doc["features"].remove("cast_from_library")
    assert _library_problems(doc) == ["/steps/1/resolve/choices/cast"]


def test_a_free_cast_from_an_opponents_library_needs_one_library_feature_or_the_other():
    """Knowledge Exploitation's cast names a card set up in B's library: cast_from_opponents_library,
    the feature of that effect, covers it as cast_from_library would."""
    doc = _doc("matrix/floor/free-effect-from-opponents-library")
    assert "cast_from_library" not in doc["features"] and not _library_problems(doc)
    doc["features"].remove("cast_from_opponents_library")
    assert _library_problems(doc) == ["/steps/1/resolve/choices/cast"]
    doc["features"].append("cast_from_library")
    assert not _library_problems(doc)


def test_an_instructed_cast_from_a_graveyard_does_not():
    doc = _doc("matrix/floor/free-instructed-from-graveyard")   # a free cast of a graveyard card
    assert "cast_from_library" not in doc["features"] and not _library_problems(doc)


# ---- the three the issue named, as bad cases in a throwaway suite -------------------------------

def test_validate_reports_each_missing_feature_with_file_place_and_feature(suite_builder):
    cards = [dict(SUITE.catalog.cards[name]) for name in ("Test Fixed Toll", "Electrodominance", "Mountain")]
    suite_builder.write("cases/catalog/cards.yaml", yaml.safe_dump(FIXTURE_CARDS + cards, sort_keys=False))
    objects = [{"id": "toll", "card": "Test Fixed Toll", "zone": "battlefield", "controller": "A"},
               {"id": "dom", "card": "Electrodominance", "zone": "hand", "owner": "A"},
               {"id": "bears", "card": "Grizzly Bears", "zone": "library", "owner": "A"}]
    doc = good_case("casting/fixture/unlisted", features=["casting", "invented_cards"],
                    setup={"players": {"A": {}, "B": {}}, "objects": objects},
                    steps=[{"cast": {"player": "A", "object": "bears"}}],
                    expect=[{"after": 1, "legal": False}])
    suite_builder.case("cases/casting/unlisted.yaml", doc)
    done = castrules(suite_builder, "validate")
    assert done.returncode == 2
    lines = [line for line in done.stdout.splitlines() if line.startswith("cases/casting/unlisted.yaml:")]
    for pointer, feature in (("/setup/objects/0/card", "cost_set"), ("/setup/objects/1/card", "cast_free"),
                             ("/steps/0/cast", "cast_from_library")):
        assert any(f"at {pointer}:" in line and f"'{feature}'" in line for line in lines), (feature, lines)


# ---- granted_improvise (702.126a) ---------------------------------------------------------------

STATUARY_CASES = (
    "improvise/granted/inspiring-statuary-taps-itself-for-grizzly-bears",
    "affinity/improvise/artifacts-counted-for-affinity-then-tapped-for-improvise",
    "delve/illegal/delve-and-improvise-together-pay-at-most-the-generic",
    "improvise/instances/reverse-engineer-under-statuary-improvises-once",
    "improvise/granted/opponents-inspiring-statuary-grants-nothing",
    "improvise/granted/inspiring-statuary-gives-an-artifact-spell-nothing")


def test_a_permanent_giving_improvise_needs_granted_improvise_a_spells_own_does_not():
    """Inspiring Statuary gives improvise to other spells: an engine knowing only a spell's own
    improvise cannot build it. Whir of Invention's own keyword asks for nothing here (the cast
    step's `improvise` asks for `improvise`)."""
    assert card_features(SUITE.catalog.cards["Inspiring Statuary"]) == {"granted_improvise"}
    assert "granted_improvise" not in card_features(SUITE.catalog.cards["Whir of Invention"])


@pytest.mark.parametrize("name", ["Frogmite", "Thoughtcast", "Myr Enforcer", "Frogmyr Enforcer", "Somber Hoverguard"])
def test_affinity_for_artifacts_is_a_counted_cost_modifier(name):
    """Affinity counts the caster's artifacts as the total is determined (702.41a, 601.2f): an
    engine with fixed reductions only (Goblin Electromancer's {1}) cannot build it, so its cases
    need counted_cost_modifiers like every other "for each" reduction."""
    assert "counted_cost_modifiers" in card_features(SUITE.catalog.cards[name])


# ---- permission_limits (601.3, 400.7) -----------------------------------------------------------

LIMIT_CASES = (
    "casting/graveyard/kess-lets-only-one-spell-each-turn", "casting/graveyard/lurrus-lets-only-one-spell-each-turn",
    "casting/graveyard/lurrus-and-karador-each-allow-their-own-spell", "casting/graveyard/lurrus-not-during-an-opponents-turn",
    "casting/graveyard/lurrus-again-on-its-controllers-next-turn",
    "casting/graveyard/lurrus-blinked-is-a-new-lurrus-with-its-own-spell",
    "casting/graveyard/lurrus-unpaid-attempt-does-not-use-up-the-permission",
    "flashback/zone/kess-spent-flashback-still-available")


@pytest.mark.parametrize("name", ["Lurrus of the Dream-Den", "Karador, Ghost Chieftain", "Kess, Dissident Mage"])
def test_a_permission_limited_to_its_controllers_turns_and_one_spell_needs_permission_limits(name):
    """An engine knowing only plain cast permissions would build a Lurrus usable on any turn and
    for any number of spells, and accept the casts these cards' cases expect refused."""
    assert "permission_limits" in card_features(SUITE.catalog.cards[name])


@pytest.mark.parametrize("limit", [{"during": "your_turn"}, {"per_turn": 2}])
def test_either_limit_alone_needs_it_a_plain_permission_does_not(limit):
    plain = {"kind": "cast_permission", "from": ["graveyard"], "spells": {}}
    assert "permission_limits" not in card_features({"name": "Test Plain", "abilities": [plain]})
    assert "permission_limits" in card_features({"name": "Test Limited", "abilities": [dict(plain, **limit)]})
    assert "permission_limits" not in card_features(SUITE.catalog.cards["Future Sight"])


@pytest.mark.parametrize("case_id, feature", [*REDUCTION_CASES,
                                              *((case_id, "granted_improvise") for case_id in STATUARY_CASES),
                                              *((case_id, "permission_limits") for case_id in LIMIT_CASES)])
def test_each_case_is_unsupported_without_its_feature(case_id, feature):
    """The Cloud Key, Anvil and Ragemonger cases, the Statuary cases and the permission-limit
    cases are valid as they are, and reported once their feature is taken out."""
    doc = _doc(case_id)
    assert not _problems(doc)
    doc["features"].remove(feature)
    assert [p.pointer for p in _problems(doc) if feature in p.message]
