"""Mutants of mana: mana abilities (605, 302.6, 107.6, 106.7), pools (106.4), mana value and
colour (202.2, 202.3), rewinding an illegal cast (601.2e, 730), and the Treasures an effect
counts out (608.2h); automatic payment (601.2g) and what a spending restriction reads (106.6)."""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from castrules.model.parts import ProduceCouldProduce
from castrules.oracle.cast_spec import parse_cast
from castrules.oracle.characteristics import chars
from castrules.oracle.errors import Illegal
from castrules.oracle.mana_abilities import activate
from castrules.oracle.payer import Paying, UntapPart
from castrules.oracle.spending import AbilityOf

from .base import Mutant, substitute


def _sick_creature_taps(real, ctx):
    def check_tap_cost(state, part, paying):
        obj = state.obj(part.object)
        if paying.paying is Paying.MANA_ABILITY and obj.summoning_sick:
            state = state.with_obj(replace(obj, summoning_sick=False))
        return real(state, part, paying)
    return check_tap_cost


class SummoningSickManaAbility(Mutant):
    description = "a summoning-sick creature may activate its {T} mana ability (302.6)"
    seams = {"check_tap_cost": _sick_creature_taps}
    witnesses = ("mana/tap/sick-elves-cannot-tap",)


def _untap_while_untapped(real, ctx):
    def check_tap_cost(state, part, paying):
        obj = state.obj(part.object)
        if isinstance(part, UntapPart) and not obj.tapped:
            state = state.with_obj(replace(obj, tapped=True))
        return real(state, part, paying)
    return check_tap_cost


class UntapSymbolOnUntapped(Mutant):
    description = "{Q} may be paid by an untapped permanent (107.6 needs it tapped)"
    seams = {"check_tap_cost": _untap_while_untapped}
    witnesses = ("casting/mana-abilities/untapped-battery-cannot-pay-untap-symbol",)


def _orchard_looks_at_own_lands(real, ctx):
    def mana_ability_units(state, obj, ab, visiting):
        p = getattr(ab, "add", None)
        if isinstance(p, ProduceCouldProduce) and p.could_produce.lands == "opponents":
            ab = replace(ab, add=replace(p, could_produce=replace(p.could_produce, lands="you")))
        return real(state, obj, ab, visiting)
    return mana_ability_units


class ExoticOrchardOwnLands(Mutant):
    description = "Exotic Orchard-like abilities look at your own lands instead of your opponents' (106.7)"
    seams = {"mana_ability_units": _orchard_looks_at_own_lands}
    witnesses = ("mana/could-produce/orchard-ignores-own-lands",)


class PoolsDoNotEmpty(Mutant):
    description = "mana pools do not empty between steps (106.4)"
    seams = {"empty_pools": substitute(lambda state, trace: state)}
    witnesses = ("mana/pool/empties-at-end-of-step",)


def _symbol_value(kinds: frozenset[str], value: int):
    """cost_mana_value wrapper: symbols of `kinds` count `value` instead of their own mana value."""
    def make(real, ctx):
        def cost_mana_value(cost, x=None, y=None, z=None):
            total = real(cost, x, y, z)
            return total + sum(value - s.mana_value() for s in cost.symbols if s.kind.value in kinds)
        return cost_mana_value
    return make


class HybridManaValueSmallerHalf(Mutant):
    description = "a {2/W} symbol counts 1 toward mana value (its smaller half; 202.3f counts the larger)"
    seams = {"cost_mana_value": _symbol_value(frozenset({"twobrid"}), 1)}
    witnesses = ("mana-value/hybrid/twobrid-counts-two",)


class PhyrexianManaValueZero(Mutant):
    description = "Phyrexian symbols count 0 toward mana value (202.3g: each counts 1)"
    seams = {"cost_mana_value": _symbol_value(frozenset({"phyrexian", "hybrid_phyrexian"}), 0)}
    witnesses = ("mana-value/phyrexian/probe-counts-one",)


def _x_kept_on_battlefield(real, ctx):
    def object_view(state, obj):
        view = real(state, obj)
        c = chars(state, obj)
        if obj.zone == "battlefield" and obj.announced.x and c.mana_cost is not None and c.mana_cost.has_x:
            view["mana_value"] = c.mana_cost.mana_value(obj.announced.x)
        return view
    return object_view


class XManaValueOnBattlefield(Mutant):
    description = ("X keeps its announced value in the mana value of the permanent a spell became "
                   "(202.3e: 0 off the stack)")
    seams = {"object_view": _x_kept_on_battlefield}
    witnesses = ("x/endless-one/enters-with-x-counters",)


def _remember_hybrid_halves(real, ctx):
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        state, result = real(prop, spec, hybrid, phyrexian, trace)
        ctx.setdefault("hybrid", {})[prop.spell] = tuple(h for h in hybrid if h in "WUBRG")
        return state, result
    return pay_spell


def _colours_of_chosen_halves(real, ctx):
    def object_view(state, obj):
        view = real(state, obj)
        chosen = ctx.get("hybrid", {}).get(obj.id)
        if chosen is not None and obj.zone in ("stack", "battlefield"):
            c = chars(state, obj)
            fixed = {sym.components[0].value for sym in (c.mana_cost.symbols if c.mana_cost else ())
                     if sym.kind.value in ("colored", "phyrexian")}
            view["colors"] = [col for col in "WUBRG" if col in fixed or col in chosen]
        return view
    return object_view


class HybridColourFromChosenHalf(Mutant):
    description = "a hybrid spell has only the colours of the halves chosen to pay it (105.2, 202.2d: all its colours)"
    seams = {"pay_spell": _remember_hybrid_halves, "object_view": _colours_of_chosen_halves}
    witnesses = ("mana-value/colour/hybrid-permanent-keeps-both-colours",)


def _mana_abilities_stay(real, ctx):
    def run_step(state, step, trace):
        new_state, result = real(state, step, trace)
        body = step.get("cast") if isinstance(step, Mapping) else None
        if body and not result.get("legal") and result.get("substep") in ("601.2g", "601.2h"):
            for oid, index, produce in parse_cast(body).mana_abilities:
                try:
                    new_state = activate(new_state, body["player"], oid, index, produce, trace)
                except Illegal:
                    break
        return new_state, result
    return run_step


class IllegalCastKeepsManaAbilities(Mutant):
    description = ("an illegal cast is not fully rewound: the mana abilities activated for it stay "
                   "activated (lands tapped, mana in the pool; 601.2e / 730)")
    seams = {"run_step": _mana_abilities_stay}
    witnesses = ("casting/payment/listed-sources-fall-short",)


def _ability_mana_pays_spells(real, ctx):
    def spend_restriction(state, purpose, r, controller, source):
        if r.abilities is not None and r.spells is None:
            r = replace(r, abilities=None)            # the "only abilities" part forgotten
        return real(state, purpose, r, controller, source)
    return spend_restriction


class AbilityOnlyManaPaysSpells(Mutant):
    description = ("mana that may be spent only to activate abilities (Soldevi Machinist) is treated as unrestricted: "
                   "it pays for spells and for any ability (106.6)")
    seams = {"spend_restriction": _ability_mana_pays_spells}
    witnesses = ("spending/machinist/cannot-pay-an-artifact-spell",)


def _restricted_mana_pays_effects(real, ctx):
    def spend_restriction(state, purpose, r, controller, source):
        return True if purpose is None else real(state, purpose, r, controller, source)
    return spend_restriction


class RestrictedManaPaysUnlessCosts(Mutant):
    description = ("mana whose restriction says \"only\" (to cast artifact spells, to activate abilities) pays a cost an "
                   "effect demands as it resolves, such as Force Spike's {1} (106.6, 118.12a)")
    seams = {"spend_restriction": _restricted_mana_pays_effects}
    witnesses = ("unless/restricted/artifact-spell-mana-cannot-pay-force-spike",)


def _own_permanents_too(real, ctx):
    def count_permanents(state, flt, controller):
        return real(state, flt if flt.controller == "any" else replace(flt, controller="any"), controller)
    return count_permanents


class ForEachCountsEveryController(Mutant):
    description = ("an effect's \"for each\" count ignores whose permanents it names: Dockside Extortionist's trigger "
                   "counts its controller's own artifacts and enchantments too, not only the opponents'")
    seams = {"count_permanents": _own_permanents_too}
    witnesses = ("tokens/treasure/dockside-extortionist-counts-opponents-artifacts-and-enchantments",)


def _first_mana_ability_only(real, ctx):
    def auto_supplies(state, player, exclude=frozenset(), spell=None):
        seen: set[str] = set()
        out = []
        for sup, index in real(state, player, exclude, spell):
            if sup.key not in seen:
                seen.add(sup.key)
                out.append((sup, index))
        return out
    return auto_supplies


class AutoPaysWithFirstManaAbilityOnly(Mutant):
    description = ("paying automatically, a permanent with several mana abilities paid by {T} alone is only ever "
                   "tapped for the first one it may use (Rootbound Crag never for green, Eldrazi Temple never for "
                   "{C}{C}; 605.3a)")
    seams = {"auto_supplies": _first_mana_ability_only}
    witnesses = ("payment/auto/dual-land-second-ability-green", "payment/auto/temple-two-mana-for-eldrazi")


def _kindred_is_a_creature_spell(real, ctx):
    def spend_restriction(state, purpose, r, controller, source):
        wants_creature = r.spells is not None and "Creature" in (r.spells.types or ())
        if wants_creature and not isinstance(purpose, AbilityOf) and purpose is not None \
                and "Kindred" in chars(state, purpose).types:
            return True                                 # creature types read as a creature spell
        return real(state, purpose, r, controller, source)
    return spend_restriction


class KindredSpellCountsAsCreatureSpell(Mutant):
    description = ("a Kindred spell, which has creature types, is taken for a creature spell by a spending restriction "
                   "(Ancient Ziggurat's mana pays Nameless Inversion; 205.2a, 106.6)")
    seams = {"spend_restriction": _kindred_is_a_creature_spell}
    witnesses = ("spending/ziggurat/kindred-instant-is-no-creature-spell",)
