"""Mutants of prototype (702.160, 718.3): the prototype's values, on spells, permanents and copies;
and of the mana value a cost modifier judges (202.3e)."""
from __future__ import annotations

from dataclasses import replace

from castrules.oracle.characteristics import prototype_active
from castrules.oracle.costs import ManaCost, colors_of, parse_cost

from .base import Mutant


def _prototyped_fixed(fix):
    """characteristics wrapper: for an object whose prototype values apply, overwrite some
    characteristics with `fix(chars, obj)`."""
    def make(real, ctx):
        def characteristics(state, obj):
            c = real(state, obj)
            return replace(c, **fix(c, obj)) if prototype_active(obj) else c
        return characteristics
    return make


def _normal_colours(c, obj) -> dict:
    if obj.base.color_indicator is not None:
        return {}
    return {"colors": colors_of(parse_cost(obj.base.mana_cost))}


def _normal_power_toughness(c, obj) -> dict:
    p, base = obj.base.prototype, obj.base
    return {"power": c.power - p.power + base.power if c.power is not None else None,
            "toughness": c.toughness - p.toughness + base.toughness if c.toughness is not None else None}


class PrototypeKeepsNormalColour(Mutant):
    description = "a prototyped spell or permanent keeps the colour of its normal mana cost (718.3b)"
    seams = {"characteristics": _prototyped_fixed(_normal_colours)}
    witnesses = ("prototype/characteristics/blitz-automaton-prototyped-on-stack",)


class PrototypeNormalPowerToughness(Mutant):
    description = "a prototyped spell or permanent keeps the card's normal power and toughness (718.3b)"
    seams = {"characteristics": _prototyped_fixed(_normal_power_toughness)}
    witnesses = ("prototype/characteristics/blitz-automaton-prototyped-on-battlefield",)


def _normal_mana_value(real, ctx):
    def object_view(state, obj):
        view = real(state, obj)
        if prototype_active(obj):
            printed = parse_cost(obj.base.mana_cost)
            view["mana_value"] = printed.mana_value() if printed is not None else 0
        return view
    return object_view


class PrototypeKeepsNormalManaValue(Mutant):
    description = "a prototyped spell or permanent reports the mana value of its normal mana cost (718.3b)"
    seams = {"object_view": _normal_mana_value}
    witnesses = ("prototype/characteristics/depth-charge-colossus-prototyped-mana-value-6",)


def _normal_cost_paid(real, ctx):
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        spell = prop.state.obj(prop.spell)
        if spell.prototyped and prop.announced.alt_cost is None and spell.base.mana_cost is not None:
            prop = replace(prop, to_pay=ManaCost.parse(spell.base.mana_cost))
        return real(prop, spec, hybrid, phyrexian, trace)
    return pay_spell


class PrototypePaysNormalCost(Mutant):
    description = "a prototyped spell's total cost starts from the card's normal mana cost (718.3b: the prototype cost)"
    seams = {"pay_spell": _normal_cost_paid}
    witnesses = ("prototype/legality/fleshgorger-listed-payment-exact",)


def _spell_copy_not_prototyped(real, ctx):
    def copy_spell(state, oid, new_id, controller, trace):
        state = real(state, oid, new_id, controller, trace)
        return state.with_obj(replace(state.obj(new_id), prototyped=False))
    return copy_spell


class CopyOfPrototypedSpellNotPrototyped(Mutant):
    description = "a copy of a prototyped spell has the card's normal values (718.3c copies the prototype)"
    seams = {"copy_spell": _spell_copy_not_prototyped}
    witnesses = ("copy/spell/prototyped-spell-copy-is-prototyped",)


def _permanent_copy_normal(real, ctx):
    def copy_permanent(state, oid, new_id, controller, trace):
        orig = state.obj(oid)
        if orig.prototyped:
            state = state.with_obj(replace(orig, prototyped=False))
            state = real(state, oid, new_id, controller, trace)
            return state.with_obj(replace(state.obj(oid), prototyped=True))
        return real(state, oid, new_id, controller, trace)
    return copy_permanent


class CopyOfPrototypedPermanentNormal(Mutant):
    description = "a token copy of a prototyped permanent has the card's normal values (718.3d)"
    seams = {"copy_permanent": _permanent_copy_normal}
    witnesses = ("copy/permanent/prototyped-permanent-token-copy",)




def _modifiers_before_variables(real, ctx):
    """cost_modifiers wrapper: judge the spell as if no X, Y or Z had been announced yet."""
    def cost_modifiers(state, spell, caster):
        bare = replace(spell, announced=replace(spell.announced, x=None, y=None, z=None))
        return real(state.with_obj(bare), bare, caster)
    return cost_modifiers


class ModifierSeesXAsZero(Mutant):
    description = ("a cost modifier judging mana value counts the spell's X as 0 at 601.2f, although X was "
                   "announced at 601.2b and counts on the stack (202.3e)")
    seams = {"cost_modifiers": _modifiers_before_variables}
    witnesses = ("cost/drover/announced-x-reaches-six",)
