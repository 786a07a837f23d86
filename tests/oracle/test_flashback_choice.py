"""702.34a: a card with its own flashback that another object gives a second one (Snapcaster Mage,
Past in Flames) may be cast with either: the cast's `permission` naming the granter picks the
granted cost (the card's mana cost, nothing else); naming nothing, the card, or an object that
lets it be cast from the graveyard another way (Kess) uses its own; naming any other object is
refused, as a prowl cast naming an object that grants no prowl is."""
from oracle_helpers import player, run

A_TURN = {"active": "A", "step": "precombat_main"}


def _flash_back_think_twice(permission):
    objects = [{"id": f"i{n}", "card": "Island", "zone": "battlefield", "controller": "A"} for n in range(5)]
    objects += [{"id": "snap", "card": "Snapcaster Mage", "zone": "hand", "owner": "A"},
                {"id": "kess", "card": "Kess, Dissident Mage", "zone": "battlefield", "controller": "A"},
                {"id": "think", "card": "Think Twice", "zone": "graveyard", "owner": "A"}]
    cast = {"player": "A", "object": "think", "from": "graveyard", "alternative_cost": "flashback"}
    if permission is not None:
        cast["permission"] = permission
    r = run({"players": {"A": {}, "B": {}}, "turn": A_TURN, "objects": objects},
            [{"cast": {"player": "A", "object": "snap", "mana_abilities": [{"object": "i0"}, {"object": "i1"}]}},
             {"resolve": {"choices": {"targets": ["think"]}}}, {"resolve": {}}, {"cast": cast}])
    return r, r["steps"][3]


def test_naming_the_granter_picks_the_mana_cost():
    _, s = _flash_back_think_twice("snap")
    assert s["legal"] and s["total_cost"] == "{1}{U}"


def test_its_own_flashback_otherwise():
    for permission in (None, "kess"):
        _, s = _flash_back_think_twice(permission)
        assert s["legal"] and s["total_cost"] == "{2}{U}"


def test_granted_cost_drops_the_printed_life():
    objects = [{"id": f"i{n}", "card": "Island", "zone": "battlefield", "controller": "A"} for n in range(6)]
    objects += [{"id": "snap", "card": "Snapcaster Mage", "zone": "hand", "owner": "A"},
                {"id": "deep", "card": "Deep Analysis", "zone": "graveyard", "owner": "A"}]
    r = run({"players": {"A": {"life": 2}, "B": {}}, "turn": A_TURN, "objects": objects},
            [{"cast": {"player": "A", "object": "snap", "mana_abilities": [{"object": "i0"}, {"object": "i1"}]}},
             {"resolve": {"choices": {"targets": ["deep"]}}}, {"resolve": {}},
             {"cast": {"player": "A", "object": "deep", "alternative_cost": "flashback", "permission": "snap",
                       "targets": ["A"], "pay": "auto"}}])
    assert r["steps"][3]["legal"] and r["steps"][3]["total_cost"] == "{3}{U}" and player(r, 4, "A")["life"] == 2


def test_naming_an_object_that_gave_no_flashback_is_refused_as_prowl_is():
    """Another Snapcaster Mage, or a Lurrus (whose permission covers no instant), gave Think Twice
    no flashback and lets it be cast from the graveyard no other way: the flashback cost the cast
    announces through it does not exist, alternative_cost_unavailable at 601.2b. Kess, which lets
    an instant be cast from there, leaves the card its own flashback (the test above)."""
    for stranger in ("snap2", "lurrus"):
        objects = [{"id": f"i{n}", "card": "Island", "zone": "battlefield", "controller": "A"} for n in range(3)]
        objects += [{"id": "snap2", "card": "Snapcaster Mage", "zone": "battlefield", "controller": "A"},
                    {"id": "lurrus", "card": "Lurrus of the Dream-Den", "zone": "battlefield", "controller": "A"},
                    {"id": "think", "card": "Think Twice", "zone": "graveyard", "owner": "A"}]
        r = run({"players": {"A": {}, "B": {}}, "turn": A_TURN, "objects": objects},
                [{"cast": {"player": "A", "object": "think", "from": "graveyard", "alternative_cost": "flashback",
                           "permission": stranger, "mana_abilities": [{"object": f"i{n}"} for n in range(3)]}}])
        s = r["steps"][0]
        assert not s["legal"] and s["reason"] == "alternative_cost_unavailable" and s["substep"] == "601.2b"
        assert r["snapshots"]["1"]["objects"]["think"]["zone"] == "graveyard"
