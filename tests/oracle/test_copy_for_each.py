"""707.10d (copies for each player or object a spell could target) and 707.10e (a copy with a
specified new target): the `copy_spell_for_each` step and `copy_spell.target`."""
import pytest

from castrules.harness.suite import load_suite
from castrules.oracle.errors import RequestError
from oracle_helpers import obj, player, run
from tests.conftest import good_case

AB = {"A": {"mana_pool": "{R}"}, "B": {}}
BOLT = [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "A"},
        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
        {"id": "rogue", "card": "Bane Alley Blackguard", "zone": "battlefield", "controller": "B"},
        {"id": "forest", "card": "Forest", "zone": "battlefield", "controller": "A"}]
CAST = {"cast": {"player": "A", "object": "bolt", "targets": ["bears"]}}
# two instances of "target": the same object may be chosen for both
TWIN = {"name": "Test Twin Sparks", "real": False, "mana_cost": "{R}", "type_line": "Instant",
        "text": "1 damage to one target and 1 damage to another target.",
        "targets": [{"what": "any"}, {"what": "any"}],
        "spell": [{"damage": {"amount": 1, "target": 0}}, {"damage": {"amount": 1, "target": 1}}]}
# a creature target and a player target: nothing is legal for both
MIXED = {"name": "Test Mixed Sparks", "real": False, "mana_cost": "{R}", "type_line": "Instant",
         "text": "1 damage to a target creature and 1 damage to a target player.",
         "targets": [{"what": "creature"}, {"what": "player"}],
         "spell": [{"damage": {"amount": 1, "target": 0}}, {"damage": {"amount": 1, "target": 1}}]}


def _bolt(steps):
    return run({"players": AB, "objects": BOLT}, [CAST] + steps)


def test_specified_target_legal_copy_hits_it():
    r = _bolt([{"copy_spell": {"object": "bolt", "new_id": "c", "target": "B"}}, {"resolve": {}}])
    assert r["steps"][1] == {"legal": True}
    assert r["snapshots"]["2"]["stack"] == ["bolt", "c"]
    assert player(r, 3, "B")["life"] == 17 and obj(r, 3, "bears")["zone"] == "battlefield"


def test_specified_target_illegal_no_copy_step_still_legal():
    r = _bolt([{"copy_spell": {"object": "bolt", "new_id": "c", "target": "forest"}}])
    assert r["steps"][1] == {"legal": True}
    assert r["snapshots"]["2"]["stack"] == ["bolt"] and "c" not in r["snapshots"]["2"]["objects"]


def test_specified_target_uses_copy_controller_and_every_target():
    cards = [TWIN]
    setup = {"players": AB, "objects": [{"id": "tw", "card": "Test Twin Sparks", "zone": "hand", "owner": "A"},
                                        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield",
                                         "controller": "B"}]}
    r = run(setup, [{"cast": {"player": "A", "object": "tw", "targets": ["B", "bears"]}},
                    {"copy_spell": {"object": "tw", "new_id": "c", "controller": "B", "target": "A"}},
                    {"resolve": {}}], extra_cards=cards)
    assert obj(r, 2, "c")["controller"] == "B"
    assert player(r, 3, "A")["life"] == 18          # both of the copy's targets became A


def test_specified_target_must_be_legal_for_each_target():
    setup = {"players": AB, "objects": [{"id": "mx", "card": "Test Mixed Sparks", "zone": "hand", "owner": "A"},
                                        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield",
                                         "controller": "B"}]}
    steps = [{"cast": {"player": "A", "object": "mx", "targets": ["bears", "B"]}}]
    for target in ("bears", "B"):
        r = run(setup, steps + [{"copy_spell": {"object": "mx", "new_id": "c", "target": target}}],
                extra_cards=[MIXED])
        assert r["steps"][1]["legal"] and r["snapshots"]["2"]["stack"] == ["mx"]


def test_for_each_in_given_order_skipping_illegal_candidates():
    r = _bolt([{"copy_spell_for_each": {"object": "bolt", "new_ids": {"rogue": "c1", "forest": "c2", "A": "c3"}}},
               {"resolve": {}}, {"resolve": {}}])
    assert r["steps"][1] == {"legal": True}
    assert r["snapshots"]["2"]["stack"] == ["bolt", "c1", "c3"]
    assert "c2" not in r["snapshots"]["2"]["objects"]
    assert player(r, 3, "A")["life"] == 17                      # top copy first
    assert obj(r, 4, "rogue")["zone"] == "graveyard"           # Blackguard 1/3 takes 3


def test_for_each_order_reversed():
    r = _bolt([{"copy_spell_for_each": {"object": "bolt", "new_ids": {"A": "c3", "rogue": "c1"}}}])
    assert r["snapshots"]["2"]["stack"] == ["bolt", "c3", "c1"]


def test_for_each_controller_and_no_legal_candidate():
    r = _bolt([{"copy_spell_for_each": {"object": "bolt", "controller": "B", "new_ids": {"A": "c"}}}])
    assert obj(r, 2, "c")["controller"] == "B" and obj(r, 2, "c")["owner"] == "B"
    r = _bolt([{"copy_spell_for_each": {"object": "bolt", "new_ids": {"forest": "c"}}}])
    assert r["steps"][1] == {"legal": True} and r["snapshots"]["2"]["stack"] == ["bolt"]


@pytest.mark.parametrize("step", [
    {"copy_spell_for_each": {"object": "bears", "new_ids": {"A": "c"}}},
    {"copy_spell": {"object": "bears", "new_id": "c", "target": "A"}}])
def test_not_a_spell_is_invalid_action(step):
    r = _bolt([step])
    assert r["steps"][1] == {"legal": False, "reason": "invalid_action"}


def test_spell_without_targets_is_invalid_action():
    setup = {"players": {"A": {"mana_pool": "{G}"}, "B": {}},
             "objects": [{"id": "elf", "card": "Llanowar Elves", "zone": "hand", "owner": "A"}]}
    for step in ({"copy_spell": {"object": "elf", "new_id": "c", "target": "B"}},
                 {"copy_spell_for_each": {"object": "elf", "new_ids": {"B": "c"}}}):
        r = run(setup, [{"cast": {"player": "A", "object": "elf"}}, step])
        assert r["steps"][1] == {"legal": False, "reason": "invalid_action"}
        assert r["snapshots"]["2"]["stack"] == ["elf"]


@pytest.mark.parametrize("step", [
    {"copy_spell_for_each": {"object": "bolt", "new_ids": {"A": "bears"}}},
    {"copy_spell_for_each": {"object": "bolt", "new_ids": {"A": "c", "B": "c"}}},
    {"copy_spell_for_each": {"object": "bolt", "new_ids": {"ghost": "c"}}},
    {"copy_spell": {"object": "bolt", "new_id": "c", "target": "A", "targets": ["A"]}},
    {"copy_spell": {"object": "bolt", "new_id": "c", "target": "Z"}}])
def test_bad_requests(step):
    with pytest.raises(RequestError):
        _bolt([step])


def _copy_case(step, expect):
    doc = good_case("copy/fixture/for-each")
    doc["steps"].append(step)
    doc["expect"] = expect
    return doc


def test_validate_knows_new_ids_and_checks_candidates(suite_builder):
    ok = _copy_case({"copy_spell_for_each": {"object": "bears", "new_ids": {"B": "c1", "f1": "c2"}}},
                    [{"after": 2, "legal": True, "stack": ["bears", "c1"], "objects": {"c2": {"zone": "gone"}}}])
    suite_builder.case("cases/copy/ok.yaml", ok)
    assert load_suite(suite_builder.root).problems == ()


@pytest.mark.parametrize("step, code, pointer", [
    ({"copy_spell_for_each": {"object": "bears", "new_ids": {"ghost": "c1"}}}, "unknown_object",
     "/steps/1/copy_spell_for_each/new_ids/ghost"),
    ({"copy_spell_for_each": {"object": "bears", "new_ids": {"C": "c1"}}}, "unknown_player",
     "/steps/1/copy_spell_for_each/new_ids/C"),
    ({"copy_spell_for_each": {"object": "bears", "new_ids": {"B": "f1"}}}, "duplicate_object",
     "/steps/1/copy_spell_for_each/new_ids/B"),
    ({"copy_spell": {"object": "bears", "new_id": "c1", "target": "ghost"}}, "unknown_object",
     "/steps/1/copy_spell/target")])
def test_validate_reports_bad_references(suite_builder, step, code, pointer):
    suite_builder.case("cases/copy/bad.yaml", _copy_case(step, [{"after": 2, "legal": True}]))
    [problem] = load_suite(suite_builder.root).problems
    assert (problem.code, problem.pointer) == (code, pointer)


def test_schema_rejects_target_with_targets(suite_builder):
    step = {"copy_spell": {"object": "bears", "new_id": "c1", "target": "B", "targets": ["B"]}}
    suite_builder.case("cases/copy/bad.yaml", _copy_case(step, [{"after": 2, "legal": True}]))
    problems = load_suite(suite_builder.root).problems
    assert problems and all(p.pointer.startswith("/steps/1") for p in problems)
