"""Returning a permanent to its owner's hand as a cost (118.9): an alternative cost that is paid
with a permanent rather than (or beside) mana, Daze's "return an Island you control to its
owner's hand rather than pay this spell's mana cost" (`alternative_costs: [{name:
return_permanent, cost: "{0}", returns: <filter>}]`, the cast step's `returned`).

Only the intention to pay the alternative cost is announced (601.2b): the cast names the
permanent with it (none named, or one named without the cost: `alternative_cost_unavailable`,
the format's convention for an incomplete proposal), but whether it fits is judged when the total
is paid (601.2h), as for a sacrifice in a flashback cost: one the caster doesn't control, or not
of the kind asked for, is `additional_cost_unpaid` there, the locked total reported. It is
returned with the rest of the total at 601.2h, after the mana abilities of 601.2g: a land may be
tapped for mana first and still be returned. Nothing of it is mana, so the total's mana part (with its increases, its
reductions and a floor such as Trinisphere's) is only the alternative cost's own `cost`. The
one payer (`oracle.payer`) keeps this part kind's handler in its table.
"""
from __future__ import annotations

from dataclasses import dataclass

from castrules.model.parts import Filter
from castrules.model.vocab import AlternativeCostName

from .characteristics import chars, matches
from .errors import Illegal
from .reasons import Reason
from .state import Obj, State
from .trace import Trace
from .zones import move

RETURN = AlternativeCostName.RETURN_PERMANENT


@dataclass(frozen=True)
class ReturnPart:
    """Return this permanent the payer controls, fitting `fits`, to its owner's hand (118.9)."""

    fits: Filter
    chosen: str


def returns_filter(spell: Obj) -> Filter | None:
    """What the spell's return_permanent cost returns (None: it has no such cost)."""
    return next((a.returns for a in spell.base.alternative_costs if a.name == RETURN), None)


def _fits(state: State, oid: str | None, fits: Filter | None, player: str) -> bool:
    obj = state.objects.get(oid) if oid is not None else None
    return (obj is not None and fits is not None and obj.zone == "battlefield" and obj.controller == player
            and matches(chars(state, obj), obj, fits, player))


def announce_returned(state: State, spell: Obj, alt: str | None, returned: str | None, player: str,
                      trace: Trace) -> None:
    """601.2b: the permanent is named with the alternative cost, and only with it; that it fits
    is checked as the cost is paid (601.2h, `check_return`)."""
    if alt != RETURN:
        if returned is not None:
            raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{returned} is named to return to its owner's hand, "
                                                               "but the spell is not cast for such a cost",
                          rules=("118.9",))
        return
    if returned is None or returns_filter(spell) is None:
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, "the cost returns a permanent to its owner's hand; "
                                                           f"{returned or 'none'} was named",
                      rules=("118.9", "601.2b"))
    trace.add(("118.9", "601.2b"), f"{returned} will be returned to its owner's hand as the cost is paid")


def return_parts(spell: Obj, alt: str | None, returned: str | None) -> tuple[ReturnPart, ...]:
    """601.2h: the return the announced alternative cost asks for, if any."""
    fits = returns_filter(spell)
    return (ReturnPart(fits, returned),) if alt == RETURN and fits is not None and returned is not None else ()


def check_return(state: State, part: ReturnPart, player: str) -> None:
    """118.3, 601.2h: the permanent named is one the payer controls, of the kind asked for."""
    if not _fits(state, part.chosen, part.fits, player):
        raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{part.chosen} is not a permanent {player} controls of "
                                                     "the kind the cost returns", rules=("118.9", "601.2h"))


def pay_return(state: State, part: ReturnPart, trace: Trace) -> State:
    """601.2h: the permanent goes to its owner's hand (a new object there, 400.7)."""
    return move(state, part.chosen, "hand", trace, note="returned to its owner's hand to pay the cost",
                rules=("601.2h", "118.9"))
