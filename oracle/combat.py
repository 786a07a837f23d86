"""Combat: declaring attackers (508.1) and blockers (509.1), and combat damage (510).

Combat damage to a player is recorded with the source's controller and creature types as
they are at that moment (for prowl, 702.76a; later changes don't rewrite history)."""
from __future__ import annotations

from typing import Mapping, Sequence

from .characteristics import chars
from .damage import damage_player
from .errors import Illegal, RequestError
from .frozen import replace
from .reasons import Reason
from .seams import rules
from .state import State
from .trace import Trace
from .turns import change_step


def attack(state: State, player: str, attackers: Sequence[str], defender: str, trace: Trace) -> State:
    if not state.has_player(player) or not state.has_player(defender):
        raise RequestError("attack: unknown player")
    for a in attackers:
        if a not in state.objects:
            raise RequestError(f"attack: unknown object {a!r}")
    t = state.turn
    if t.active != player or t.step not in ("precombat_main", "beginning_of_combat"):
        raise Illegal(Reason.INVALID_ACTION, f"{player} can't declare attackers now ({t.active}'s {t.step})", rules=("508.1",))
    if defender == player or not state.player(defender).in_game:
        raise Illegal(Reason.INVALID_ACTION, f"{defender} can't be attacked by {player}", rules=("508.1b",))
    if len(set(attackers)) != len(attackers):
        raise Illegal(Reason.INVALID_ATTACKER, "a creature is declared as an attacker twice", rules=("508.1a",))
    state = change_step(state, "declare_attackers", trace)
    for a in attackers:
        obj = state.obj(a)
        c = chars(state, obj)
        if obj.zone != "battlefield" or not c.is_creature or obj.controller != player or obj.tapped:
            raise Illegal(Reason.INVALID_ATTACKER,
                          f"{a} can't attack: it must be an untapped creature {player} controls", rules=("508.1a",))
        if obj.summoning_sick and "haste" not in c.keywords:
            raise Illegal(Reason.SUMMONING_SICK, f"{a} has not been under {player}'s control since the turn began",
                                                 rules=("302.6", "508.1a"))
        vigilance = "vigilance" in c.keywords
        state = state.with_obj(replace(obj, tapped=obj.tapped or not vigilance,
                                       combat=replace(obj.combat, attacking=defender)))
    trace.add("508.1", f"{player} attacks {defender} with {', '.join(attackers)}")
    return state


def block(state: State, player: str, blockers: Mapping[str, str], trace: Trace) -> State:
    for b, a in blockers.items():
        if b not in state.objects or a not in state.objects:
            raise RequestError(f"block: unknown object {b!r} or {a!r}")
    if state.turn.step != "declare_attackers":
        raise Illegal(Reason.INVALID_ACTION, "blockers are declared only after attackers", rules=("509.1",))
    state = change_step(state, "declare_blockers", trace)
    for b, a in blockers.items():
        obj, att = state.obj(b), state.obj(a)
        c = chars(state, obj)
        if obj.zone != "battlefield" or not c.is_creature or obj.controller != player or obj.tapped:
            raise Illegal(Reason.INVALID_BLOCKER, f"{b} can't block: it must be an untapped creature {player} "
                                                  "controls", rules=("509.1a",))
        if att.combat.attacking != player:
            raise Illegal(Reason.INVALID_BLOCKER, f"{a} is not attacking {player}", rules=("509.1a",))
        state = state.with_obj(replace(obj, combat=replace(obj.combat, blocking=a)))
        blocked = state.obj(a)
        state = state.with_obj(replace(blocked, combat=replace(blocked.combat, blocked=True)))
    trace.add("509.1", f"{player} blocks: " + ", ".join(f"{b} blocks {a}" for b, a in blockers.items()))
    return state


def combat_damage(state: State, trace: Trace) -> State:
    """510.1-2: all combat damage is dealt at once (first strike not modelled)."""
    if state.turn.step not in ("declare_attackers", "declare_blockers"):
        raise Illegal(Reason.INVALID_ACTION, "there is no combat to deal damage in", rules=("510",))
    state = change_step(state, "combat_damage", trace)
    before = state
    attackers = [o for o in before.battlefield() if o.combat.attacking]
    for att in attackers:
        power = max(0, chars(before, att).power or 0)
        blockers = [o for o in before.battlefield() if o.combat.blocking == att.id]
        if att.combat.blocked:
            remaining = power
            for i, b in enumerate(blockers):
                bc = chars(before, b)
                lethal = max(0, (bc.toughness or 0) - b.damage)
                if "deathtouch" in chars(before, att).keywords:
                    lethal = min(lethal, 1)
                amount = remaining if i == len(blockers) - 1 else min(remaining, lethal)
                state = rules().combat_damage_object(state, att, b.id, amount, trace)
                remaining -= amount
        elif att.combat.attacking and before.player(att.combat.attacking).in_game:
            state = damage_player(state, att, att.combat.attacking, power, True, trace)
        for b in blockers:
            state = rules().combat_damage_object(state, b, att.id, max(0, chars(before, b).power or 0), trace)
    return state
