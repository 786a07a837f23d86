"""What part of a card ties a case to a feature: `CARD_FEATURES`, the one table from an ability's
or an effect's kind, a field of one, or what a cost modifier counts, to the feature every case
holding such a card must list (checked by `castrules.harness.feature_checks`, and listed by the
case generator, `castrules.harness.generate`), and the reading of a catalog card into those parts."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Iterator


class CardPart(enum.Enum):
    """What part of a card a `CARD_FEATURES` key names."""

    ABILITY = "ability"             # an ability's kind: `{kind: cost_set}` is `cost_set`
    EFFECT = "effect"               # an effect's kind, in a spell or an ability: `{cast_free: {...}}` is `cast_free`
    FIELD = "field"                 # a field set in an ability or an effect, named after its kind: `static.abilities_of`,
                                    # `create_token.for_each`, `enters_as_copy.except.creature_counter`, `cast_free.from.library`
    COUNT = "cost modifier count"   # what a cost modifier counts (`per`, 601.2f): `opponents`


# What a card set up in a case uses -> the feature the case must list (wherever the card is set up).
# Only exact ties: an engine without the feature cannot build a card with that part, and every case
# holding such a card needs it. Left out on purpose, because an honest case may hold the card where
# its part plays no role (a Trinisphere or a Thalia in a hand to read its mana value, a Painter's
# Servant or a Doomed Traveler in a graveyard to be counted, a Mana Leak or a K'rrik whose effect
# never happens, an Eldrazi Temple whose mana only casts spells): cost_modifier's increase and reduce,
# cost_floor, add_color, type_change, define_pt, triggered abilities, counter's unless_pays,
# cast_permission (any_type; not during/per_turn), a mana ability's spending restrictions; the keywords a
# cast step's own field asks for (delve, improvise, life_for_mana, awaken: observations.yaml); and
# grant_flashback and enchanted_copy, which the checks above tie to the cast that needs them.
CARD_FEATURES: Mapping[tuple[CardPart, str], str] = {
    (CardPart.ABILITY, "cost_set"): "cost_set",
    (CardPart.ABILITY, "cast_prohibition"): "cast_prohibitions",
    (CardPart.ABILITY, "animate_all"): "animated_artifacts",
    (CardPart.ABILITY, "flash_permission"): "flash_permission",
    (CardPart.ABILITY, "conditional_flash"): "flash_permission",
    (CardPart.ABILITY, "exile_instead_of_graveyard"): "exile_instead_of_graveyard",
    (CardPart.ABILITY, "grant_ability"): "gained_abilities",
    (CardPart.ABILITY, "mana_replacement"): "mana_replacement",
    (CardPart.ABILITY, "mana_trigger"): "mana_trigger",
    (CardPart.ABILITY, "spend_as_any_type"): "any_type_mana",
    (CardPart.EFFECT, "cast_free"): "cast_free",
    (CardPart.EFFECT, "graveyard_casting"): "graveyard_casting",
    (CardPart.EFFECT, "cast_if_able"): "cast_if_able",
    (CardPart.EFFECT, "cast_copy"): "cast_copy",
    (CardPart.EFFECT, "drain_mana"): "drain_mana",
    (CardPart.EFFECT, "delayed"): "delayed_triggers",
    (CardPart.EFFECT, "set_base_pt"): "base_power",
    (CardPart.EFFECT, "become_color"): "color_change",
    (CardPart.FIELD, "static.cast_prohibition"): "cast_prohibitions",
    (CardPart.FIELD, "static.abilities_of"): "borrowed_abilities",
    (CardPart.FIELD, "static.activation_any_color"): "activation_any_colour",
    (CardPart.FIELD, "static.activation_cost_increase"): "activation_cost_increase",
    (CardPart.FIELD, "static.activation_cost_reduction"): "activation_cost_reduction",
    (CardPart.FIELD, "enters_as_copy.except"): "copy_exceptions",
    (CardPart.FIELD, "create_token_copy.except"): "copy_exceptions",
    (CardPart.FIELD, "enters_as_copy.except.creature_counter"): "copy_exception_counters",
    (CardPart.FIELD, "enters_as_copy.exile_copied"): "copy_linked_triggers",
    (CardPart.FIELD, "create_token.for_each"): "counted_effects",
    (CardPart.FIELD, "cost_modifier.only_coloured"): "coloured_only_reductions",
    (CardPart.FIELD, "cost_modifier.chosen_type"): "chosen_creature_type_reductions",
    (CardPart.FIELD, "cost_modifier.chosen_card_type"): "linked_type_reductions",
    (CardPart.FIELD, "cost_modifier.imprinted_types"): "linked_type_reductions",
    (CardPart.FIELD, "improvise.spells"): "granted_improvise",
    **{(CardPart.FIELD, f"cast_permission.{limit}"): "permission_limits" for limit in ("during", "per_turn")},
    (CardPart.COUNT, "opponents"): "undaunted",
    **{(CardPart.COUNT, count): "counted_cost_modifiers" for count in (
        "creatures", "creatures_you_control", "attacking_creatures_you_control", "total_power_of_creatures_you_control",
        "instant_and_sorcery_spells_you_cast_this_turn", "greatest_power_among_creatures_you_control",
        "artifacts_you_control")},
}
_EFFECT_LISTS = ("spell", "effect")     # the fields holding a list of effects (a spell's, an ability's)


def _fields(prefix: str, body: Mapping[str, Any]) -> Iterator[tuple[CardPart, str]]:
    """The fields set in an ability's or an effect's body (a false or empty value is not set),
    a field holding a word with it (`cast_free.from.library`), and the fields of a mapping one of
    them holds (a copy effect's exceptions)."""
    for key, value in body.items():
        if key != "kind" and value not in (None, False, [], {}):
            yield CardPart.FIELD, f"{prefix}.{key}"
            if isinstance(value, str):
                yield CardPart.FIELD, f"{prefix}.{key}.{value}"
            if isinstance(value, Mapping):
                yield from ((CardPart.FIELD, f"{prefix}.{key}.{sub}") for sub, inner in value.items()
                            if inner not in (None, False, [], {}))


def card_parts(node: Any) -> Iterator[tuple[CardPart, str]]:
    """Every part of a card (its faces, halves and modes, the tokens it makes and the abilities
    it grants included) that `CARD_FEATURES` may name, in document order; one may come twice."""
    if isinstance(node, Mapping):
        kind = node.get("kind")
        if isinstance(kind, str):
            yield CardPart.ABILITY, kind
            yield from _fields(kind, node)
            for modifier in (node, node.get("cost_increase"), node.get("cost_reduction")):
                if isinstance(modifier, Mapping) and isinstance(modifier.get("per"), str):
                    yield CardPart.COUNT, modifier["per"]
        for key, value in node.items():
            for effect in value if key in _EFFECT_LISTS and isinstance(value, list) else ():
                for name, body in effect.items() if isinstance(effect, Mapping) else ():
                    yield CardPart.EFFECT, str(name)
                    yield from _fields(str(name), body) if isinstance(body, Mapping) else ()
            yield from card_parts(value)
    elif isinstance(node, list):
        for value in node:
            yield from card_parts(value)


_PARTS: dict[int, tuple[Mapping[str, Any], tuple[tuple[CardPart, str], ...]]] = {}


def parts_of(card: Mapping[str, Any] | None) -> tuple[tuple[CardPart, str], ...]:
    """`card_parts` of a catalog card, each once, worked out once per card (every case's every
    object is looked at by several checks); kept with the card itself, so an id never reused."""
    if not card:
        return ()
    known = _PARTS.get(id(card))
    if known is None or known[0] is not card:
        known = _PARTS[id(card)] = (card, tuple(dict.fromkeys(card_parts(card))))
    return known[1]


def card_features(card: Mapping[str, Any] | None) -> set[str]:
    """The features `CARD_FEATURES` ties to a card's parts (the generator lists them too)."""
    return {CARD_FEATURES[key] for key in parts_of(card) if key in CARD_FEATURES}
