"""601.2d: dividing an amount among targets; the `prohibited` reason at 601.2a."""
import pytest

from oracle_helpers import obj, player, run

AB = {"A": {}, "B": {}}
BASE = [{"id": "m", "card": "Mountain", "zone": "battlefield", "controller": "A"},
        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
        {"id": "fork", "card": "Forked Bolt", "zone": "hand", "owner": "A"}]


def cast(targets, division=None):
    body = {"player": "A", "object": "fork", "targets": targets}
    if division is not None:
        body["division"] = division
    return run({"players": AB, "objects": BASE}, [{"cast": body}, {"resolve": {}}])


def test_two_way_division_deals_each_share():
    r = cast(["B", "bears"], {"B": 1, "bears": 1})
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == "{R}"
    assert player(r, 2, "B")["life"] == 19 and obj(r, 2, "bears")["damage"] == 1


def test_other_split_order_independent_of_listing():
    r = cast(["bears", "B"], {"B": 1, "bears": 1})
    assert player(r, 2, "B")["life"] == 19 and obj(r, 2, "bears")["damage"] == 1


def test_single_target_may_omit_division():
    r = cast(["B"])
    assert player(r, 2, "B")["life"] == 18


@pytest.mark.parametrize("targets,division", [
    (["B", "bears"], {"B": 2, "bears": 0}),      # a target gets nothing
    (["B", "bears"], {"B": 1, "bears": 2}),      # total too large
    (["B", "bears"], {"B": 1}),                  # a target left out
    (["B"], {"B": 1}),                           # total too small
    (["B"], {"B": 1, "bears": 1}),               # a non-target
    (["B", "bears"], None),                      # several targets, no division announced
    (["B"], {"B": -2, "bears": 4}),
])
def test_bad_divisions_fail_at_601_2d_and_rewind(targets, division):
    r = cast(targets, division)
    assert r["steps"][0] == {"legal": False, "reason": "invalid_division", "substep": "601.2d"}
    assert obj(r, 1, "fork")["zone"] == "hand" and not obj(r, 1, "m")["tapped"]


def test_division_for_a_spell_that_divides_nothing():
    r = run({"players": {"A": {"mana_pool": "{R}"}, "B": {}},
             "objects": [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}]},
            [{"cast": {"player": "A", "object": "bolt", "targets": ["B"], "division": {"B": 3}}}])
    assert r["steps"][0]["reason"] == "invalid_division"


def test_copy_keeps_the_division():
    r = run({"players": AB, "objects": BASE},
            [{"cast": {"player": "A", "object": "fork", "targets": ["B", "bears"], "division": {"B": 1, "bears": 1}}},
             {"copy_spell": {"object": "fork", "new_id": "fork2"}}, {"resolve": {}}])
    assert player(r, 3, "B")["life"] == 19 and obj(r, 3, "bears")["damage"] == 1


def test_outright_prohibition_is_prohibited_not_no_permission():
    r = run({"players": AB, "turn": {"active": "B"},
             "objects": [{"id": "ban", "card": "Void Winnower", "zone": "battlefield", "controller": "A"},
                         {"id": "bears", "card": "Grizzly Bears", "zone": "hand", "owner": "B"}]},
            [{"cast": {"player": "B", "object": "bears"}}])
    assert r["steps"][0] == {"legal": False, "reason": "prohibited", "substep": "601.2a"}
