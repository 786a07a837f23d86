"""Mutants of copies (707): what a copy of a spell copies, the copies made for each target, a copy of
an ability's source (707.10b), and the additional effects and linked triggers of copy effects
applied one after another as a permanent enters (707.9e, 707.9g)."""
from __future__ import annotations

from dataclasses import replace

from .base import Mutant


def _prowl_not_copied(real, ctx):
    def copy_spell(state, oid, new_id, controller, trace):
        state = real(state, oid, new_id, controller, trace)
        copy = state.obj(new_id)
        return state.with_obj(replace(copy, announced=replace(copy.announced, prowl_paid=False, alt_cost=None)))
    return copy_spell


class ProwlPaidNotCopied(Mutant):
    description = "a copy of a spell whose prowl cost was paid is not prowl-paid (707.10 copies that choice)"
    seams = {"copy_spell": _prowl_not_copied}
    witnesses = ("copy/spell/prowl-paid-copied",)


def _any_target_legal(real, ctx):
    def copy_target_legal(state, orig, ref, controller, source_id):
        real(state, orig, ref, controller, source_id)      # still refuses an unknown reference
        return True
    return copy_target_legal


class CopyIgnoresTargetLegality(Mutant):
    description = ("a copy with a specified new target, or a copy for each candidate, is made even when that "
                   "player or object isn't a legal target (707.10d, 707.10e)")
    seams = {"copy_target_legal": _any_target_legal}
    witnesses = ("copy/spell/specified-target-illegal-no-copy",)


def _reverse_order(real, ctx):
    def copy_for_each(state, oid, new_ids, controller, trace):
        return real(state, oid, dict(reversed(list(new_ids.items()))), controller, trace)
    return copy_for_each


class CopiesForEachInReverseOrder(Mutant):
    description = "copies made for each candidate go on the stack in the reverse of the chosen order (707.10d)"
    seams = {"copy_for_each": _reverse_order}
    witnesses = ("copy/spell/copy-for-each-bolt-players-in-chosen-order",)


def _every_copy_effects_counter(real, ctx):
    def copy_additional_effects(obj, applied, trace):
        for one in applied[:-1]:                # as if each copy effect's counter were judged on its own
            obj = real(obj, (one,), trace)
        return real(obj, applied[-1:], trace)
    return copy_additional_effects


class CopyCounterKeptAfterLaterCopy(Mutant):
    description = ("a permanent entering as a copy keeps the extra counter of a copy effect applied before another "
                   "copy effect (Spark Double copying an uncopied Quicksilver Gargantuan that copies again, 707.9e)")
    seams = {"copy_additional_effects": _every_copy_effects_counter}
    witnesses = ("copy/exceptions/spark-double-then-gargantuan-copying-bears-loses-the-counter",)


def _every_linked_trigger(real, ctx):
    def copy_linked_triggers(oid, applied, trace):
        found = ()
        for n in range(len(applied)):           # as if each copy effect's linked trigger triggered
            found += real(oid, applied[n:n + 1], trace)
        return found
    return copy_linked_triggers


class LinkedTriggerAfterLaterCopy(Mutant):
    description = ("the triggered ability linked to a copy effect triggers even though another copy effect was "
                   "applied after it (Superior Spider-Man copying a Quicksilver Gargantuan card that copies again "
                   "still exiles that card, 707.9g)")
    seams = {"copy_linked_triggers": _every_linked_trigger}
    witnesses = ("copy/linked-trigger/superior-spider-man-then-gargantuan-copying-bears-exiles-nothing",)


def _source_by_name(real, ctx):
    def copy_ability(state, oid, new_id, controller, trace):
        state = real(state, oid, new_id, controller, trace)
        copy = state.obj(new_id)
        source = copy.stack_ability.source
        name = state.obj(source).base.name
        same = [o.id for o in state.battlefield() if o.id != source and o.base.name == name]
        if not same:
            return state
        # the copy's "this creature" looked up by name: the other permanent with that name
        return state.with_obj(replace(copy, stack_ability=replace(copy.stack_ability, source=same[-1])))
    return copy_ability


class AbilityCopyFindsSourceByName(Mutant):
    description = ("a copy of an ability takes as its source another permanent with the original source's name "
                   "rather than that same object (707.10b)")
    seams = {"copy_ability": _source_by_name}
    witnesses = ("copy/ability/prowess-copy-pumps-its-own-swiftspear",)


def _back_face_only(real, ctx):
    def copy_permanent(state, oid, new_id, controller, trace):
        orig = state.obj(oid)
        state = real(state, oid, new_id, controller, trace)
        if orig.face.transformed:
            token = state.obj(new_id)
            state = state.with_obj(replace(token, card=orig.base, copy_of=orig.base, face=type(token.face)()))
        return state
    return copy_permanent


class TokenCopyOfTransformedCopiesBackFaceOnly(Mutant):
    description = ("a token copy of a transformed permanent copies only the back face that is up, so its mana value "
                   "is 0, not a transforming token counting its front face's cost (707.8a, 202.3b)")
    seams = {"copy_permanent": _back_face_only}
    witnesses = ("copy/permanent/token-copy-of-transformed-permanent-is-transforming",)
