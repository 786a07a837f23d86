"""702.126a: improvise given by a permanent (Inspiring Statuary: the nonartifact spells its
controller casts) reaches only those spells, and only its controller's."""
from oracle_helpers import obj, run

AB = {"A": {}, "B": {}}


def _cast(card, statue_controller, improvise, lands):
    objects = [{"id": "statue", "card": "Inspiring Statuary", "zone": "battlefield", "controller": statue_controller},
               {"id": "r1", "card": "Darksteel Relic", "zone": "battlefield", "controller": "A"},
               {"id": "spell", "card": card, "zone": "hand", "owner": "A"}]
    objects += [{"id": f"f{i}", "card": "Forest", "zone": "battlefield", "controller": "A"} for i in range(lands)]
    return run({"players": AB, "objects": objects},
               [{"cast": {"player": "A", "object": "spell", "improvise": improvise,
                          "mana_abilities": [{"object": f"f{i}"} for i in range(lands)]}}])


def test_nonartifact_spell_of_the_controller_gets_improvise():
    r = _cast("Grizzly Bears", "A", ["r1"], 1)
    assert r["steps"][0]["legal"] and obj(r, 1, "r1")["tapped"]


def test_artifact_spell_and_opponents_statuary_give_none():
    assert _cast("Sol Ring", "A", ["r1"], 0)["steps"][0]["reason"] == "invalid_object_payment"
    assert _cast("Grizzly Bears", "B", ["r1"], 1)["steps"][0]["reason"] == "invalid_object_payment"


def test_the_statuary_itself_has_no_improvise_to_use():
    """On the battlefield it only gives the keyword; cast, an artifact spell, it has none."""
    r = _cast("Inspiring Statuary", "B", ["r1"], 3)
    assert not r["steps"][0]["legal"]
