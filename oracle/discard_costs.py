"""Discarding cards as a cost (118.8): an additional cost of the card (Big Score) or the cost of
a keyword paid with cards rather than mana (Collective Brutality's escalate, 702.120a).

The cards are named by the cast step (`discard`) and checked with the rest of the cost at
601.2h: each must be a card in the payer's hand matching one of the costs' filters. The spell
itself is on the stack by then (601.2a), so it can never pay its own discard cost. Paying puts
them into their owner's graveyard with the other parts of the total (601.2h); no part of this is
mana, so the total's mana (and the cost modifiers that change it) never sees it. The one payer
(`oracle.payer`) keeps this part kind's handler in its table.
"""
from __future__ import annotations

from dataclasses import dataclass

from castrules.model.parts import Filter

from .characteristics import chars, matches
from .errors import Illegal
from .reasons import Reason
from .state import CARD, State
from .trace import Trace
from .zones import move


@dataclass(frozen=True)
class DiscardPart:
    """Discard these cards from the payer's hand, each fitting one of `fits` (118.8);
    `rules`: the rule of the cost they pay (118.8 for an additional cost, 702.120a for escalate)."""

    fits: tuple[Filter, ...]
    chosen: tuple[str, ...]
    rules: tuple[str, ...] = ("118.8",)


def check_discard(state: State, part: DiscardPart, player: str, source: str) -> None:
    """118.3, 601.2h: each named card is in the payer's hand now and fits the cost (`source`, the
    spell paid for, is on the stack by now: never in the hand)."""
    for oid in part.chosen:
        obj = state.objects.get(oid)
        if obj is None or obj.zone != "hand" or obj.owner != player or obj.kind is not CARD:
            where = "gone" if obj is None else f"in {obj.owner}'s {obj.zone}"
            raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{oid} is not a card in {player}'s hand ({where}): it can't "
                                                         "be discarded to pay the cost", rules=(*part.rules, "601.2h"))
        if not any(matches(chars(state, obj), obj, f, player) for f in part.fits):
            raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{oid} is not a card the discard cost asks for",
                          rules=(*part.rules, "601.2h"))


def pay_discard(state: State, part: DiscardPart, player: str, trace: Trace) -> State:
    """601.2h: the named cards go from the hand to their owner's graveyard."""
    for oid in part.chosen:
        state = move(state, oid, "graveyard", trace, note=f"discarded by {player} to pay the cost",
                     rules=("601.2h", *part.rules))
    return state
