"""The model's reference roles (castrules.model.refs) and the case schema's `object_id`, `player`
and `ref` strings agree for every field of every step kind, nested values included: the checks
that every name a step uses exists walk the model's roles, so a field the schema types as a
reference but the model types as a plain string would go unchecked."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Mapping

from castrules.model.refs import RefRole, ref_fields
from castrules.model.steps import STEP_TYPES

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schema" / "case.schema.json").read_text(encoding="utf-8"))
SCHEMA_ROLE = {"object_id": RefRole.OBJECT, "player": RefRole.PLAYER, "ref": RefRole.EITHER}


def _resolve(schema: Mapping, node: Any) -> Any:
    while isinstance(node, Mapping) and str(node.get("$ref", "")).startswith("#/$defs/"):
        name = node["$ref"].split("/")[-1]
        if name in SCHEMA_ROLE:
            return node
        node = schema["$defs"][name]
    return node


def _role(node: Any) -> RefRole | None:
    ref = node.get("$ref", "") if isinstance(node, Mapping) else ""
    return SCHEMA_ROLE.get(ref.split("/")[-1]) if ref.startswith("#/$defs/") else None


def _schema_shape(schema: Mapping, node: Any) -> tuple:
    """What a property names as (value role, key role, nested properties), read from the schema."""
    node = _resolve(schema, node)
    if _role(node):
        return (_role(node), None, None)
    if node.get("type") == "array":
        items = _resolve(schema, node.get("items", {}))
        return (_role(items), None, items if "properties" in items else None)
    if "propertyNames" in node or isinstance(node.get("additionalProperties"), Mapping):
        return (_role(node.get("additionalProperties")), _role(node.get("propertyNames")), None)
    return (None, None, node if "properties" in node else None)


def mismatches(schema: Mapping, where: str, node: Any, model: type) -> list[str]:
    """Every field whose reference role differs between the schema node and the model type."""
    props = _resolve(schema, node).get("properties", {})
    fields = {f.key: f for f in ref_fields(model)}
    found = []
    for key, sub in props.items():
        role, key_role, nested = _schema_shape(schema, sub)
        field = fields.get(key)
        got = (None, None) if field is None else (
            RefRole.OBJECT if field.role in (RefRole.NEW_OBJECT, RefRole.ABILITY) else field.role, field.key_role)
        if (role, key_role) != got:
            found.append(f"{where}.{key}: the schema names {(role, key_role)}, the model {got}")
        if nested is not None and field is not None and field.nested is not None:
            found += mismatches(schema, f"{where}.{key}", nested, field.nested)
        elif nested is not None and _names_anything(schema, nested):
            found.append(f"{where}.{key}: the schema nests references the model does not walk")
    return found


def _names_anything(schema: Mapping, node: Any) -> bool:
    return any(_schema_shape(schema, sub)[:2] != (None, None) for sub in node.get("properties", {}).values())


def all_mismatches(schema: Mapping) -> list[str]:
    steps = schema["$defs"]["step"]["properties"]
    return [m for kind, node in steps.items() if kind in STEP_TYPES
            for m in mismatches(schema, kind, node, STEP_TYPES[kind])]


def test_every_reference_of_every_step_has_its_role_in_the_model():
    assert all_mismatches(SCHEMA) == []


def test_a_reference_the_model_types_as_a_plain_string_is_caught():
    patched = copy.deepcopy(SCHEMA)
    patched["$defs"]["cast"]["properties"]["hybrid"] = {"type": "array", "items": {"$ref": "#/$defs/object_id"}}
    patched["$defs"]["mana_activation"]["properties"]["produce"] = {"$ref": "#/$defs/player"}
    found = all_mismatches(patched)
    assert any(m.startswith("cast.hybrid:") for m in found)
    assert any(m.startswith("cast.mana_abilities.produce:") for m in found)


def test_roles_read_from_the_model():
    cast = {f.key: f for f in ref_fields(STEP_TYPES["cast"])}
    assert cast["player"].role is RefRole.PLAYER and cast["object"].role is RefRole.OBJECT
    assert cast["targets"].many and cast["targets"].role is RefRole.EITHER
    assert cast["division"].mapping and cast["division"].key_role is RefRole.EITHER and cast["division"].role is None
    assert cast["mana_abilities"].nested is not None and cast["mana_abilities"].many
    for_each = {f.key: f for f in ref_fields(STEP_TYPES["copy_spell_for_each"])}["new_ids"]
    assert (for_each.key_role, for_each.role) == (RefRole.EITHER, RefRole.NEW_OBJECT)
