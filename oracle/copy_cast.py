"""Casting a copy of a card while an ability resolves (707.12; Isochron Scepter).

The copy is made in the zone the card is in (an imprinted card: exile), then cast following
601.2a-h like any spell, here without paying its mana cost (an alternative cost, 118.9), so cost
increases still apply (601.2f). It is cast, a spell on the stack; like any copy of a spell it
ceases to exist when it leaves the stack (707.10a). The card is the one the source imprinted
(607.2: `setup.choices <source>.imprinted`). The choice comes from `resolve: {choices: {cast:
{...}}}` (the cast step's choices, without player, object, from, alternative_cost, permission);
without it the player doesn't copy the card ("you may").
"""
from __future__ import annotations

from typing import Any, Mapping

from .errors import Illegal
from .frozen import make, replace
from .reasons import Reason
from .state import Obj, State
from .instructed import FIXED_CAST_FIELDS, cast_choices
from .trace import Trace



def cast_copy(state: State, player: str, source_id: str, choices: Mapping[str, Any], trace: Trace) -> State:
    from .casting import cast, parse_cast
    given = choices.get("cast")
    card_id = state.choices.get(source_id, {}).get("imprinted")
    card = state.objects.get(card_id) if card_id is not None else None
    if card is None or card.zone != "exile":
        if given is not None:
            raise Illegal(Reason.INVALID_ACTION, f"no card is exiled with {source_id}: there is nothing to copy")
        trace.add("607.2", f"no card is exiled with {source_id}: there is nothing to copy")
        return state
    if given is None:
        trace.add("707.12", f"{player} doesn't copy {card.base.name} ({card.id})")
        return state
    cast_choices(given, FIXED_CAST_FIELDS)
    new_id, n = f"{card.id}_copy", 1
    while new_id in state.objects:
        n += 1
        new_id = f"{card.id}_copy{n}"
    state, ts = state.tick()
    copy = make(Obj, id=new_id, card=card.base, zone=card.zone, owner=player, controller=player,
                copy_of=card.base, timestamp=ts)
    state = state.with_obj(copy)
    trace.add(("707.12", "607.2"), f"{player} copies {card.base.name} ({card.id}), the card exiled with {source_id}: "
                                   f"the copy ({new_id}) is made in the {card.zone} and cast")
    spec = replace(parse_cast({"player": player, "object": new_id, "alternative_cost": "without_paying_mana_cost",
                               **given}), instructed_by=source_id)
    new, _ = cast(state, spec, trace)
    return new
