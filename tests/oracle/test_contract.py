"""The engine contract of docs/case-format.md, the Reason enum and the catalog schema."""
import json

import jsonschema
import pytest
import yaml

from oracle_helpers import ROOT, catalog, run
from castrules.oracle import OracleEngine, Reason, __version__
from castrules.oracle.errors import RequestError


def test_reason_enum_matches_reasons_json():
    data = json.loads((ROOT / "schema" / "reasons.json").read_text())["reasons"]
    assert {r.value for r in Reason} == set(data)
    for r in Reason:
        assert list(r.substeps) == data[r.value]["substeps"]


def test_engine_identity_and_features():
    e = OracleEngine()
    assert e.name == "castrules-oracle" and e.version == __version__ == "0.1.0"
    declared = set(yaml.safe_load((ROOT / "cases" / "features.yaml").read_text()))
    assert e.features <= declared
    assert "prowl" in e.features and "prototype" in e.features


def test_catalog_validates_against_card_schema():
    schema = json.loads((ROOT / "schema" / "card.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://castrules.dev/schema/v1/card.schema.json"
    v = jsonschema.Draft202012Validator(schema)
    entries = yaml.safe_load((ROOT / "cases" / "catalog" / "cards.yaml").read_text())
    errors = [(c["name"], e.message) for c in entries for e in v.iter_errors(c)]
    assert errors == []
    assert len({c["name"] for c in entries}) == len(entries)


def test_schema_catches_typos():
    schema = json.loads((ROOT / "schema" / "card.schema.json").read_text())
    v = jsonschema.Draft202012Validator(schema)
    card = {"name": "Test X", "real": False, "mana_cost": None, "type_line": "Land", "text": "t",
            "abilities": [{"kind": "mana", "cost": {"tapp": True}, "add": "{G}"}]}
    assert list(v.iter_errors(card))
    card["abilities"] = [{"kind": "mana", "cost": {"tap": True}, "add": "{G}"}]
    assert not list(v.iter_errors(card))
    card["spel"] = []
    assert list(v.iter_errors(card))


CARDS_MD = ROOT.parent / "shared" / "reference" / "cards.md"


@pytest.mark.skipif(not CARDS_MD.exists(), reason="the reference card facts (../shared/reference/cards.md) are not beside this checkout")
def test_every_card_of_cards_md_is_in_the_catalog():
    text = CARDS_MD.read_text()
    names = set()
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| card") and not line.startswith("|---"):
            name = line.split("|")[1].strip()
            name = name.split(" (")[0].strip()
            if name and name != "Basic lands":
                names.add(name)
    missing = names - set(catalog())
    assert not missing
    for basic in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes"):
        assert basic in catalog()


def test_result_shape_and_snapshot_zero():
    r = run({"players": {"A": {"mana_pool": "{R}"}, "B": {}},
             "objects": [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}], observe=[0, 1])
    assert r["status"] == "ok" and len(r["steps"]) == 1
    assert r["steps"][0] == {"legal": True, "total_cost": "{R}", "life_paid": 0}
    snap0 = r["snapshots"]["0"]
    assert snap0["players"]["A"] == {"life": 20, "mana_pool": "{R}", "in_game": True}
    bolt = snap0["objects"]["bolt"]
    assert bolt["mana_cost"] == "{R}" and bolt["mana_value"] == 1 and bolt["colors"] == ["R"]
    assert bolt["types"] == ["Instant"] and bolt["power"] is None
    assert r["snapshots"]["1"]["stack"] == ["bolt"]
    assert all({"step", "rule", "note"} <= set(t) for t in r["trace"])


@pytest.mark.parametrize("steps", [[{"fly": {}}], [{"destroy": {"object": "nope"}}],
                                   [{"cast": {"player": "Z", "object": "bolt"}}]])
def test_bad_requests_raise_value_errors(steps):
    with pytest.raises(ValueError):
        run({"players": {"A": {}}, "objects": [{"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}]}, steps)


def test_unknown_card_is_a_request_error():
    with pytest.raises(RequestError):
        OracleEngine().run({"case": {"id": "x/y", "setup": {"players": {"A": {}}, "objects": [
            {"id": "a", "card": "No Such Card", "zone": "hand"}]}, "steps": []}, "cards": {}, "observe": []})


def test_explain_is_readable():
    req = {"case": {"id": "x/y", "setup": {"players": {"A": {"mana_pool": "{R}"}, "B": {}}, "objects": [
        {"id": "bolt", "card": "Lightning Bolt", "zone": "hand"}]},
        "steps": [{"cast": {"player": "A", "object": "bolt", "targets": ["B"]}}]},
        "cards": {"Lightning Bolt": catalog()["Lightning Bolt"]}, "observe": []}
    lines = OracleEngine().explain(req)
    assert any("locked in" in l for l in lines) and lines[-1].startswith("step 1: legal")
