"""118.9: an alternative cost returning a permanent to its owner's hand (Daze): named with the
cost at 601.2b, checked and returned at 601.2h after the mana abilities, its mana part still
modified (Trinisphere)."""
from oracle_helpers import obj, run

AB = {"A": {}, "B": {}}


def _daze(returned, islands=1, trinisphere=False, controller="B", mana=()):
    objects = [{"id": "f1", "card": "Forest", "zone": "battlefield", "controller": "A"},
               {"id": "f2", "card": "Forest", "zone": "battlefield", "controller": "A"},
               {"id": "bears", "card": "Grizzly Bears", "zone": "stack", "owner": "A"},
               {"id": "daze", "card": "Daze", "zone": "hand", "owner": "B"}]
    objects += [{"id": f"i{i}", "card": "Island", "zone": "battlefield", "controller": controller}
                for i in range(islands)]
    if trinisphere:
        objects.append({"id": "tri", "card": "Trinisphere", "zone": "battlefield", "controller": "A"})
    cast = {"player": "B", "object": "daze", "alternative_cost": "return_permanent", "targets": ["bears"],
            "mana_abilities": [{"object": m} for m in mana]}
    if returned is not None:
        cast["returned"] = returned
    return run({"players": AB, "objects": objects}, [{"cast": cast}])


def test_the_island_goes_to_its_owners_hand_for_nothing():
    r = _daze("i0")
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == "{0}"
    assert obj(r, 1, "i0")["zone"] == "hand"


def test_no_island_named_is_an_incomplete_announcement():
    step = _daze(None)["steps"][0]
    assert (step["reason"], step["substep"]) == ("alternative_cost_unavailable", "601.2b")


def test_an_island_that_cannot_pay_fails_as_the_cost_is_paid():
    """601.2b announces only the alternative cost; which Island is returned is part of paying
    it (601.2h): another player's Island, or a land that is no Island, can't pay, and the locked
    total ({0}) is reported."""
    for step in (_daze("i0", controller="A")["steps"][0], _daze("f1")["steps"][0]):
        assert (step["reason"], step["substep"], step["total_cost"]) == ("additional_cost_unpaid", "601.2h", "{0}")


def test_returned_named_without_the_alternative_cost():
    objects = [{"id": "i0", "card": "Island", "zone": "battlefield", "controller": "B"},
               {"id": "i1", "card": "Island", "zone": "battlefield", "controller": "B"},
               {"id": "bears", "card": "Grizzly Bears", "zone": "stack", "owner": "A"},
               {"id": "daze", "card": "Daze", "zone": "hand", "owner": "B"}]
    r = run({"players": AB, "objects": objects}, [{"cast": {
        "player": "B", "object": "daze", "returned": "i0", "targets": ["bears"],
        "mana_abilities": [{"object": "i0"}, {"object": "i1"}]}}])
    assert r["steps"][0]["reason"] == "alternative_cost_unavailable"


def test_trinisphere_floors_the_mana_part_and_a_tapped_island_is_returned():
    r = _daze("i0", islands=3, trinisphere=True, mana=("i0", "i1", "i2"))
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == "{3}"
    assert obj(r, 1, "i0")["zone"] == "hand" and obj(r, 1, "i2")["tapped"]
