"""Prowl (702.76): an alternative cost available when combat damage was dealt this turn to a
player by a source its caster controlled, then, with any of the SPELL's current types.

The turn's damage record (state.damage_log) keeps each source's controller and creature
types as they were when it dealt the damage (608.2i, 113.7a), so the source leaving the
battlefield, changing control or losing types, and the damaged player leaving the game,
change nothing. Noncombat damage doesn't count. The record is cleared at the next turn.
"""
from __future__ import annotations

from dataclasses import dataclass

from castrules.model.abilities import GrantProwl

from .characteristics import Chars, chars, matches
from .costs import ManaCost
from .seams import rules
from .state import CARD, DamageEvent, Obj, State


@dataclass(frozen=True)
class ProwlCost:
    cost: str
    source: str            # "printed" or the id of the object granting it


def prowl_costs(state: State, spell: Obj, caster: str) -> list[ProwlCost]:
    """Printed prowl, then prowl granted by permanents ('Dinosaur spells you cast have prowl')."""
    c = chars(state, spell)
    out = []
    if spell.base.prowl:
        out.append(ProwlCost(spell.base.prowl, "printed"))
    for src in state.battlefield():
        for ab in src.base.abilities if src.kind is CARD else ():
            if isinstance(ab, GrantProwl) and ab.cost:
                if ab.whose in (None, "you") and src.controller != caster:
                    continue
                if matches(c, spell, ab.spells, src.controller, src.id):
                    out.append(ProwlCost(ab.cost, src.id))
    return out


@dataclass(frozen=True)
class Enabler:
    event: DamageEvent
    matched: str


def prowl_enabler(state: State, spell_chars: Chars, caster: str) -> Enabler | None:
    """The first combat damage event this turn that satisfies 702.76a for this spell."""
    for ev in state.damage_log:
        if not ev.combat or ev.controller != caster:
            continue
        shared = spell_chars.shares_creature_type(ev.creature_types, ev.all_creature_types)
        if shared:
            return Enabler(ev, shared)
    return None


def cheapest(costs: list[ProwlCost]) -> ProwlCost:
    return min(costs, key=lambda p: (rules().cost_mana_value(ManaCost.parse(p.cost)), costs.index(p)))


def choose_prowl(costs: list[ProwlCost], permission: str | None, zone_permission: str | None = None
                 ) -> ProwlCost | None:
    """Which prowl cost the cast uses (118.9: the player chooses one alternative cost).
    `permission` names the object granting the prowl cost wanted; without it (or when it names
    the object that let the spell be cast from its zone) the spell's printed prowl is used, else
    the cheapest granted one. None: the named object grants this spell no prowl cost."""
    if permission is not None:
        granted = next((p for p in costs if p.source == permission), None)
        if granted is not None or permission != zone_permission:
            return granted
    printed = [p for p in costs if p.source == "printed"]
    return printed[0] if printed else cheapest(costs)
