"""Activated abilities (602.2), special actions (116) and the test action that makes a player
pay an object's mana cost (107.3h): the steps that pay costs outside casting a spell."""
from __future__ import annotations


from castrules.model import steps

from . import payment
from .activation_costs import payable_total
from .characteristics import chars
from .errors import Illegal, RequestError
from .frozen import make, replace
from .payer import CostContext, LifePart, ManaPart, Paying, ability_cost_parts, check_costs, pay_costs
from .refs import object_of, plain, player_of
from .spending import AbilityOf, Purpose
from .state import CARD, ObjKind, State
from .trace import Trace
from .zones import move


def _ok(state: State) -> tuple[State, dict]:
    return state, {"legal": True}


def step_activate(state: State, step: steps.Activate, trace: Trace) -> tuple[State, dict]:
    """602.2: a non-mana activated ability goes on the stack as `<id>_ability`."""
    from .casting import CastSpec
    from .costs import ManaCost, resolve_choices
    from .targets import assign_targets
    from .reasons import Reason
    player = player_of(state, step.player)
    oid = object_of(state, step.object)
    obj = state.obj(oid)
    if obj.zone != "battlefield" or obj.controller != player:
        raise Illegal(Reason.INVALID_ACTION, f"{player} doesn't control {oid} on the battlefield", rules=("602.2",))
    abilities = chars(state, obj).activated_abilities()
    idx = step.ability
    if not 0 <= idx < len(abilities):
        raise Illegal(Reason.INVALID_ACTION, f"{oid} has no activated ability #{idx}")
    ab = abilities[idx]
    paying = CostContext(player, Paying.ABILITY, oid, activate=payment.auto_activate)
    check_costs(state, ability_cost_parts(ab.cost, oid), paying)     # the costs X does not change
    mana = ManaCost.parse(ab.cost.mana or "")
    x = _ability_x(mana, step.x, oid, trace)        # 602.2b -> 601.2b: X before targets
    assigned = assign_targets(state, ab.targets, step.targets, player, oid)
    cost = payable_total(state, oid, resolve_choices(mana, x), trace)   # 602.2b -> 601.2f; 602.1e
    state, used = _activate_listed(state, player, step, cost, trace, AbilityOf(oid))
    # 602.2b -> 601.2h: {T} / {Q} are paid before the mana, so the source can't also tap for it
    state = pay_costs(state, ability_cost_parts(ab.cost, oid, cost, step.auto_pay, used), paying, trace)
    obj = state.obj(oid)
    aid, n = f"{oid}_ability", 1
    while aid in state.objects:
        n += 1
        aid = f"{oid}_ability{n}"
    from .state import Announced, Obj, StackAbility
    state, ts = state.tick()
    a = make(Obj, id=aid, card=obj.base, zone="stack", owner=player, controller=player, kind=ObjKind.ABILITY,
             timestamp=ts, stack_ability=StackAbility(oid, ab),
             announced=Announced(x=x, targets=tuple(t for _, t, _ in assigned),
                                 target_controllers=tuple(r for _, _, r in assigned)))
    state = replace(state.with_obj(a), stack=state.stack + (aid,))
    trace.add("602.2", f"{player} activates {obj.base.name}'s ability ({aid} on the stack)")
    return _ok(state)


def _activate_listed(state: State, player: str, step: steps.Paying, cost, trace: Trace,
                     purpose: Purpose = None) -> tuple[State, frozenset[str]]:
    """602.2b -> 601.2g: the mana abilities the step lists, before the payer pays (then, with
    pay: auto, whatever the solver finds); the listed objects, which auto payment leaves alone."""
    activations = step.mana_abilities
    listed = tuple((m.object, m.ability, plain(m.produce)) for m in activations)
    sacs = tuple(m.sacrifice for m in activations)
    orders = tuple(m.replacements for m in activations)
    state = payment.activate_listed(state, player, listed, cost, trace, sacrifices=sacs, orders=orders,
                                    spell=purpose)
    return state, frozenset(o for o, _, _ in listed)


def _ability_x(mana, x, oid: str, trace: Trace, rule: str = "107.3k", note: str | None = None) -> int | None:
    """602.2b, 107.3a, 107.3k: the X of an activation cost is announced with this activation and
    belongs to it alone (not the source's X, nor another activation's)."""
    from .reasons import Reason
    if x is not None and (isinstance(x, bool) or not isinstance(x, int)):
        raise RequestError("activate: x must be an integer")
    if x is not None and x < 0:
        raise Illegal(Reason.INVALID_X, f"X can't be negative ({x})", rules=("107.1b", "107.3a"))
    if "X" in mana.variables:
        if x is None:
            raise Illegal(Reason.INVALID_X, f"the activation cost {mana} has {{X}}: its value must be announced",
                                            rules=("107.3a", "602.2b"))
        trace.add(rule if note else (rule, "107.3k"), note or f"X = {x} for this activation of {oid}'s ability, independent of any other X")
        return x
    if x not in (None, 0):
        raise Illegal(Reason.INVALID_X, f"X = {x} announced but the activation cost has no {{X}}", rules=("107.3a",))
    return None


def step_special_action(state: State, step: steps.SpecialAction, trace: Trace) -> tuple[State, dict]:
    """116 special actions; only suspend (702.62a, 116.2f) is modelled: a card with suspend in
    its owner's hand is exiled with N time counters, paying its suspend cost, at any time its
    owner could cast it (117.1c). X in that cost is chosen just before paying (107.3d); with
    "Suspend X" the card gets X time counters. It is not cast and is not a spell: no 601 step,
    no cost modifiers for spells, nothing goes on the stack."""
    from .costs import ManaCost, resolve_choices
    from .reasons import Reason
    from .state import MAIN_STEPS
    player = player_of(state, step.player)
    oid = object_of(state, step.object)
    obj = state.obj(oid)
    if obj.zone != "hand" or obj.owner != player or obj.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"suspend: {oid} is not a card in {player}'s hand", rules=("702.62a",))
    c = chars(state, obj)
    if obj.base.suspend is None:
        raise Illegal(Reason.INVALID_ACTION, f"suspend: {c.name} has no suspend", rules=("702.62a",))
    t = state.turn
    if not (c.is_("Instant") or "flash" in c.keywords):
        if t.active != player or t.step not in MAIN_STEPS or state.stack:
            raise Illegal(Reason.WRONG_TIMING, f"{c.name} could not be cast now (sorcery timing), so it can't be "
                                               "suspended now", rules=("702.62a", "117.1c"))
    trace.add("117.1c", f"{player} may take the special action now: {c.name} could be cast now")
    mana = ManaCost.parse(obj.base.suspend.cost)
    x = _ability_x(mana, step.x, oid, trace, rule="107.3d",
                   note=f"X = {step.x} chosen by {player} immediately before paying the suspend cost")
    cost = resolve_choices(mana, x)
    state, used = _activate_listed(state, player, step, cost, trace)
    state = pay_costs(state, (ManaPart(cost, step.auto_pay, used),),
                      CostContext(player, Paying.SPECIAL_ACTION, oid, activate=payment.auto_activate), trace)
    n = obj.base.suspend.time_counters
    n = (x or 0) if n == "X" else int(n)
    state = move(state, oid, "exile", trace, note="suspended, a special action; not cast", rules=("116.2f",))
    if n > 0:
        state = state.with_obj(replace(state.obj(oid), counters=(("time", n),)))
    trace.add("702.62a", f"{c.name} ({oid}) is exiled with {n} time counter(s)")
    return _ok(state)


def step_pay_mana_cost(state: State, step: steps.PayManaCost, trace: Trace) -> tuple[State, dict]:
    """107.3h: a test action standing for an effect that makes `player` pay `object`'s mana cost.
    Its {X} (and {Y}, {Z}) is 0 unless the object is a spell on the stack, whose X is the value
    chosen or determined as it was cast. Paid at once from the pool and the player's mana
    abilities (engine's choices, hybrid halves and mana before life as in a cast, made afresh
    immediately before paying, 118.13b: not the ones announced as the spell was cast); no partial
    payment. No mana cost: unpayable (118.6)."""
    from .announcements import cost_values as _cost_values
    from .casting import CastSpec, _candidates
    from .costs import resolve_choices
    from .reasons import Reason
    player = player_of(state, step.player)
    oid = object_of(state, step.object)
    obj = state.obj(oid)
    if obj.zone == "gone" or obj.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"pay_mana_cost: {oid} is not an object with a mana cost")
    c = chars(state, obj)
    if c.mana_cost is None:
        raise Illegal(Reason.UNPAYABLE_COST, f"{c.name} has no mana cost: paying it is impossible", rules=("118.6",))
    is_spell = obj.zone == "stack"
    values = (obj.announced.x or 0, obj.announced.y or 0, obj.announced.z or 0) if is_spell else (0, 0, 0)
    cx, cy, cz = _cost_values(c.mana_cost, *values)
    if c.mana_cost.has_x:
        trace.add("107.3h", f"{player} pays the mana cost {c.mana_cost} of {c.name} ({oid}) with "
                  + (f"the values chosen as it was cast: X = {cx}" if is_spell else "X = 0: it is not a spell on the stack")
                  + (f", Y = {cy}" if cy is not None else ""))
    first: Illegal | None = None
    for hyb, phy in _candidates(c.mana_cost, CastSpec(player=player, object=oid)):
        attempt = Trace(trace.step)
        cost = resolve_choices(c.mana_cost, cx, list(hyb), list(phy), y=cy, z=cz)
        try:
            new = pay_costs(state, (LifePart(cost.life, phyrexian=True), ManaPart(cost, auto=True)),
                            CostContext(player, Paying.EFFECT, oid, activate=payment.auto_activate), attempt)
        except Illegal as exc:
            first = first or exc
            continue
        if hyb or phy:
            trace.add("118.13b", f"{player} chooses how to pay the symbols of {c.name}'s mana cost payable two ways "
                      f"immediately before paying it: hybrid {list(hyb)}, Phyrexian {list(phy)}")
        trace.lines.extend(attempt.lines)
        return _ok(new)
    assert first is not None
    first.substep = None
    raise first
