"""Casting a spell because a resolving spell instructs it, "if able" (608.2g, 118.8c).

`cast_if_able`: the player casts the top card of their library without paying its mana cost
while the instructing spell resolves (601.2a-i, no timing permission needed, 117.1). They must
if any legal way to cast it exists, unless it has a mandatory additional cost involving cards
with a stated quality in a hidden zone (a reveal from the hand), 118.8c: then they may decline
even holding such a card. The choices come from `resolve: {choices: {cast: {...}}}` (the cast
step's choices, without player, object, from, alternative_cost, permission) or
`{decline_cast: true}`; without either the player casts when required (the first legal choices
found) and otherwise doesn't.
"""
from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations, product
from typing import Any

from .cards import spell_targets
from .errors import Illegal, RequestError
from .frozen import replace
from .reasons import Reason
from .state import State
from .trace import Trace
from .zones import top_of_library

# the cast fields an effect that names the card to cast fixes itself (the resolve step gives the rest)
FIXED_CAST_FIELDS = frozenset({"player", "object", "from", "alternative_cost", "permission"})
_MAX_TRIES = 4096


def cast_choices(given: Any, fixed: frozenset[str]) -> Mapping[str, Any]:
    """The cast's own choices a `resolve` step gives for a cast its effect makes
    (`choices.cast`): a mapping with none of the fields the effect fixes itself."""
    if not isinstance(given, Mapping) or fixed & set(given):
        raise RequestError(f"resolve: choices.cast takes the cast's choices only, not {sorted(fixed & set(given))}")
    return given


def excused(card) -> bool:
    """118.8c: a mandatory additional cost that involves cards with a stated quality in a hidden
    zone (here: revealing cards of a quality from the hand)."""
    return any(a.reveal is not None for a in card.additional_costs)


def cast_if_able(state: State, player: str, source_id: str, choices: Mapping[str, Any], trace: Trace) -> State:
    from .casting import cast, parse_cast
    top = top_of_library(state, player)
    given, decline = choices.get("cast"), bool(choices.get("decline_cast", False))
    if given is not None and decline:
        raise RequestError("resolve: choices cast and decline_cast exclude each other")
    if top is None:
        if given is not None:
            raise Illegal(Reason.INVALID_ACTION, f"{player}'s library is empty: there is nothing to cast")
        trace.add("608.2g", f"{player}'s library is empty: nothing to cast")
        return state
    base = {"player": player, "object": top.id, "alternative_cost": "without_paying_mana_cost"}
    if given is not None:
        cast_choices(given, FIXED_CAST_FIELDS)
        spec = replace(parse_cast({**base, **given}), instructed_by=source_id)
        trace.add("608.2g", f"{player} casts {top.base.name} ({top.id}) while {source_id} resolves")
        new, _ = cast(state, spec, trace)
        return new
    if excused(top.base):
        if decline:
            trace.add("118.8c", f"{player} declines to cast {top.base.name}: its additional cost reveals cards of a "
                                "stated quality from a hidden zone, so casting it isn't required")
        else:
            trace.add("118.8c", f"{player} isn't required to cast {top.base.name} (a hidden-zone additional cost) "
                                "and doesn't")
        return state
    found = _first_legal_cast(state, base, source_id, top, trace.step)
    if found is None:
        trace.add("608.2g", f"{player} is not able to cast {top.base.name} ({top.id}): it stays in the library")
        return state
    if decline:
        raise Illegal(Reason.CAST_REQUIRED, f"{player} is able to cast {top.base.name} and must (\"if able\"); no "
                                            "hidden-zone additional cost excuses it", rules=("118.8c",))
    new, lines = found
    trace.add("608.2g", f"{player} casts {top.base.name} ({top.id}) while {source_id} resolves, as required")
    trace.lines.extend(lines)
    return new


def _first_legal_cast(state: State, base: Mapping[str, Any], source_id: str, top, step: int):
    """A legal way to cast `top` (targets and modes tried in order), or None."""
    from .casting import cast, parse_cast
    card = top.base
    refs = [p.name for p in state.players if p.in_game]
    refs += [o.id for o in state.objects.values() if o.zone in ("battlefield", "stack") and o.id != top.id]
    if card.modes is not None:
        mode_options = [list(m) for m in combinations(range(len(card.modes.options)), card.modes.choose)]
    else:
        mode_options = [[]]
    tries = 0
    for modes in mode_options:
        specs = spell_targets(card, modes)          # a mode's own targets too (601.2c)
        for targets in (list(product(*[refs for _ in specs])) if specs else [()]):
            tries += 1
            if tries > _MAX_TRIES:
                return None
            raw = dict(base)
            if targets:
                raw["targets"] = list(targets)
            if modes:
                raw["modes"] = modes
            attempt = Trace(step)
            try:
                new, _ = cast(state, replace(parse_cast(raw), instructed_by=source_id), attempt)
            except Illegal:
                continue
            return new, attempt.lines
    return None
