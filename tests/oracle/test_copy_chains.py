"""Copy chains (707.5, 614.12, 707.9e): a permanent entering as a copy of a permanent that has an
enters-as-copy ability of its own may copy again, only the last copy effect's extra counter
happens; validate requires the feature copy_chains of a case whose `copy` choice is a chain."""
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
