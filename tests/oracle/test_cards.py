"""The oracle reads cards through castrules.model: its card definitions keep the model's ability
and effect types, and the spelled-out forms become the kinds they mean (one spelling for consumers)."""
from __future__ import annotations

from castrules.model.abilities import CastProhibition, CostModifier, ManaTrigger
from castrules.model.effects import EFFECT_TYPES, CreateToken
from castrules.oracle.cards import read_cards, token_def
from castrules.oracle.effects import EFFECTS


def _card(*abilities, **fields):
    doc = {"name": "Test Card", "real": False, "mana_cost": "{1}", "type_line": "Artifact", "text": "t",
           "abilities": list(abilities), **fields}
    return read_cards([doc])["Test Card"]


def test_every_effect_type_of_the_model_has_a_handler():
    # a type missing from the table would resolve as doing nothing, silently
    assert set(EFFECT_TYPES.values()) == set(EFFECTS)


def test_a_spelled_out_cost_increase_applies_to_every_player_by_default():
    (ab,) = _card({"kind": "static", "cost_increase": {"amount": "{1}", "spells": {"types": ["Sorcery"]}}}).abilities
    assert isinstance(ab, CostModifier) and (ab.change, ab.whose, ab.amount) == ("increase", "all", "{1}")


def test_a_spelled_out_cost_reduction_applies_to_its_controller_by_default():
    (ab,) = _card({"kind": "static", "cost_reduction": {"amount": "{1}", "spells": "self"}}).abilities
    assert isinstance(ab, CostModifier) and (ab.change, ab.whose, ab.spells) == ("reduce", "you", "self")


def test_a_spelled_out_prohibition_is_a_cast_prohibition():
    (ab,) = _card({"kind": "static", "cast_prohibition": {"spells": {"types": ["Creature"]},
                                                           "players": "opponents"}}).abilities
    assert isinstance(ab, CastProhibition) and ab.players == "opponents"


def test_a_tapped_for_mana_trigger_watches_whose_permanents_its_filter_says():
    (ab,) = _card({"kind": "triggered", "trigger": {"tapped_for_mana": {"filter": {"types": ["Land"], "controller": "you"},
                                                                        "mana_type": "G"}},
                   "effect": {"add_mana": "{G}"}}).abilities
    assert isinstance(ab, ManaTrigger)
    assert (ab.whose, ab.permanents.controller, ab.permanents.types, ab.produced, ab.to) == ("you", "any", ("Land",), "G", "you")


def test_a_token_has_the_card_fields_and_is_never_real():
    token = token_def(CreateToken(token={"name": "Test Soldier", "type_line": "Creature — Soldier", "power": "1",
                                         "toughness": "1", "colors": ["W"], "real": True}))
    assert (token.name, token.real, token.types, token.subtypes, token.power, token.color_indicator) == (
        "Test Soldier", False, ("Creature",), ("Soldier",), 1, ("W",))


def test_a_card_is_built_once_per_exact_content():
    """The request's entries are built once per name and exact content: the same content again
    finds the same card; content that differs only in a value's type (a list or a
    tuple) is another entry; an entry of types the cache cannot key (a subclass of str) is built
    directly, as the model builds it."""
    from castrules.oracle.cards import _read_cards
    doc = {"name": "Test Bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "text": "", "power": "2", "toughness": "2",
           "real": False, "keywords": ["Trample"]}
    first = read_cards({"Test Bear": dict(doc)})["Test Bear"]
    assert read_cards({"Test Bear": dict(doc)})["Test Bear"] is first
    assert read_cards({"Test Bear": {**doc, "power": "3"}})["Test Bear"].power == 3
    as_tuple = read_cards({"Test Bear": {**doc, "keywords": ("Trample",)}})["Test Bear"]
    assert as_tuple is not first and as_tuple == _read_cards({"Test Bear": {**doc, "keywords": ("Trample",)}})["Test Bear"]

    class Text(str):
        pass
    odd = {**doc, "type_line": Text("Creature — Bear")}
    assert read_cards({"Test Bear": odd})["Test Bear"] == _read_cards({"Test Bear": odd})["Test Bear"]
