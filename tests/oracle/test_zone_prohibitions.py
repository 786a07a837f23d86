"""601.3: a cast_prohibition limited to some zones (`from`: Grafdigger's Cage, Ashes of the
Abhorrent, Drannith Magistrate) stops casts from those zones only, judged on the zone the card is
cast from, which no proposal choice changes (prohibited at 601.2a); one without `from` still
stops a cast from any zone."""
from oracle_helpers import obj, run

A_TURN = {"active": "A", "step": "precombat_main"}


def _ban(zones=None, players="all"):
    ability = {"kind": "cast_prohibition", "players": players, "spells": {}}
    if zones is not None:
        ability["from"] = zones
    return {"name": "Test Zone Ban", "real": False, "mana_cost": "{2}", "type_line": "Artifact", "text": "t",
            "abilities": [ability]}


def _cast_bears(zone, ban, ban_controller="B", permission=None):
    objects = [{"id": "ban", "card": "Test Zone Ban", "zone": "battlefield", "controller": ban_controller},
               {"id": "lurrus", "card": "Lurrus of the Dream-Den", "zone": "battlefield", "controller": "A"},
               {"id": "bears", "card": "Grizzly Bears", "zone": zone, "owner": "A"}]
    cast = {"player": "A", "object": "bears"}
    if permission is not None:
        cast["permission"] = permission
    r = run({"players": {"A": {"mana_pool": "{G}{G}"}, "B": {}}, "turn": A_TURN, "objects": objects},
            [{"cast": cast}], extra_cards=[ban])
    return r, r["steps"][0]


def test_a_graveyard_ban_stops_a_graveyard_cast_at_the_start():
    r, s = _cast_bears("graveyard", _ban(["graveyard"]), permission="lurrus")
    assert (s["legal"], s.get("reason"), s.get("substep")) == (False, "prohibited", "601.2a")
    assert obj(r, 1, "bears")["zone"] == "graveyard"
    assert any("from the graveyard" in t["note"] for t in r["trace"] if t.get("step") == 1)


def test_a_graveyard_ban_leaves_a_cast_from_the_hand_alone():
    _, s = _cast_bears("hand", _ban(["graveyard", "library"]))
    assert s["legal"] and s["total_cost"] == "{1}{G}"


def test_a_ban_without_zones_stops_every_zone():
    for zone, permission in (("hand", None), ("graveyard", "lurrus")):
        _, s = _cast_bears(zone, _ban(), permission=permission)
        assert s.get("reason") == "prohibited"


def test_an_opponents_only_zone_ban_spares_its_controller():
    ban = _ban(["graveyard", "exile", "library", "command"], players="opponents")
    _, mine = _cast_bears("graveyard", ban, ban_controller="A", permission="lurrus")
    assert mine["legal"]
    _, theirs = _cast_bears("graveyard", ban, ban_controller="B", permission="lurrus")
    assert theirs.get("reason") == "prohibited"
