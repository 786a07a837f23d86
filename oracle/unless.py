"""Costs an effect offers as it resolves (118.12, 118.12a): "counter target spell unless its
controller pays {N}". The "unless" reads as an optional cost the spell's controller may pay
while the counterspell resolves; if they don't, the spell is countered.

The payment is not a cast: no 601.2 stage and no cost modifier for casting spells applies to
it; the player may activate mana abilities for it (608.2g, 605.3a, 117.1d); mana whose spending
restriction says "only" (to cast some spells, to activate some abilities) can't pay it (106.6),
while a Powerstone's mana, barred only from nonartifact spells, can. A payment asked for and
not possible makes the resolve step illegal, and nothing changes (118.3)."""
from __future__ import annotations

from typing import Any, Mapping

from castrules.model.choices import PayUnless
from castrules.model.effects import Counter
from castrules.model.errors import ModelError

from . import payment
from .characteristics import chars
from .costs import ConcreteCost, ManaCost, concrete_text, resolve_choices
from .errors import Illegal, RequestError
from .payer import CostContext, ManaPart, Paying, pay_costs
from .refs import plain
from .seams import rules
from .state import State
from .trace import Trace
from .zones import move


def offered(text: str, x: int | None, more: str | None = None, times: int = 0) -> ConcreteCost:
    """The cost an "unless" effect offers: an {X} in it is the X of the spell or ability offering
    it (107.3a: every X of a spell has the value announced for it; Condescend), 0 if none; `more`
    is added `times` times (Rune Snag's {2} for each card of its name in a graveyard)."""
    cost = ManaCost.parse(text + (more or "") * times)
    return resolve_choices(cost, (x or 0) if cost.has_x else 0)


def offered_cost(state: State, e: Counter, source: str, x: int | None) -> ConcreteCost:
    """The cost `e` offers as `source` resolves: its X (107.3a) and its namesakes counted now (608.2h)."""
    times = namesakes_in_graveyards(state, source) if e.unless_each_namesake else 0
    return offered(e.unless_pays or "{0}", x, e.unless_each_namesake, times)


def namesakes_in_graveyards(state: State, source: str) -> int:
    """The cards in every graveyard with the resolving spell's name, counted now (608.2h); the
    spell itself is on the stack, not among them."""
    name = chars(state, state.obj(source)).name
    return sum(1 for o in state.objects.values()
               if o.zone == "graveyard" and not o.token and chars(state, o).name == name)


def _pay(state: State, player: str, cost: ConcreteCost, source: str, choice: PayUnless, trace: Trace) -> State:
    """The player pays `cost` with the listed mana abilities (then, pay: auto, the engine's)."""
    listed = tuple((m.object, m.ability, plain(m.produce)) for m in choice.mana_abilities)
    try:
        state = payment.activate_listed(state, player, listed, cost, trace,
                                        sacrifices=tuple(m.sacrifice for m in choice.mana_abilities),
                                        orders=tuple(m.replacements for m in choice.mana_abilities))
        used = frozenset(o for o, _, _ in listed)
        return pay_costs(state, (ManaPart(cost, choice.auto_pay, used),),
                         CostContext(player, Paying.EFFECT, source, activate=payment.auto_activate), trace)
    except Illegal as exc:
        raise Illegal(exc.reason, f"{player} chose to pay {concrete_text(cost)} and can't: {exc.note}",
                      rules=("118.3", "118.12a")) from exc


def _choice(choices: Mapping[str, Any] | None) -> PayUnless | None:
    doc = (choices or {}).get("pay_unless")
    if doc is None:
        return None
    try:
        return PayUnless.from_document(doc, "/resolve/choices/pay_unless")
    except ModelError as exc:
        raise RequestError(str(exc)) from exc


def counter(state: State, e: Counter, source: str, targets: tuple[str | None, ...],
            choices: Mapping[str, Any] | None, trace: Trace, x: int | None = None) -> State:
    """The target spell is countered, unless its controller pays the offered cost (118.12a);
    `x` is the counterspell's X, for an {X} in that cost (107.3a)."""
    t = targets[e.target] if e.target < len(targets) else None
    victim = state.objects.get(t) if t is not None else None
    if victim is None or victim.zone != "stack":
        return state
    if e.unless_pays is not None:
        choice = _choice(choices)
        who = victim.controller
        cost = rules().unless_cost(state, e, source, x)
        times = namesakes_in_graveyards(state, source) if e.unless_each_namesake else 0
        if times:
            trace.add("608.2h", f"{times} card(s) named like {source} in graveyards: the cost offered is {concrete_text(cost)}")
        if choice is not None:
            state = _pay(state, who, cost, source, choice, trace)
            trace.add(("118.12a", "608.2g"), f"{who} pays {concrete_text(cost)}: {t} is not countered")
            return state
        trace.add("118.12a", f"{who} doesn't pay {concrete_text(cost)}")
    return move(state, t, "graveyard", trace, note="countered")
