"""601.2b, 601.2f: the additional costs of the supplement's keywords that a cast announces or
that its modes call for: multikicker (702.33c), buyback (702.27a), entwine (702.42a) and
escalate (702.120a). A mana cost joins the cost to pay like kicker; cost modifiers then apply to
the whole (601.2f). A cost paid with objects (Solar Tide's entwine sacrifices two lands,
Collective Brutality's escalate discards a card) adds no mana: its objects are named by the cast
and paid at 601.2h with the rest of the total (`keyword_object_costs`)."""
from __future__ import annotations

from castrules.model.cards import AdditionalCost

from .cast_spec import CastSpec
from .costs import ManaCost
from .errors import Illegal
from .reasons import Reason
from .seams import rules
from .state import Obj
from .trace import Trace


def _added(to_pay: ManaCost | None, cost: str | AdditionalCost, times: int = 1) -> ManaCost | None:
    if to_pay is None or isinstance(cost, AdditionalCost):      # paid with objects: no mana added
        return to_pay
    for _ in range(times):
        to_pay = to_pay + ManaCost.parse(cost)
    return to_pay


def optional_costs(spell: Obj, spec: CastSpec, name: str, to_pay: ManaCost | None,
                   label: str, trace: Trace) -> tuple[ManaCost | None, str]:
    """702.33c, 702.27a, 702.42a: a multikicker cost the player announced to pay N times joins
    the cost N times; a buyback or entwine cost announced joins it once."""
    if spec.multikicker:
        cost = spell.base.multikicker
        if cost is None:
            raise Illegal(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{name} has no multikicker", rules=("702.33c", "601.2b"))
        to_pay = _added(to_pay, cost, spec.multikicker)
        label += f" plus multikicker {cost} x{spec.multikicker}"
        trace.add(("702.33c", "702.33d", "601.2b"), f"multikicker {cost} announced {spec.multikicker} time(s): "
                                                      f"kicked {spec.multikicker} time(s)")
    for wanted, cost, keyword, rule in ((spec.buyback, spell.base.buyback, "buyback", "702.27a"),
                                        (spec.entwine, spell.base.entwine, "entwine", "702.42a")):
        if not wanted:
            continue
        if cost is None:
            raise Illegal(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{name} has no {keyword}", rules=(rule, "601.2b"))
        to_pay = _added(to_pay, cost)
        label += f" plus {keyword} {describe(cost)}"
        trace.add((rule, "601.2b"), f"{keyword} {describe(cost)} announced")
    return to_pay, label


def mode_counts(spell: Obj, spec: CastSpec) -> tuple[int, int, tuple[str, ...]]:
    """700.2, 702.42a, 601.4: how many modes may be chosen (least, most) and the rules saying so:
    every mode when entwined; "any number" when the kicker is announced, none included (107.1c),
    up to `kicked_max` (the kicker is announced after the modes in 601.2b, but 601.4 lets the
    player count on it); else the card's number or, "one or more", up to its `max`."""
    modes = spell.base.modes
    assert modes is not None
    if spec.entwine:
        return len(modes.options), len(modes.options), ("702.42a", "700.2")
    if modes.kicked_max is not None and (spec.kicker or spec.multikicker):
        return 0, modes.kicked_max, ("601.4", "702.33d", "700.2")     # no mode: traced with 107.1c
    return modes.choose, modes.max or modes.choose, ("700.2", "601.2b")


def escalate_count(modes: tuple[int, ...]) -> int:
    """702.120a: the modes that pay the escalate cost, those beyond the first."""
    return len(modes) - 1


def escalate(spell: Obj, spec: CastSpec, to_pay: ManaCost | None, label: str,
             trace: Trace) -> tuple[ManaCost | None, str]:
    """702.120a: the escalate cost, once for each mode chosen beyond the first."""
    cost = spell.base.escalate
    beyond = rules().escalate_count(spec.modes)
    if cost is None or beyond <= 0:
        return to_pay, label
    to_pay = _added(to_pay, cost, beyond)
    label += f" plus escalate {describe(cost)} x{beyond}"
    trace.add("702.120a", f"escalate {describe(cost)} once for each of the {beyond} mode(s) beyond the first")
    return to_pay, label


def describe(cost: str | AdditionalCost) -> str:
    """A keyword's cost in words for the trace: its mana, or what it does with objects."""
    if isinstance(cost, str):
        return cost
    verb = "sacrifice" if cost.sacrifice is not None else "discard" if cost.discard is not None else "reveal"
    return f"({verb} {cost.count} {'permanent' if cost.sacrifice is not None else 'card'}(s), no mana)"


def keyword_object_costs(spell: Obj, spec: CastSpec) -> tuple[AdditionalCost, ...]:
    """702.42a, 702.120a: the keyword costs paid with objects that this cast owes: the entwine
    cost when entwined, the escalate cost once per mode beyond the first."""
    owed: list[AdditionalCost] = []
    if spec.entwine and isinstance(spell.base.entwine, AdditionalCost):
        owed.append(spell.base.entwine)
    if isinstance(spell.base.escalate, AdditionalCost):
        owed += [spell.base.escalate] * max(0, rules().escalate_count(spec.modes))
    return tuple(owed)
