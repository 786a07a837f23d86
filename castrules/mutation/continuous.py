"""Mutants of continuous effects: the copy effect of an Aura's static ability (707.2c, 611.3a) and
effects on the power and toughness of a permanent that is not a creature (208.3a: dropped, or held
back until it is one). Each runs the
real step, then spoils what it left (the `run_step` seam), as an engine with that bug would."""
from __future__ import annotations

from dataclasses import replace as new_values

from castrules.model.effects import Pump, SetBasePT
from castrules.oracle.characteristics import chars
from castrules.oracle.frozen import replace

from .base import Mutant


def _recopy(state, record, values):
    """The state with `record`'s enchanted permanent copying `values` and the record saying so."""
    host = state.obj(record.enchanted)
    moved = replace(record, values=values)
    state = state.with_obj(replace(host, copy_of=values))
    return replace(state, static_copies=tuple(moved if r is record else r for r in state.static_copies))


def _follows_chosen(real, ctx):
    def run_step(state, step, trace):
        state, result = real(state, step, trace)
        for record in state.static_copies:
            chosen, host = state.objects.get(record.chosen), state.obj(record.enchanted)
            if chosen is not None and chosen.zone == "battlefield" and chosen.base != record.values \
                    and host.copy_of is record.values:
                state = _recopy(state, record, new_values(chosen.base))
        return state, result
    return run_step


class StaticCopyFollowsChosen(Mutant):
    description = ("an Aura's static copy effect keeps reading the chosen creature, so the enchanted creature "
                   "changes when that creature's copiable values do (707.2c: they are fixed when it begins)")
    seams = {"run_step": _follows_chosen}
    witnesses = ("copy/aura/alteration-keeps-dragon-after-it-becomes-elves",)


def _ends_with_chosen(real, ctx):
    def run_step(state, step, trace):
        state, result = real(state, step, trace)
        for record in state.static_copies:
            chosen, host = state.objects.get(record.chosen), state.obj(record.enchanted)
            if (chosen is None or chosen.zone != "battlefield") and host.copy_of is record.values:
                state = state.with_obj(replace(host, copy_of=record.before, prototyped=record.before_prototyped))
                state = replace(state, static_copies=tuple(r for r in state.static_copies if r is not record))
        return state, result
    return run_step


class StaticCopyEndsWithChosen(Mutant):
    description = ("an Aura's static copy effect ends when the chosen creature leaves the battlefield (707.2c: "
                   "it took that creature's values once and needs nothing more from it)")
    seams = {"run_step": _ends_with_chosen}
    witnesses = ("copy/aura/alteration-keeps-dragon-after-it-leaves",)


def _outlives_aura(real, ctx):
    def run_step(state, step, trace):
        before = state.static_copies
        state, result = real(state, step, trace)
        for record in before:
            aura, host = state.objects.get(record.aura), state.objects.get(record.enchanted)
            if record in state.static_copies or aura is None or aura.zone == "battlefield" or host is None:
                continue
            if host.zone == "battlefield" and host.incarnation == record.incarnation \
                    and host.copy_of is record.before:
                state = state.with_obj(replace(host, copy_of=record.values))
        return state, result
    return run_step


class StaticCopyOutlivesAura(Mutant):
    description = ("the enchanted creature stays a copy after the Aura whose static ability made it one has left "
                   "the battlefield (611.3a: the effect lasts only while its source is there)")
    seams = {"run_step": _outlives_aura}
    witnesses = ("copy/aura/alteration-leaving-ends-the-copy",)


def _noncreature_pt(state):
    """The power and toughness effects on permanents that are not creatures now."""
    return [e for e in state.effects if isinstance(e.does, (Pump, SetBasePT)) and e.obj in state.objects
            and state.obj(e.obj).zone == "battlefield" and not chars(state, state.obj(e.obj)).is_creature]


def _drops_noncreature_pt(real, ctx):
    def run_step(state, step, trace):
        state, result = real(state, step, trace)
        dropped = _noncreature_pt(state)
        if dropped:
            state = replace(state, effects=tuple(e for e in state.effects if e not in dropped))
        return state, result
    return run_step


class PTEffectOnNoncreatureDropped(Mutant):
    description = ("an effect changing the power or toughness of a permanent that is not a creature is dropped "
                   "(208.3a: it is created anyway and applies once the permanent becomes a creature)")
    seams = {"run_step": _drops_noncreature_pt}
    witnesses = ("power/noncreature/motorcycle-pump-waits-for-march",)


def _starts_when_creature(real, ctx):
    def run_step(state, step, trace):
        waiting = ctx.setdefault("waiting", [])
        state, result = real(state, step, trace)
        parked = _noncreature_pt(state)
        if parked:
            waiting.extend(parked)
            state = replace(state, effects=tuple(e for e in state.effects if e not in parked))
        ready = [e for e in waiting if e.obj in state.objects and state.obj(e.obj).incarnation == e.incarnation
                 and chars(state, state.obj(e.obj)).is_creature]
        if ready:
            waiting[:] = [e for e in waiting if e not in ready]
            state = replace(state, effects=state.effects + tuple(ready))
        return state, result
    return run_step


class PTEffectWaitsOutsideTheTurn(Mutant):
    description = ("an effect changing the power of a permanent that is not a creature is held back and begins "
                   "only once it becomes a creature, its duration counted from then (208.3a: it exists from the "
                   "start, and an until-end-of-turn one ends with its turn, applied or not)")
    seams = {"run_step": _starts_when_creature}
    witnesses = ("power/noncreature/motorcycle-pump-ends-with-the-turn",)
