"""The comparison behind test_contract.py: the schemas' format against the model's types."""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from castrules.model import abilities, cards, case, effects, observations, parts, protocol, request, steps

Schema = Mapping[str, Any]


def _resolve(schema: Schema, node: Any) -> Any:
    """Follow local `#/$defs/...` references."""
    while isinstance(node, Mapping) and isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    return node


def _object_keys(schema: Schema, node: Any) -> set[str] | None:
    """The property names of an object schema (through references), or None if not an object."""
    node = _resolve(schema, node)
    if isinstance(node, Mapping) and ("properties" in node or node.get("type") == "object"):
        return set(node.get("properties", {}))
    return None


def _same(what: str, in_schema: set[str], in_model: set[str]) -> Iterator[str]:
    for k in sorted(in_schema - in_model):
        yield f"{what}: {k!r} is in the schema but not in the model"
    for k in sorted(in_model - in_schema):
        yield f"{what}: {k!r} is in the model but not in the schema"


def _fields(what: str, schema: Schema, node: Any, model: type, ignore: set[str] = frozenset()) -> Iterator[str]:
    keys = _object_keys(schema, node)
    if keys is None:
        yield f"{what}: the schema gives no properties"
        return
    yield from _same(what, keys - ignore, set(model.document_keys()) - ignore)


def case_mismatches(schema: Schema) -> Iterator[str]:
    """Steps (every kind and its fields, the cast's fields), setup and expectations."""
    defs = schema["$defs"]
    step_props = defs["step"]["properties"]
    yield from _same("step kinds", set(step_props), set(steps.STEP_TYPES))
    for kind in set(step_props) & set(steps.STEP_TYPES):
        yield from _fields(f"step {kind}", schema, step_props[kind], steps.STEP_TYPES[kind])
    yield from _fields("cast", schema, defs["cast"], steps.Cast)
    yield from _fields("mana_activation", schema, defs["mana_activation"], steps.ManaActivation)
    yield from _fields("cast reductions", schema, defs["cast"]["properties"]["reductions"]["items"], steps.Reduction)
    yield from _fields("setup", schema, defs["setup"], case.Setup)
    yield from _fields("setup player", schema, defs["setup"]["properties"]["players"]["additionalProperties"],
                       case.PlayerSetup)
    yield from _fields("setup turn", schema, defs["setup"]["properties"]["turn"], case.TurnSetup)
    yield from _fields("setup choices", schema, defs["setup"]["properties"]["choices"]["additionalProperties"],
                       case.SetupChoice)
    yield from _fields("setup object", schema, defs["setup_object"], case.SetupObject)
    yield from _fields("ruling", schema, defs["ruling"], case.Ruling)
    yield from _fields("matrix cell", schema, defs["matrix_cell"], case.MatrixCell)
    yield from _fields("expectation", schema, defs["expectation"], case.Expectation)
    yield from _fields("expected player", schema,
                       defs["expectation"]["properties"]["players"]["additionalProperties"], case.PlayerExpectation)
    yield from _fields("object expectation", schema, defs["object_expectation"], case.ObjectExpectation)
    yield from _fields("case", schema, schema, case.Case)
    yield from _fields("request case", schema, defs["request_case"], case.PublicCase)
    hidden = set(schema["properties"]) - set(defs["request_case"]["properties"])
    yield from _same("hidden fields", hidden, set(case.HIDDEN_FIELDS))


def card_mismatches(schema: Schema) -> Iterator[str]:
    """The card, its faces and parts, every ability kind and every effect kind with their fields."""
    defs = schema["$defs"]
    yield from _fields("card", schema, schema, cards.Card)
    yield from _fields("face", schema, defs["face"], cards.Face)
    yield from _fields("filter", schema, defs["filter"], parts.Filter)
    yield from _fields("target", schema, defs["target"], parts.TargetSpec)
    yield from _fields("ability_cost", schema, defs["ability_cost"], parts.AbilityCost)
    produce = [_object_keys(schema, alt) for alt in defs["produce"]["oneOf"]]
    model_produce = [set(t.document_keys()) for t in (parts.ProduceOneOf, parts.ProduceCouldProduce,
                                                      parts.ProducePower)]
    yield from _same("produce shapes", {",".join(sorted(k)) for k in produce if k},
                     {",".join(sorted(k)) for k in model_produce})
    props = schema["properties"]
    yield from _fields("prototype", schema, props["prototype"], cards.PrototypeFace)
    yield from _fields("alternative cost", schema, props["alternative_costs"]["items"], cards.AlternativeCost)
    yield from _fields("suspend", schema, props["suspend"], cards.Suspend)
    yield from _fields("additional cost", schema, props["additional_costs"]["items"], cards.AdditionalCost)
    for keyword in ("entwine", "escalate"):      # a keyword cost paid with objects is an object cost too
        yield from _fields(f"{keyword} object cost", schema, props[keyword]["oneOf"][1], cards.AdditionalCost)
    yield from _fields("modes", schema, props["modes"], cards.Modes)
    yield from _fields("meld", schema, props["meld"], cards.Meld)
    text_x = set().union(*(_object_keys(schema, alt) or set() for alt in props["text_x"]["oneOf"]))
    yield from _same("text_x", text_x, set(cards.TextX.document_keys()))
    kinds = {alt["properties"]["kind"]["const"]: alt for alt in defs["ability"]["oneOf"]}
    yield from _same("ability kinds", set(kinds), set(abilities.ABILITY_TYPES))
    for kind in set(kinds) & set(abilities.ABILITY_TYPES):
        yield from _fields(f"ability {kind}", schema, kinds[kind], abilities.ABILITY_TYPES[kind])
    effect_props = defs["effect"]["properties"]
    named = {k for k in effect_props if k not in effects.EFFECT_PARAMETERS}
    yield from _same("effect kinds", named, set(effects.EFFECT_TYPES))
    for kind in named & set(effects.EFFECT_TYPES):
        node = effect_props[kind]
        body = next((a for a in node.get("oneOf", [node]) if _object_keys(schema, a) is not None), None)
        yield from _fields(f"effect {kind}", schema, body, effects.EFFECT_TYPES[kind])


def protocol_mismatches(schema: Schema) -> Iterator[str]:
    """Messages, the request and every observation field."""
    defs = schema["$defs"]
    for name, model in (("hello_request", protocol.Hello), ("hello_reply", protocol.HelloReply),
                        ("refuse", protocol.Refuse), ("run", protocol.Run), ("result_message", protocol.ResultMessage),
                        ("stop", protocol.Stop)):
        yield from _fields(f"message {name}", schema, defs[name], model, ignore={"type"})
        if defs[name]["properties"]["type"].get("const") != model.type:
            yield f"message {name}: type {defs[name]['properties']['type'].get('const')!r} vs {model.type!r}"
    yield from _fields("engine", schema, defs["hello_reply"]["properties"]["engine"], protocol.EngineInfo)
    yield from _fields("request", schema, defs["request"], request.Request)
    for name, model in (("observations", observations.Observations), ("skipped", observations.Skipped),
                        ("errored", observations.Errored)):
        yield from _fields(f"result {name}", schema, defs[name], model, ignore={"status"})
        if defs[name]["properties"]["status"].get("const") != model.status:
            yield f"result {name}: status differs"
    yield from _fields("step result", schema, defs["step_result"], observations.StepResult)
    yield from _fields("snapshot", schema, defs["snapshot"], observations.Snapshot)


def observed_object_mismatches(case_schema: Schema) -> Iterator[str]:
    """An observed object offers every field an expectation may look at, and no other."""
    yield from _fields("observed object", case_schema, case_schema["$defs"]["object_expectation"],
                       observations.ObservedObject)
    yield from _fields("observed player", case_schema,
                       case_schema["$defs"]["expectation"]["properties"]["players"]["additionalProperties"],
                       observations.ObservedPlayer)


def mismatches(case_schema: Schema, card_schema: Schema, protocol_schema: Schema) -> list[str]:
    """Every difference between the three schemas and the model (empty: they agree)."""
    return [*case_mismatches(case_schema), *card_mismatches(card_schema), *protocol_mismatches(protocol_schema),
            *observed_object_mismatches(case_schema)]
