"""Modes an opponent chooses (601.6, 601.6a; feature opponent_chosen_modes): validate requires a
cast of such a card to name the opponent (`mode_chooser`), since a cast without one would read as
the caster choosing; the field asks for the feature (an input of the contract), so an engine that
leaves it undeclared gets those cases as unsupported; and the model reads the card's `chooser`,
the targets that player must control and the effects' "that player"."""

from __future__ import annotations

import json

from castrules.harness.catalog import load_catalog
from castrules.harness.checks import check_case
from castrules.harness.paths import suite_root
from castrules.harness.contract import load_contract
from castrules.harness.suite import shared_suite
from castrules.model import Card
from castrules.model.effects import AddCounters, Damage, ModeChooser, read_effect

SUITE = shared_suite()
CASE = "opponent-choices/two-player/misfortune-opponent-picks-the-mode-that-hurts-them"


def _doc(case_id: str) -> dict:
    return json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))


def test_a_cast_of_an_opponent_chosen_modal_card_must_name_the_chooser():
    doc = _doc(CASE)
    del doc["steps"][0]["cast"]["mode_chooser"]
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
             if p.code == "missing_mode_chooser"]
    assert [p.pointer for p in found] == ["/steps/0/cast"] and "Misfortune" in found[0].message


def test_the_suites_casts_of_such_cards_all_name_the_chooser():
    assert not [p for c in SUITE.cases for p in check_case(c.file, c.doc, SUITE.catalog, SUITE.vocabulary)
                if p.code == "missing_mode_chooser"]


def test_naming_the_chooser_asks_for_the_feature():
    doc = _doc(CASE)
    doc["features"].remove("opponent_chosen_modes")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)]
    assert any("opponent_chosen_modes" in p.message for p in found)
    assert load_contract().inputs["cast"]["mode_chooser"] == "opponent_chosen_modes"


def test_the_model_reads_the_chooser_its_targets_and_that_player():
    lore = Card.from_document(SUITE.catalog.cards["Fatal Lore"])
    assert lore.modes.chooser == "opponent"
    assert all(t.chooser_controls for t in lore.modes.options[1].targets)
    misfortune = Card.from_document(SUITE.catalog.cards["Misfortune"])
    counters, damage = misfortune.modes.options[1].spell
    assert isinstance(counters, AddCounters) and counters.each is not None and counters.who == ModeChooser()
    assert isinstance(damage, Damage) and damage.who == ModeChooser()
    assert read_effect({"damage": {"amount": 3, "target": 0}}).player is None


def test_a_card_referring_to_the_chooser_must_have_its_mode_chosen_by_an_opponent(tmp_path):
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    card = {"name": "Test Lost Chooser", "real": False, "mana_cost": "{B}", "type_line": "Sorcery",
            "text": "The opponent who chose loses 2 life, but nobody chooses.",
            "modes": {"choose": 1, "options": [{"spell": [{"lose_life": {"amount": 2, "player": "chooser"}}]},
                                               {"spell": []}]}}
    (catalog / "cards.json").write_text(json.dumps([card]), encoding="utf-8")
    _, problems = load_catalog(catalog, tmp_path, schema_root=suite_root())
    assert [p.code for p in problems] == ["chooser_without_opponent"]
    card["modes"]["chooser"] = "opponent"
    (catalog / "cards.json").write_text(json.dumps([card]), encoding="utf-8")
    assert not load_catalog(catalog, tmp_path, schema_root=suite_root())[1]
