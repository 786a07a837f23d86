"""Copy chains (707.5, 614.12, 707.9e, 707.9g): a permanent entering as a copy of something with an
enters-as-copy ability of its own may copy again, and only the last copy effect's extra counter
happens and linked trigger triggers (Superior Spider-Man's exile); validate requires copy_chains
of a case whose `copy` choice is a chain, and copy_linked_triggers of one with Spider-Man."""
from __future__ import annotations

import json

from castrules.harness.checks import check_case
from castrules.harness.suite import shared_suite
from oracle_helpers import obj, run

SUITE = shared_suite()
CHAIN = "copy/exceptions/spark-double-then-gargantuan-copying-bears-loses-the-counter"
ISLANDS = [{"id": f"i{n}", "card": "Island", "zone": "battlefield", "controller": "A"} for n in range(1, 5)]


def _setup() -> dict:
    return {"players": {"A": {}, "B": {}}, "turn": {"active": "A", "step": "precombat_main"},
            "objects": [{"id": "garg", "card": "Quicksilver Gargantuan", "zone": "battlefield", "controller": "A"},
                        {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"},
                        {"id": "double", "card": "Spark Double", "zone": "hand", "owner": "A"}, *ISLANDS]}


def _cast_and_resolve(copy) -> dict:
    cast = {"cast": {"player": "A", "object": "double", "mana_abilities": [{"object": i["id"]} for i in ISLANDS]}}
    return run(_setup(), [cast, {"resolve": {"choices": {"copy": copy}}}])


def test_a_chain_past_the_last_enters_as_copy_ability_is_illegal():
    # the Double copying the Bears has no enters-as-copy ability left to copy the Gargantuan with
    result = _cast_and_resolve(["bears", "garg"])
    assert result["steps"][1]["legal"] is False and result["steps"][1]["reason"] == "invalid_action"


def test_a_one_link_list_is_the_same_as_one_name():
    assert obj(_cast_and_resolve(["bears"]), 2, "double") == obj(_cast_and_resolve("bears"), 2, "double")


def test_the_second_link_reads_the_ability_the_first_copy_gained():
    double = obj(_cast_and_resolve(["garg", "bears"]), 2, "double")
    assert (double["name"], double["power"], double["counters"]) == ("Grizzly Bears", 7, {})


def test_a_chain_in_a_case_needs_copy_chains():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases if c.id == CHAIN).doc))
    doc["features"].remove("copy_chains")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/steps/1/resolve/choices/copy"] and "copy_chains" in found[0].message


SPIDEY_LANDS = [{"id": "i1", "card": "Island", "zone": "battlefield", "controller": "A"},
                {"id": "i2", "card": "Island", "zone": "battlefield", "controller": "A"},
                {"id": "s1", "card": "Swamp", "zone": "battlefield", "controller": "A"},
                {"id": "s2", "card": "Swamp", "zone": "battlefield", "controller": "A"}]


def _spidey(copy, *more) -> dict:
    setup = {"players": {"A": {}, "B": {}}, "turn": {"active": "A", "step": "precombat_main"},
             "objects": [{"id": "gbears", "card": "Grizzly Bears", "zone": "graveyard", "owner": "B"},
                         {"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "B"},
                         {"id": "spidey", "card": "Superior Spider-Man", "zone": "hand", "owner": "A"}, *SPIDEY_LANDS]}
    cast = {"cast": {"player": "A", "object": "spidey", "mana_abilities": [{"object": i["id"]} for i in SPIDEY_LANDS]}}
    return run(setup, [cast, {"resolve": {"choices": {"copy": copy}}}, *more])


def test_superior_spider_man_copies_only_a_card_in_a_graveyard():
    result = _spidey("bears")
    assert result["steps"][1]["legal"] is False and result["steps"][1]["reason"] == "invalid_action"


def test_the_linked_trigger_exiles_nothing_once_the_card_is_a_new_object():
    # the Bears card returned to the battlefield before the trigger resolves is a new object (400.7)
    result = _spidey("gbears", {"return_to_battlefield": {"object": "gbears"}}, {"resolve": {}})
    assert obj(result, 4, "gbears")["zone"] == "battlefield" and result["steps"][3]["legal"] is True


def test_a_case_with_superior_spider_man_needs_copy_linked_triggers():
    doc = json.loads(json.dumps(next(c for c in SUITE.cases
                                     if c.id == "copy/linked-trigger/superior-spider-man-copying-bears-card-exiles-it").doc))
    doc["features"].remove("copy_linked_triggers")
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/setup/objects/1/card"] and "copy_linked_triggers" in found[0].message
