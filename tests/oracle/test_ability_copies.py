"""Copies of abilities on the stack (707.10, 707.10b): the `copy_ability` step copies a triggered
or activated ability only, and the copy keeps the original's source and controller unless told."""
from __future__ import annotations

from oracle_helpers import obj, run

SETUP = {"players": {"A": {}, "B": {}}, "turn": {"active": "A", "step": "precombat_main"},
         "objects": [{"id": "spear", "card": "Monastery Swiftspear", "zone": "battlefield", "controller": "A"},
                     {"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "A"},
                     {"id": "m1", "card": "Mountain", "zone": "battlefield", "controller": "A"}]}
CAST = {"cast": {"player": "A", "object": "bolt", "targets": ["B"], "mana_abilities": [{"object": "m1"}]}}


def test_a_spell_is_not_an_ability_to_copy():
    result = run(SETUP, [CAST, {"copy_ability": {"object": "bolt", "new_id": "c"}}])
    assert result["steps"][1]["legal"] is False and result["steps"][1]["reason"] == "invalid_action"


def test_a_copy_made_for_another_player_is_theirs_and_still_pumps_the_source():
    result = run(SETUP, [CAST, {"copy_ability": {"object": "spear_trigger", "new_id": "c", "controller": "B"}},
                         {"resolve": {}}])
    assert obj(result, 2, "c")["controller"] == "B"
    assert (obj(result, 3, "spear")["power"], obj(result, 3, "spear")["toughness"]) == (2, 3)
