"""Every shipped case and card builds into the model; bad documents are named by pointer."""
from __future__ import annotations

import pytest

from castrules.harness import schemas
from castrules.harness.suite import load_suite
from castrules.model import (ABILITY_TYPES, Card, Case, Cast, ModelError, Observations, Request, Result, STEP_TYPES,
                             card_names, observe_points, read_effect, read_message, read_step, request_document,
                             to_document)
from castrules.model.abilities import CostModifier, StaticAbility
from castrules.model.effects import AddMana, LoseLife
from castrules.model.step_base import _BY_KIND
from castrules.model.refs import ObjectRef  # noqa: F401 - named by an annotation below
from castrules.model.vocab import is_player


@pytest.fixture(scope="module")
def suite():
    return load_suite()


def test_every_case_and_card_builds(suite):
    built = [Case.from_document(c.doc, c.file) for c in suite.cases]
    assert len(built) == len(suite.cases) > 700
    kinds = {type(s).kind for c in built for s in c.steps}
    assert kinds <= set(STEP_TYPES) and len(kinds) >= 25
    cards = [Card.from_document(entry) for entry in suite.catalog.cards.values()]
    used = {type(a).kind for card in cards for a in card.abilities}
    assert used <= set(ABILITY_TYPES) and "mana" in used


def test_step_types_lists_every_step_kind_read_step_knows():
    """`read_step` knows a kind by its class being defined (step_base); STEP_TYPES is the one list."""
    assert dict(STEP_TYPES) == _BY_KIND


def test_round_trip_of_every_case(suite):
    for c in suite.cases:
        built = Case.from_document(c.doc, c.file)
        assert Case.from_document(to_document(built)) == built, c.id


def test_request_and_observe_points(suite):
    case = next(c for c in suite.cases if any("melded_with" in o for o in c.doc["setup"].get("objects", [])))
    model = Case.from_document(case.doc)
    doc = request_document(case.doc, suite.catalog.subset(model.setup.card_names()), model.observe_points())
    assert "expect" not in doc["case"] and "why" not in doc["case"]
    request = Request.from_document(doc)
    assert set(request.cards) == model.setup.card_names() and len(request.cards) >= 2
    assert schemas.def_errors("protocol", "run", {"type": "run", "seq": 0, "request": doc}) == []
    bad = {**doc, "case": {**doc["case"], "expect": []}}
    assert schemas.def_errors("protocol", "run", {"type": "run", "seq": 0, "request": bad})


def test_the_document_readers_of_a_request_agree_with_the_model_on_every_case(suite):
    """The harness reads the cards and the observe points of a case from its document, without
    building the typed case: both readers give what the model gives, case by case."""
    wanting = 0
    for c in suite.cases:
        built = Case.from_document(c.doc, c.file)
        assert observe_points(c.doc) == built.observe_points(), c.id
        assert card_names(c.doc) == built.setup.card_names(), c.id
        wanting += bool(built.observe_points())
    assert wanting > len(suite.cases) // 2
    final = {"id": "x", "steps": [{}, {}], "expect": [{"after": "final", "stack": []}, {"after": 1, "legal": True},
                                                      {"after": 0, "players": {}}]}
    assert observe_points(final) == (0, 2)


def test_cast_reads_every_choice():
    step = read_step({"cast": {"player": "A", "object": "c", "from": "graveyard", "alternative_cost": "prowl",
                               "mana_abilities": [{"object": "land", "produce": "G"}], "x": 2}})
    assert isinstance(step, Cast) and step.from_zone == "graveyard" and step.alternative_cost == ("prowl",)
    assert step.mana_abilities[0].produce == "G" and not step.auto_pay and step.x == 2


@pytest.mark.parametrize("doc, pointer", [
    ({"cast": {"player": "A"}}, "/cast"),
    ({"cast": {"player": "A", "object": "c", "x": "two"}}, "/cast/x"),
    ({"shuffle": {}}, ""),
    ({"attack": {"player": "A", "attackers": ["a"], "defender": "B", "extra": 1}}, "/attack"),
])
def test_bad_steps_name_the_place(doc, pointer):
    with pytest.raises(ModelError) as info:
        read_step(doc)
    assert info.value.pointer == pointer


def test_effect_shorthands_and_static_abilities():
    assert read_effect({"lose_life": 1, "player": "each_opponent"}) == LoseLife(amount=1, player="each_opponent")
    assert read_effect({"add_mana": "{R}", "to": "target"}) == AddMana(mana="{R}", player="target:0")
    static = StaticAbility.from_document({"kind": "static", "cost_increase": {"amount": "{1}", "spells": "self"}})
    assert static.cost_increase.spells == "self"
    mod = CostModifier.from_document({"kind": "cost_modifier", "change": "reduce", "amount": "{1}",
                                      "spells": {"type": "Creature"}, "while": "untapped"})
    assert mod.while_ == "untapped" and mod.spells.all_types == ("Creature",)


def test_results_and_messages():
    reply = {"status": "ok", "steps": [{"legal": False, "reason": "wrong_timing", "vendor": 1}],
             "snapshots": {"0": {"players": {"A": {"life": 20}}, "objects": {}, "stack": []}}}
    result = Result.from_document(reply)
    assert isinstance(result, Observations) and result.steps[0].reason == "wrong_timing"
    assert result.snapshot(0).players["A"].life == 20
    hello = read_message({"type": "hello", "protocol": 1, "engine": {"name": "e", "version": "1"},
                          "features": ["casting"]}, from_engine=True)
    assert hello.engine.name == "e" and hello.features == ("casting",)


def test_a_capital_letter_is_a_player():
    assert is_player("A") and is_player("Bob") and not is_player("bear") and not is_player("") and not is_player(3)


def test_an_effects_player_reads_as_its_typed_choice():
    from castrules.model.effects import EachOpponent, TargetPlayer, TargetsController, You, read_player

    assert [read_player(r) for r in (None, "you", "each_opponent", "target:0", "target_controller:2")] == [
        You(), You(), EachOpponent(), TargetPlayer(0), TargetsController(2)]
    assert read_effect({"lose_life": 1, "player": "each_opponent"}).who == EachOpponent()
    with pytest.raises(ModelError, match="unknown effect player"):
        read_player("target:first")


def _models(value):
    """Every model value inside ``value`` (itself included)."""
    import dataclasses
    from castrules.model.build import Model
    if isinstance(value, Model):
        yield value
        for f in dataclasses.fields(value):
            yield from _models(getattr(value, f.name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _models(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _models(item)


def test_values_built_without_init_are_what_init_builds(suite):
    """The reader fills a plain model class's fields directly (no call per field): every value it
    builds equals, field for field and in the same order, the one its ``__init__`` builds."""
    import dataclasses
    seen = set()
    for c in suite.cases:
        for value in _models(Case.from_document(c.doc, c.file)):
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            rebuilt = type(value)(**fields)
            assert rebuilt == value and list(vars(rebuilt).items()) == list(vars(value).items()), type(value)
            seen.add(type(value))
    assert len(seen) >= 20


def _typed(value):
    """A value with every type spelled out, so equal values of different types differ."""
    import dataclasses
    if dataclasses.is_dataclass(value):
        return (type(value), tuple((f.name, _typed(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_typed(v) for v in value))
    if isinstance(value, dict):
        return (type(value), tuple((k, _typed(v)) for k, v in value.items()))
    return (type(value), value)


def test_shortcuts_build_what_the_converters_build(suite, monkeypatch):
    """``build`` takes a document's exact scalars and enum spellings without calling the field's
    converter: every case and card builds, type for type, what the converters alone build."""
    from castrules.model.build import Model
    cases = [Case.from_document(c.doc, c.file) for c in suite.cases]
    cards = [Card.from_document(entry) for entry in suite.catalog.cards.values()]
    steps = [read_step(s) for c in suite.cases for s in c.doc.get("steps", ())]
    assert any(exact or members for plan in Model.__plans__.values() for *_, exact, members in plan)
    slow = {cls: tuple((*entry[:4], frozenset(), None) for entry in plan) for cls, plan in Model.__plans__.items()}
    monkeypatch.setattr(Model, "__plans__", slow)
    assert [_typed(Case.from_document(c.doc, c.file)) for c in suite.cases] == [_typed(c) for c in cases]
    assert [_typed(Card.from_document(e)) for e in suite.catalog.cards.values()] == [_typed(c) for c in cards]
    assert [_typed(read_step(s)) for c in suite.cases for s in c.doc.get("steps", ())] == [_typed(s) for s in steps]


def _model_classes():
    """Every model class castrules defines (the model's, the oracle's and the harness's)."""
    import importlib
    import pkgutil

    import castrules.model
    from castrules.model.build import Model
    for info in pkgutil.iter_modules(castrules.model.__path__):
        importlib.import_module(f"castrules.model.{info.name}")
    importlib.import_module("castrules.oracle.engine")
    found, todo = set(), [Model]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__qualname__}")


def test_field_hints_are_what_get_type_hints_gives_every_model_class():
    """A plan's types come from ``field_hints`` (each annotation text evaluated once per module):
    for every model class, field for field and in order, what ``typing.get_type_hints`` gives; and
    a plain ``__init__``'s parameters are read from its code as ``inspect.signature`` reads them."""
    import dataclasses
    import inspect
    import typing
    from castrules.model.build import _parameters, field_hints
    classes = [c for c in _model_classes() if dataclasses.is_dataclass(c)]
    assert len(classes) > 100
    for cls in classes:
        every = typing.get_type_hints(cls)
        assert list(field_hints(cls).items()) == [(f.name, every[f.name]) for f in dataclasses.fields(cls)], cls
        assert _parameters(cls.__init__) == set(inspect.signature(cls.__init__).parameters), cls


def test_field_hints_look_in_the_class_before_the_builtins_as_get_type_hints_does():
    """A name the module lacks and the class defines names the class's value (here ``str`` and
    ``Kind`` are the class's); a text that names an ``Annotated`` alias gets its type stripped."""
    import dataclasses
    import typing
    from castrules.model.build import Model, field_hints

    @dataclasses.dataclass(frozen=True)
    class Odd(Model):
        Kind = int
        str = bool
        a: Kind = 0
        b: str = False
        c: ObjectRef | None = None     # noqa: F821 - the module's name below

    assert field_hints(Odd) == {"a": int, "b": bool, "c": str | None}
    assert {k: v for k, v in typing.get_type_hints(Odd).items() if k != "__plans__"} == field_hints(Odd)


def test_field_hints_follow_a_reloaded_module(tmp_path, monkeypatch):
    """A module reloaded into the same namespace binds its names to new classes: the hints name
    those, as typing.get_type_hints does (found by the session 9 review)."""
    import importlib
    import sys
    import typing

    from castrules.model.build import field_hints

    (tmp_path / "reloaded_model_mod.py").write_text(
        "from __future__ import annotations\nfrom dataclasses import dataclass\nfrom castrules.model.build import Model\n"
        "@dataclass(frozen=True)\nclass Inner(Model):\n    n: int\n"
        "@dataclass(frozen=True)\nclass Outer(Model):\n    inner: Inner\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("reloaded_model_mod")
    try:
        module.Outer.from_document({"inner": {"n": 1}})
        module = importlib.reload(module)
        assert field_hints(module.Outer)["inner"] is typing.get_type_hints(module.Outer)["inner"] is module.Inner
        assert isinstance(module.Outer.from_document({"inner": {"n": 1}}).inner, module.Inner)
    finally:
        sys.modules.pop("reloaded_model_mod", None)
