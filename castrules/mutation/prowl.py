"""Mutants of prowl (702.76a): which combat damage, by which source, enables it."""
from __future__ import annotations

from dataclasses import replace

from castrules.oracle.characteristics import chars
from castrules.oracle.state import DamageEvent

from .base import Mutant


def _enabler_reading(log_of):
    """prowl_enabler wrapper: the real rule, reading the damage record `log_of(state, caster)`."""
    def make(real, ctx):
        def prowl_enabler(state, spell_chars, caster):
            return real(replace(state, damage_log=tuple(log_of(state, caster))), spell_chars, caster)
        return prowl_enabler
    return make


class ChangelingNoProwl(Mutant):
    description = "a changeling (every creature type) that dealt combat damage does not enable prowl"
    seams = {"prowl_enabler": _enabler_reading(
        lambda state, caster: (replace(ev, all_creature_types=False) for ev in state.damage_log))}
    witnesses = ("prowl/raptor/changeling-damage-enables",)


def _printed_types(real, ctx):
    def prowl_enabler(state, spell_chars, caster):
        printed = replace(spell_chars, creature_types=frozenset(spell_chars.base.creature_types),
                          all_creature_types="changeling" in spell_chars.base.keywords)
        return real(state, printed, caster)
    return prowl_enabler


class ProwlPrintedTypes(Mutant):
    description = "prowl compares the card's printed creature types, not the spell's current ones (702.76a)"
    seams = {"prowl_enabler": _printed_types}
    witnesses = ("prowl/types/arcane-adaptation-added-type-enables",)


def _still_there(state, ev) -> bool:
    obj = state.objects.get(ev.source)
    return obj is not None and obj.zone == "battlefield"


class ProwlLostWhenSourceLeft(Mutant):
    description = "prowl is lost when the creature that dealt the combat damage has left the battlefield (113.7a)"
    seams = {"prowl_enabler": _enabler_reading(
        lambda state, caster: (ev for ev in state.damage_log if _still_there(state, ev)))}
    witnesses = ("prowl/lki/rogue-destroyed-later-in-turn",)


class NoncombatDamageEnablesProwl(Mutant):
    description = "noncombat damage dealt to a player by a Rogue enables prowl (702.76a needs combat damage)"
    seams = {"prowl_enabler": _enabler_reading(
        lambda state, caster: (replace(ev, combat=True) for ev in state.damage_log))}
    witnesses = ("prowl/damage/noncombat-damage-does-not-count",)


class OpponentsDamageEnablesProwl(Mutant):
    description = "combat damage dealt by an opponent's Rogue enables prowl (702.76a: a source you controlled)"
    seams = {"prowl_enabler": _enabler_reading(
        lambda state, caster: (replace(ev, controller=caster) for ev in state.damage_log))}
    witnesses = ("prowl/damage/opponents-rogue-hit-you",)


def _types_now(state, caster):
    for ev in state.damage_log:
        obj = state.objects.get(ev.source)
        if obj is not None and obj.zone == "battlefield":
            now = chars(state, obj)
            ev = replace(ev, creature_types=now.creature_types, all_creature_types=now.all_creature_types)
        yield ev


class ProwlReadsSourceTypesNow(Mutant):
    description = ("prowl reads the damage source's creature types as they are now, not as they were when it "
                   "dealt the damage (702.76a looks back; 113.7a)")
    seams = {"prowl_enabler": _enabler_reading(_types_now)}
    witnesses = ("prowl/lki/rogue-became-elf-after-damage",)


def _damage_to_creature_recorded(real, ctx):
    def combat_damage_object(state, source, oid, amount, trace):
        target = state.obj(oid)
        new = real(state, source, oid, amount, trace)
        if amount > 0 and target.zone == "battlefield" and state.turn.step == "combat_damage":
            c = chars(state, source)
            ev = DamageEvent(source=source.id, source_name=c.name, player=target.controller, amount=amount,
                             combat=True, controller=source.controller, creature_types=c.creature_types,
                             all_creature_types=c.all_creature_types)
            new = replace(new, damage_log=new.damage_log + (ev,))
        return new
    return combat_damage_object


class DamageToCreatureEnablesProwl(Mutant):
    description = "combat damage a Rogue deals to a blocking creature enables prowl (702.76a: damage to a player)"
    seams = {"combat_damage_object": _damage_to_creature_recorded}
    witnesses = ("prowl/damage/bandit-trades-with-blocker",)


def _damage_log_kept(real, ctx):
    def next_turn(state, trace):
        log = state.damage_log
        new = real(state, trace)
        return replace(new, damage_log=log + new.damage_log)
    return next_turn


class ProwlDamageLastsAllGame(Mutant):
    description = "combat damage dealt in an earlier turn still enables prowl (702.76a: this turn only)"
    seams = {"next_turn": _damage_log_kept}
    witnesses = ("prowl/damage/previous-turn-does-not-count",)
