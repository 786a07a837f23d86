"""Casting a card without paying its mana cost because a resolving spell or ability lets its
controller (608.2g, 118.9): "you may cast target instant card from your graveyard" (Torrential
Gearhulk), "a spell with mana value X or less from your hand" (Electrodominance), "a card with
mana value X exiled with this" (Kaho, Minamo Historian), "an instant or sorcery card found in
target opponent's library" (Knowledge Exploitation: a card its caster doesn't own, 108.3).

The cast follows 601.2a-i with no timing permission needed (the effect allows it now, 608.2g)
and for the alternative cost of no mana, which cost modifiers still apply to (118.9d). It is
optional: `resolve: {choices: {cast: {object, ...the cast's choices}}}` casts it (`object` only
where the effect does not name the card itself), anything else declines.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from castrules.model.effects import CastFree

from .characteristics import chars, mana_value, matches
from .errors import Illegal, RequestError
from .frozen import replace
from .instructed import FIXED_CAST_FIELDS, cast_choices
from .reasons import Reason
from .seams import rules
from .state import State
from .trace import Trace

_FIXED = FIXED_CAST_FIELDS - {"object"}     # the resolve step may name the card


def cast_free(state: State, e: CastFree, player: str, source_id: str, targets: tuple, x: int | None,
              choices: Mapping[str, Any], trace: Trace, owner: str | None) -> State:
    """Cast the card the choices name (or the effect's target) for no mana, or decline. `owner`
    is the player whose hand, graveyard or library the effect reaches (the effect's `whose`: its
    controller unless it names another), None when that player is a target no longer there."""
    from .casting import cast, parse_cast
    given = choices.get("cast")
    if given is None or choices.get("decline_cast"):
        trace.add("608.2g", f"{player} doesn't cast a card from the {e.from_} ({source_id}'s effect allows it, "
                            "it doesn't require it)")
        return state
    cast_choices(given, _FIXED)
    if e.target is not None:
        card_id = targets[e.target] if e.target < len(targets) else None
        if card_id is None:
            raise Illegal(Reason.INVALID_ACTION, "the card this effect targets is no longer a legal target: there is "
                                                 "nothing to cast", rules=("608.2b",))
        if given.get("object", card_id) != card_id:
            raise RequestError(f"resolve: choices.cast names {given['object']}, but the effect lets {player} cast "
                               f"only its target {card_id}")
    else:
        card_id = given.get("object")
        if not isinstance(card_id, str) or card_id not in state.objects:
            raise RequestError("resolve: choices.cast needs `object`, the card to cast")
    rules().free_cast_card(state, e, player, source_id, card_id, x, owner)
    card = state.obj(card_id)
    trace.add("608.2g", f"{player} casts {card.base.name} ({card_id}) from the {e.from_} without paying its mana "
                        f"cost while {source_id} resolves")
    spec = replace(parse_cast({**given, "player": player, "object": card_id, "from": e.from_,
                               "alternative_cost": "without_paying_mana_cost"}), instructed_by=source_id)
    new, _ = cast(state, spec, trace)
    return new


def check_card(state: State, e: CastFree, player: str, source_id: str, card_id: str, x: int | None,
               owner: str | None) -> None:
    """The card is one the effect lets `player` cast: where it says, in the zone of `owner` (no
    player's when None), of the kind it says."""
    card = state.obj(card_id)
    c = chars(state, card)
    why = None
    if card.zone != e.from_ or (card.owner != owner and e.from_ != "exile"):     # exile is no player's
        where = f"{owner or 'that player'}'s {e.from_}" if e.from_ != "exile" else "exile"
        why = f"{card_id} is not in {where}"
    linked = e.exiled_with and state.choices.get(source_id, {}).get("exiled") != card_id
    if why is None and linked:
        why = f"{card_id} is not a card exiled with {source_id}"
    if why is None and e.spells is not None and not matches(c, card, e.spells, player, source_id):
        why = f"{c.name} is not a card of the kind the effect names"
    mv = mana_value(c, card)
    most, exact = ((x or 0) if v == "X" else v for v in (e.mana_value_max, e.mana_value))
    if why is None and most is not None and mv > most:
        why = f"{c.name}'s mana value {mv} is more than {most}"
    if why is None and exact is not None and mv != exact:
        why = f"{c.name}'s mana value {mv} is not {exact}"
    if why is not None:
        raise Illegal(Reason.INVALID_ACTION, f"{source_id}'s effect doesn't let {player} cast it: {why}",
                      rules=("608.2g", "607.2") if linked else ("608.2g",))
