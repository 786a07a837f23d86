"""A tapped-for-mana trigger that uses the stack (605.5a) knows who tapped: its `player: tapper`
effect acts on that player (106.12a, Manabarbs's "that player"), whoever controls the source."""
from castrules.model.effects import Tapper, read_player
from oracle_helpers import player, run


def _tap_and_resolve(barbs_controller: str, tapper: str) -> dict:
    objects = [{"id": "barbs", "card": "Manabarbs", "zone": "battlefield", "controller": barbs_controller},
               {"id": "land", "card": "Mountain", "zone": "battlefield", "controller": tapper}]
    return run({"players": {"A": {}, "B": {}}, "objects": objects},
               [{"activate_mana": {"player": tapper, "object": "land"}}, {"resolve": {}}])


def test_tapper_is_read_as_its_own_player_choice():
    assert read_player("tapper") == Tapper()


def test_the_player_who_tapped_takes_the_damage_not_the_sources_controller():
    r = _tap_and_resolve("A", "B")
    assert r["snapshots"]["1"]["stack"] == ["barbs_trigger"]
    assert player(r, 2, "B")["life"] == 19 and player(r, 2, "A")["life"] == 20


def test_the_sources_controller_tapping_its_own_land_is_damaged():
    r = _tap_and_resolve("A", "A")
    assert player(r, 2, "A")["life"] == 19 and player(r, 2, "B")["life"] == 20
