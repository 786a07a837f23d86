"""`player: tapper` (106.12a: the player who tapped a permanent for mana) has a player only in a
mana_trigger's stack effect; validate refuses it anywhere else, where the effect would reach nobody."""

from __future__ import annotations

import json

from castrules.harness.catalog import load_catalog
from castrules.harness.paths import suite_root

BARBS = {"name": "Test Barbs", "real": False, "mana_cost": "{3}{R}", "type_line": "Enchantment",
         "text": "A land tapped for mana: 1 damage to the player who tapped it.",
         "abilities": [{"kind": "mana_trigger", "permanents": {"types": ["Land"]}, "whose": "all",
                        "effect": [{"damage": {"amount": 1, "player": "tapper"}}]}]}
STRAY = {"name": "Test Stray Tapper", "real": False, "mana_cost": "{R}", "type_line": "Sorcery",
         "text": "1 damage to the player who tapped, but nobody tapped.",
         "spell": [{"damage": {"amount": 1, "player": "tapper"}}]}


def _codes(tmp_path, card: dict) -> list[str]:
    catalog = tmp_path / "catalog"
    catalog.mkdir(exist_ok=True)
    (catalog / "cards.json").write_text(json.dumps([card]), encoding="utf-8")
    return [p.code for p in load_catalog(catalog, tmp_path, schema_root=suite_root())[1]]


def test_tapper_in_a_mana_triggers_effect_is_accepted(tmp_path):
    assert _codes(tmp_path, BARBS) == []


def test_tapper_in_a_spell_is_refused(tmp_path):
    assert _codes(tmp_path, STRAY) == ["tapper_outside_mana_trigger"]


def test_tapper_in_another_triggered_ability_is_refused(tmp_path):
    card = dict(BARBS, name="Test Dying Barbs", abilities=[
        {"kind": "triggered", "trigger": {"dies": {"creatures": "self"}}, "effect": [{"damage": {"amount": 1, "player": "tapper"}}]}])
    assert _codes(tmp_path, card) == ["tapper_outside_mana_trigger"]
