"""Mutants of the total cost (601.2f, 118.7, 118.9) and of paying it (601.2g-h, 119.4)."""
from __future__ import annotations

from dataclasses import replace

from castrules.model.abilities import CostModifier
from castrules.model.vocab import AlternativeCostName
from castrules.oracle import casting, payment
from castrules.oracle.characteristics import chars
from castrules.oracle.costs import ConcreteCost, ManaCost, ManaType, SymbolKind, concrete_text, resolve_choices
from castrules.oracle.errors import Illegal
from castrules.oracle.seams import rules
from castrules.oracle.total_cost import Floor, Increase, Modifier, Reduction
from castrules.oracle.trace import Trace
from castrules.oracle.zones import move

from .base import Mutant, remember_proposal, substitute, with_rules


def _in_two_passes(in_first, between: str):
    """total_cost wrapper: the modifiers `in_first` picks alone (in the player's order), then the
    others on the result: two lock-ins where 601.2f has one ordered pass."""
    def make(real, ctx):
        def total_cost(state, spell, caster, start, start_label, player_order, trace):
            mods = rules().cost_modifiers(state, spell, caster)
            first = [m for m in mods if in_first(m)]
            then = [m for m in mods if not in_first(m)]
            with with_rules(cost_modifiers=lambda *a: first):
                partial = real(state, spell, caster, start, start_label, player_order, trace)
            with with_rules(cost_modifiers=lambda *a: then):
                return real(state, spell, caster, partial.cost, between, (), trace)
        return total_cost
    return make


class ReductionsBeforeIncreases(Mutant):
    description = "applies cost reductions before cost increases (601.2f adds increases first)"
    seams = {"total_cost": _in_two_passes(lambda m: isinstance(m, Reduction), "the reduced cost")}
    witnesses = ("cost/order/increase-then-reduction-on-bolt",)


class IncreasesAfterFloor(Mutant):
    description = "cost increases are added after Trinisphere's floor (the floor applies last, 601.2f)"
    seams = {"total_cost": _in_two_passes(lambda m: not isinstance(m, Increase), "the cost after the floor")}
    witnesses = ("cost/trinisphere/applied-after-increase",)


def _x_part(ctx) -> int:
    prop = ctx.get("prop")
    if prop is None or prop.to_pay is None or not prop.announced.x:
        return 0
    return prop.announced.x * sum(1 for s in prop.to_pay.symbols if s.kind is SymbolKind.X)


def _floor_before_x(real, ctx):
    def cost_floor(cost, minimum):
        short = minimum - (cost.mana_amount - _x_part(ctx))
        return (cost.add(short), "601.2f") if short > 0 else (cost, "601.2f")
    return cost_floor


class TrinisphereBeforeX(Mutant):
    description = "Trinisphere's floor looks at the cost before X is added (X counted on top of the floor)"
    seams = {"pay_spell": remember_proposal, "cost_floor": _floor_before_x}
    witnesses = ("x/trinisphere/trinisphere-blaze-x-one",)


def _floor_counting_life(cost, minimum):
    short = minimum - (cost.mana_amount + cost.life // 2)
    return (cost.add(short), "601.2f") if short > 0 else (cost, "601.2f")


class TrinisphereCountsLife(Mutant):
    description = "Trinisphere's floor counts Phyrexian symbols paid with life as mana paid"
    seams = {"cost_floor": substitute(_floor_counting_life)}
    witnesses = ("cost/trinisphere/life-paid-is-not-mana",)


def _pay_before_locking(real, ctx):
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        if prop.to_pay is None:
            return real(prop, spec, hybrid, phyrexian, trace)
        state = prop.state
        spell = state.obj(prop.spell)
        start = resolve_choices(prop.to_pay, prop.announced.x, list(hybrid), list(phyrexian))
        first = rules().total_cost(state, spell, prop.caster, start, prop.label, spec.reductions, Trace(trace.step))
        try:
            state = payment.activate_listed(state, prop.caster, spec.mana_abilities, first.cost, trace)
        except Illegal as exc:
            exc.total_cost, exc.life_paid = concrete_text(first.cost), first.cost.life
            raise
        if casting.can_sacrifice(state, prop, spec):
            for oid in spec.sacrifice:
                state = move(state, oid, "graveyard", trace, note="sacrificed before the cost is computed")
            spec = replace(spec, sacrifice=())
        # the bug: the cost is worked out only now, from the state after payment began
        return real(replace(prop, state=state), replace(spec, mana_abilities=()), hybrid, phyrexian, trace)
    return pay_spell


class NoLockIn(Mutant):
    description = ("no lock-in: the total is recomputed after payment began (after the mana abilities and "
                   "the sacrifices), so a reducer or taxer sacrificed while paying changes the cost")
    seams = {"pay_spell": _pay_before_locking}
    witnesses = ("lock-in/sacrifice/altars-reap-sacrifices-thalia",
                 "lock-in/mana-window/mana-ability-sacrifices-thalia-mid-cast")


def _drop_modifiers(kind: type[Modifier], when):
    """cost_modifiers wrapper: drop the modifiers of type `kind` while `when(proposal)` holds."""
    def make(real, ctx):
        def cost_modifiers(state, spell, caster):
            mods = real(state, spell, caster)
            prop = ctx.get("prop")
            if prop is not None and when(prop):
                mods = [m for m in mods if not isinstance(m, kind)]
            return mods
        return cost_modifiers
    return make


class ReductionsIgnoredForAlternativeCosts(Mutant):
    description = "cost reductions are not applied when the spell is cast for an alternative cost (118.9d)"
    seams = {"pay_spell": remember_proposal, "cost_modifiers": _drop_modifiers(Reduction, lambda p: p.announced.alt_cost is not None)}
    witnesses = ("prowl/bonus/reduced-prowl-still-counts-as-paid",)


class FloorIgnoresFreeSpells(Mutant):
    description = "Trinisphere's floor is not applied to a spell cast without paying its mana cost (601.2f applies it)"
    seams = {"pay_spell": remember_proposal,
             "cost_modifiers": _drop_modifiers(Floor, lambda p: p.announced.alt_cost == AlternativeCostName.WITHOUT_PAYING_MANA_COST)}
    witnesses = ("cost/trinisphere/free-spell-costs-three",)


def _generic_eats_coloured(cost, n):
    rest = max(0, n - cost.generic)
    colored = cost.colored
    for t in ManaType:
        take = min(rest, colored[t])
        if take:
            colored = colored.with_count(t, colored[t] - take)
            rest -= take
    return ConcreteCost(colored, max(0, cost.generic - n), cost.life, cost.snow), "118.7a"


class GenericReductionsEatColoured(Mutant):
    description = "a generic reduction larger than the generic part goes on to remove coloured mana (118.7a)"
    seams = {"reduce_generic": substitute(_generic_eats_coloured)}
    witnesses = ("cost/helm/coloured-symbol-untouched",)


def _typed_only_on_its_colour(real, ctx):
    def reduce_typed(cost, mana_type, n):
        if cost.colored[ManaType.coerce(mana_type)] == 0:
            return cost, "118.7b"
        return real(cost, mana_type, n)
    return reduce_typed


class ReductionOnlyOnGenericSymbols(Mutant):
    description = ("a coloured reduction ({B}) with no mana of its colour in the cost reduces nothing "
                   "(118.7b: it comes off generic)")
    seams = {"reduce_typed": _typed_only_on_its_colour}
    witnesses = ("cost/typed-reduction/black-reduction-on-green-spell",)


class TwoAlternativeCosts(Mutant):
    description = "several alternative costs may be announced; the first one is used (118.9a allows one)"
    seams = {"one_alternative_cost": substitute(lambda announced: announced[0] if announced else None)}
    witnesses = ("casting/announce/prowl-and-omniscience-together",)


def _kicker_dropped(real, ctx):
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        spell = prop.state.obj(prop.spell)
        if prop.announced.alt_cost is not None and prop.announced.kicked and spell.base.kicker and prop.to_pay is not None:
            kick = len(ManaCost.parse(spell.base.kicker).symbols)
            prop = replace(prop, to_pay=ManaCost(prop.to_pay.symbols[:len(prop.to_pay.symbols) - kick]))
        return real(prop, spec, hybrid, phyrexian, trace)
    return pay_spell


class KickerDroppedWithAlternativeCost(Mutant):
    description = "kicker is not added when the spell is cast for an alternative cost (118.8 adds it to any cost)"
    seams = {"pay_spell": _kicker_dropped}
    witnesses = ("casting/costs/kicked-offering-free-pays-kicker",)


def _kindred_is_creature(real, ctx):
    def modifier_matches(c, obj, flt, source_controller, source_id=None):
        if "Kindred" in c.types and "Creature" not in c.types:
            c = replace(c, types=c.types + ("Creature",))
        return real(c, obj, flt, source_controller, source_id)
    return modifier_matches


class KindredCountsAsCreatureSpell(Mutant):
    description = "cost modifiers treat a Kindred spell with creature types as a creature spell (Thalia skips it)"
    seams = {"modifier_matches": _kindred_is_creature}
    witnesses = ("cost/thalia/kindred-instant-costs-more",)


def _coloured_counts_as_multicoloured(real, ctx):
    def modifier_matches(c, obj, flt, source_controller, source_id=None):
        if flt not in (None, "self") and flt.multicolored and c.colors:
            flt = replace(flt, multicolored=False)
        return real(c, obj, flt, source_controller, source_id)
    return modifier_matches


class MulticolouredMeansColoured(Mutant):
    description = "a cost modifier for multicoloured spells (Urza's Filter) reduces any coloured spell, one colour too (105.2b)"
    seams = {"modifier_matches": _coloured_counts_as_multicoloured}
    witnesses = ("counted/up-to/urzas-filter-skips-monocoloured-and-stops-at-colour",)


def _applies_while_tapped(real, ctx):
    def modifier_applies(ab, src, spell, c, caster):
        return real(ab, replace(src, tapped=False), spell, c, caster)
    return modifier_applies


class TrinisphereWhileTapped(Mutant):
    description = "Trinisphere's floor applies while it is tapped"
    seams = {"modifier_applies": _applies_while_tapped}
    witnesses = ("cost/trinisphere/tapped-does-nothing",)


def _tax_spares_controller(real, ctx):
    def modifier_applies(ab, src, spell, c, caster):
        if (isinstance(ab, CostModifier) and ab.change == "increase" and ab.whose == "all"
                and caster == src.controller):
            return False
        return real(ab, src, spell, c, caster)
    return modifier_applies


class TaxSparesItsController(Mutant):
    description = "a cost increase that applies to every player's spells (Thalia) spares its own controller's spells"
    seams = {"modifier_applies": _tax_spares_controller}
    witnesses = ("cost/thalia/kindred-sorcery-costs-more",)


def _reducer_for_all(real, ctx):
    def modifier_applies(ab, src, spell, c, caster):
        if isinstance(ab, CostModifier) and ab.change != "increase" and ab.whose in (None, "you"):
            ab = replace(ab, whose="all")
        return real(ab, src, spell, c, caster)
    return modifier_applies


class ReducerHelpsOpponents(Mutant):
    description = "a reduction for 'spells you cast' (Goblin Electromancer) also reduces opponents' spells"
    seams = {"modifier_applies": _reducer_for_all}
    witnesses = ("cost/electromancer/opponents-instant-not-reduced",)


class ReductionChoiceIgnored(Mutant):
    description = "the player's order and hybrid choices for reductions are ignored; the engine picks (601.2f, 118.7e)"
    seams = {"order_reductions": lambda real, ctx: lambda cost, reds, player_order: real(cost, reds, ())}
    witnesses = ("cost/typed-reduction/twobrid-reduction-white-half",)


def _count_every_artifact(real, ctx):
    def modifier_count(state, per, player):
        if per == "artifacts_you_control":
            return sum(1 for o in state.battlefield() if chars(state, o).is_("Artifact"))
        return real(state, per, player)
    return modifier_count


class AffinityCountsAllArtifacts(Mutant):
    description = "affinity for artifacts counts every artifact on the battlefield, not only yours"
    seams = {"modifier_count": _count_every_artifact}
    witnesses = ("gaps/affinity/ignores-opponents-artifacts",)


def _one_instance(per):
    """cost_modifiers keeping only the first reduction counting `per`: the keyword as a flag a spell has or not."""
    def wrap(real, ctx):
        def cost_modifiers(state, spell, caster):
            mods, seen = [], False
            for m in real(state, spell, caster):
                if isinstance(m, Reduction) and m.per == per:
                    if seen:
                        continue
                    seen = True
                mods.append(m)
            return mods
        return cost_modifiers
    return wrap


class AffinityInstancesMerged(Mutant):
    description = ("several instances of affinity for artifacts on one spell count once (702.41b: each applies), "
                   "so Mycosynth Golem's granted affinity adds nothing to Frogmyr Enforcer's own")
    seams = {"cost_modifiers": _one_instance("artifacts_you_control")}
    witnesses = ("counted/affinity/frogmyr-enforcer-with-mycosynth-golem-has-two-affinities",)


class UndauntedInstancesMerged(Mutant):
    description = ("several instances of undaunted on one spell count once (702.125c: each applies), "
                   "so Test Undaunted Banner's granted undaunted adds nothing to Sublime Exhalation's own")
    seams = {"cost_modifiers": _one_instance("opponents")}
    witnesses = ("undaunted/instances/banner-gives-a-second-undaunted",)


def _life_must_exceed(state, player, amount):
    return state.player(player).life > amount


class LifeMustExceedPayment(Mutant):
    description = "paying life for Phyrexian mana needs more life than the amount (119.4: at least that much)"
    seams = {"life_payable": substitute(_life_must_exceed)}
    witnesses = ("cost/phyrexian/dismember-four-life-at-four",)


def _objects_pay_coloured(real, ctx):
    def object_payment(spell, delve, improvise, total, trace, granted=()):
        extra = len(delve) + len(improvise) - total.generic
        if extra <= 0:
            return real(spell, delve, improvise, total, trace, granted)
        parts, _ = real(spell, delve, improvise, replace(total, generic=total.generic + extra), trace, granted)
        rest = replace(total, generic=0)
        for t in ManaType:          # the bug: the objects beyond the generic mana pay coloured mana
            take = min(extra, rest.colored[t])
            rest = replace(rest, colored=rest.colored.with_count(t, rest.colored[t] - take))
            extra -= take
        return parts, rest
    return object_payment


class DelvePaysColouredMana(Mutant):
    description = ("delve's exiled cards (and improvise's artifacts) beyond the total's generic mana pay its coloured "
                   "mana too (702.66a, 702.126a: generic only)")
    seams = {"object_payment": _objects_pay_coloured}
    witnesses = ("delve/illegal/eighth-card-cannot-pay-blue",)


def _delve_lowers_total(real, ctx):
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        state, result = real(prop, spec, hybrid, phyrexian, trace)
        paid_by_objects = len(spec.delve) + len(spec.improvise)
        if paid_by_objects and result.get("total_cost"):
            total = ConcreteCost.parse(result["total_cost"])
            result = {**result, "total_cost": concrete_text(replace(total, generic=total.generic - paid_by_objects))}
        return state, result
    return pay_spell


class DelveAsCostReduction(Mutant):
    description = ("delve and improvise are treated as cost reductions: the locked total reported loses the generic "
                   "mana the objects paid (702.66b, 702.126b: they apply after the total is locked)")
    seams = {"pay_spell": _delve_lowers_total}
    witnesses = ("delve/pay/treasure-cruise-exiles-seven", "improvise/pay/three-artifacts-pay-the-generic-part")



def _count_players_who_left(real, ctx):
    def modifier_count(state, per, player):
        if per == "opponents":          # the bug: players who left the game are still counted
            return sum(1 for p in state.players if p.name != player)
        return real(state, per, player)
    return modifier_count


class UndauntedCountsPlayersWhoLeft(Mutant):
    description = "undaunted counts players who have left the game as opponents (702.125b)"
    seams = {"modifier_count": _count_players_who_left}
    witnesses = ("undaunted/opponents/player-who-left-is-not-counted",)


def _count_every_attacker(real, ctx):
    def modifier_count(state, per, player):
        if per == "attacking_creatures_you_control":    # the bug: whoever controls the attacker
            return sum(1 for o in state.battlefield() if o.combat.attacking is not None and chars(state, o).is_creature)
        return real(state, per, player)
    return modifier_count


class AttackersOfEveryPlayerCounted(Mutant):
    description = "\"each attacking creature you control\" counts every attacking creature, whoever controls it"
    seams = {"modifier_count": _count_every_attacker}
    witnesses = ("counted/attacking/embercleave-opponents-attackers-do-not-count",)


def _set_keeps_colours(real, ctx):
    def cost_set(cost, mana):
        new = real(cost, mana)
        return type(new)(cost.colored, new.generic, new.life, new.snow)
    return cost_set


class CostSetKeepsColouredMana(Mutant):
    description = ("an effect setting the total's mana (Test Fixed Toll) replaces only its generic part and keeps the "
                   "coloured symbols the cost had (601.2f: the whole mana of the total becomes the set amount)")
    seams = {"cost_set": _set_keeps_colours}
    witnesses = ("matrix/set/mana-cost-from-hand",)
