"""The model and the schemas describe the same format (issue 11): every step kind, cast field,
ability kind, effect kind and observation field of the schemas has its model type or field,
and the other way round."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from model_contract import mismatches

SCHEMA = Path(__file__).resolve().parents[2] / "schema"


def _schemas() -> tuple[dict, dict, dict]:
    return tuple(json.loads((SCHEMA / f"{n}.schema.json").read_text(encoding="utf-8"))
                 for n in ("case", "card", "protocol"))  # type: ignore[return-value]


def test_model_and_schemas_agree():
    assert mismatches(*_schemas()) == []


def test_a_step_kind_in_the_schema_alone_is_caught():
    case, card, protocol = _schemas()
    patched = copy.deepcopy(case)
    patched["$defs"]["step"]["properties"]["shuffle"] = {"type": "object", "properties": {"player": {}}}
    assert mismatches(patched, card, protocol) == ["step kinds: 'shuffle' is in the schema but not in the model"]


@pytest.mark.parametrize("where, key, expected", [
    (("$defs", "cast", "properties"), "foretell", "cast: 'foretell' is in the schema but not in the model"),
    (("$defs", "object_expectation", "properties"), "loyalty",
     "object expectation: 'loyalty' is in the schema but not in the model"),
])
def test_a_case_field_in_the_schema_alone_is_caught(where, key, expected):
    case, card, protocol = _schemas()
    node = case
    for part in where:
        node = node[part]
    node[key] = {"type": "boolean"}
    assert expected in mismatches(case, card, protocol)


def test_an_ability_or_effect_kind_in_the_schema_alone_is_caught():
    case, card, protocol = _schemas()
    card["$defs"]["ability"]["oneOf"].append({"properties": {"kind": {"const": "ward"}}})
    card["$defs"]["effect"]["properties"]["scry"] = {"type": "object", "properties": {"amount": {}}}
    found = mismatches(case, card, protocol)
    assert "ability kinds: 'ward' is in the schema but not in the model" in found
    assert "effect kinds: 'scry' is in the schema but not in the model" in found


def test_an_observation_field_removed_from_the_schema_is_caught():
    case, card, protocol = _schemas()
    del protocol["$defs"]["step_result"]["properties"]["life_paid"]
    assert mismatches(case, card, protocol) == ["step result: 'life_paid' is in the model but not in the schema"]
