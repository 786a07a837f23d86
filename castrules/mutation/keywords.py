"""Mutants of the supplement's cost keywords: multikicker (702.33c), flashback (702.34a), entwine
(702.42a), escalate (702.120a; both also paid with objects), buyback (702.27a), dash (702.109a),
awaken (702.113a), emerge from a quality (702.119b); affinity (702.41a) and the costs "unless"
effects offer (118.12a: Condescend's X, Rune Snag's count); delve and improvise (702.66b, 702.126b)."""
from __future__ import annotations

from dataclasses import replace

from castrules.model.parts import Filter

from .base import Mutant, remember_proposal, substitute


def _never_exiled(real, ctx):
    def leave_stack_zone(obj, zone):
        return zone
    return leave_stack_zone


class FlashbackNotExiled(Mutant):
    description = "a spell whose flashback cost was paid goes where it would have gone, not to exile (702.34a)"
    seams = {"leave_stack_zone": _never_exiled}
    witnesses = ("flashback/cast/think-twice-from-graveyard-then-exiled",
                 "flashback/resolve/flashback-spell-with-an-illegal-target-is-exiled")


def _only_printed_flashback_exiled(real, ctx):
    def leave_stack_zone(obj, zone):
        return real(obj, zone) if obj.base.flashback is not None else zone
    return leave_stack_zone


class GrantedFlashbackNotExiled(Mutant):
    description = ("a card cast for a flashback cost another effect gave it (Snapcaster Mage) is not exiled as it "
                   "leaves the stack: only cards with flashback of their own are (702.34a)")
    seams = {"leave_stack_zone": _only_printed_flashback_exiled}
    witnesses = ("flashback/granted/snapcaster-gives-lightning-bolt-flashback-for-its-mana-cost",
                 "flashback/granted/snapcaster-bolt-whose-target-is-gone-is-exiled")


def _keyword_cost_dropped(keyword: str):
    """The keyword_costs seam with one announced keyword's cost left out of the total."""
    def seam(real, ctx):
        def keyword_costs(spell, spec, name, to_pay, label, trace):
            return real(spell, replace(spec, **{keyword: False}), name, to_pay, label, trace)
        return keyword_costs
    return seam


def _multikicker_once(real, ctx):
    def keyword_costs(spell, spec, name, to_pay, label, trace):
        return real(spell, replace(spec, multikicker=min(spec.multikicker, 1)), name, to_pay, label, trace)
    return keyword_costs


class MultikickerPaidOnce(Mutant):
    description = ("multikicker is treated as kicker: its cost is added once however many times it is announced, "
                   "while the spell still counts every kick (702.33c)")
    seams = {"keyword_costs": _multikicker_once}
    witnesses = ("multikicker/count/gnarlid-pack-kicked-three-times",
                 "multikicker/increase/sphere-of-resistance-on-a-twice-kicked-gnarlid-pack")


class EntwineCostNotAdded(Mutant):
    description = "an entwined spell gets every mode but its entwine cost is never added to the total (702.42a)"
    seams = {"keyword_costs": _keyword_cost_dropped("entwine")}
    witnesses = ("entwine/cast/barbed-lightning-entwined-does-both",)


class EscalateForEveryMode(Mutant):
    description = ("escalate is paid for every mode chosen, the first one included (702.120a: only those beyond "
                   "the first)")
    seams = {"escalate_count": substitute(len)}   # every mode, the first included
    witnesses = ("escalate/cost/collective-defiance-two-modes-pay-escalate-once",)


class ObjectKeywordCostsNotAsked(Mutant):
    description = ("an entwine or escalate cost paid with objects is never asked for: Solar Tide gets both modes "
                   "without its two lands, Collective Brutality its extra modes without the discards (702.42a, "
                   "702.120a)")
    seams = {"keyword_object_costs": substitute(lambda spell, spec: ())}
    witnesses = ("entwine/objects/solar-tide-entwined-sacrifices-two-lands",
                 "escalate/objects/collective-brutality-two-modes-discards-one-card")


class EmergeOnlyFromCreatures(Mutant):
    description = ("emerge always asks for a creature, even for \"emerge from artifact\" (702.119b): Crabomination can't "
                   "emerge from Sol Ring or a Treasure")
    seams = {"emerge_quality": substitute(lambda spell: (Filter(types=("Creature",)), "702.119a"))}
    witnesses = ("emerge/from-artifact/crabomination-taps-sol-ring-then-sacrifices-it",)


def _spell_discards_itself(real, ctx):
    """check_discard that judges the hand as it was before the spell moved to the stack."""
    def check_discard(state, part, player, source):
        return real(state, replace(part, chosen=tuple(c for c in part.chosen if c != source)), player, source)
    return check_discard


class SpellDiscardsItself(Mutant):
    description = ("the spell being cast may be one of the cards discarded for its own discard cost (the hand judged "
                   "as it was before the spell moved to the stack, 601.2a)")
    seams = {"check_discard": _spell_discards_itself}
    witnesses = ("escalate/objects/collective-brutality-cannot-discard-itself",
                 "tokens/treasure/big-score-without-a-card-to-discard")


class BuybackCostNotAdded(Mutant):
    description = "a buyback payment is announced but its cost is never added to the total (702.27a)"
    seams = {"keyword_costs": _keyword_cost_dropped("buyback")}
    witnesses = ("buyback/resolve/whispers-of-the-muse-bought-back-returns-to-hand",)


def _bought_back_whatever(real, ctx):
    def leave_stack_zone(obj, zone):
        return "hand" if obj.announced.bought_back and zone == "graveyard" else real(obj, zone)
    return leave_stack_zone


class BuybackEvenUnresolved(Mutant):
    description = ("a bought-back spell returns to its owner's hand even when it is countered or does not resolve "
                   "(702.27a: only as it resolves)")
    seams = {"leave_stack_zone": _bought_back_whatever}
    witnesses = ("buyback/countered/bought-back-spell-countered-goes-to-the-graveyard",
                 "buyback/resolve/bought-back-spell-that-does-not-resolve-goes-to-the-graveyard")


class DashNeverReturns(Mutant):
    description = ("a permanent whose dash cost was paid keeps haste but stays on the battlefield: no return to its "
                   "owner's hand at the next end step (702.109a)")
    seams = {"dash_return": substitute(lambda state, oid, trace: state)}
    witnesses = ("dash/return/dashed-heelcutter-returns-to-hand-at-the-end-step",
                 "dash/return/dashed-heelcutter-under-bs-control-returns-to-as-hand")


def _awakening_ends(real, ctx):
    def awaken_land(state, oid, n, trace):
        state = real(state, oid, n, trace)
        last = state.effects[-1]
        return replace(state, effects=state.effects[:-1] + (replace(last, lasting=False),))
    return awaken_land


class AwakenEndsWithTheTurn(Mutant):
    description = ("an awakened land stops being a creature at end of turn, as if awaken's effect lasted until end of "
                   "turn (702.113a gives it no duration)")
    seams = {"awaken_land": _awakening_ends}
    witnesses = ("awaken/lasting/awakened-island-is-still-a-creature-next-turn",)


def _unless_x_zero(real, ctx):
    def unless_cost(state, e, source, x):
        return real(state, e, source, 0)        # the bug: the X in the text read as 0 once on the stack
    return unless_cost


class UnlessXReadAsZero(Mutant):
    description = ("the {X} in the cost an \"unless\" effect offers counts 0 instead of the X announced for the "
                   "counterspell (107.3a: Condescend)")
    seams = {"unless_cost": _unless_x_zero}
    witnesses = ("unless/x/condescend-asks-for-its-own-x",)


def _namesake_counts_itself(real, ctx):
    def unless_cost(state, e, source, x):
        if not e.unless_each_namesake:
            return real(state, e, source, x)
        from castrules.oracle.unless import namesakes_in_graveyards, offered
        # the bug: the resolving Rune Snag counts itself, as if it were already in the graveyard
        return offered(e.unless_pays, x, e.unless_each_namesake, namesakes_in_graveyards(state, source) + 1)
    return unless_cost


class RuneSnagCountsItself(Mutant):
    description = ("Rune Snag counts itself among the cards of its name in graveyards while it resolves (608.2h: "
                   "it is on the stack)")
    seams = {"unless_cost": _namesake_counts_itself}
    witnesses = ("unless/counted/rune-snag-counts-both-graveyards", "unless/counted/rune-snag-counts-when-it-resolves")


def _affinity_counts_artifact_spells(real, ctx):
    def modifier_count(state, per, player):
        n = real(state, per, player)
        if per == "artifacts_you_control":      # the bug: artifact spells on the stack count too (the spell itself)
            from castrules.oracle.characteristics import chars
            n += sum(1 for o in state.in_zone("stack") if o.controller == player and chars(state, o).is_("Artifact"))
        return n
    return modifier_count


class AffinityCountsArtifactSpells(Mutant):
    description = ("affinity for artifacts counts the artifact spells its caster controls on the stack, the spell "
                   "itself included (702.41a: artifacts on the battlefield)")
    seams = {"modifier_count": _affinity_counts_artifact_spells}
    witnesses = ("affinity/counting/myr-enforcer-does-not-count-itself",)


def _floor_after_objects(real, ctx):
    def object_payment(spell, delve, improvise, total, trace, granted=()):
        parts, rest = real(spell, delve, improvise, total, trace, granted)
        prop = ctx.get("prop")
        if not parts or prop is None:
            return parts, rest
        from castrules.oracle.seams import rules
        from castrules.oracle.total_cost import Floor
        mods = rules().cost_modifiers(prop.state, prop.state.obj(prop.spell), prop.caster)
        # the bug: what the objects leave to pay in mana is raised to the floor, as if they had reduced the total
        short = max((m.minimum for m in mods if isinstance(m, Floor)), default=0) - rest.mana_amount
        return parts, (replace(rest, generic=rest.generic + short) if short > 0 else rest)
    return object_payment


class FloorAfterDelveAndImprovise(Mutant):
    description = ("delve's cards and improvise's artifacts are taken as reductions that Trinisphere's floor then "
                   "raises back (702.66b, 702.126b: they pay the locked total, which the floor already saw)")
    seams = {"pay_spell": remember_proposal, "object_payment": _floor_after_objects}
    witnesses = ("delve/modifiers/trinisphere-does-not-raise-a-delved-treasure-cruise",
                 "improvise/modifiers/trinisphere-does-not-raise-an-improvised-reverse-engineer")


class GrantedFlashbackNeverChosen(Mutant):
    description = ("a card with flashback of its own that Snapcaster Mage or Past in Flames gives another is always "
                   "cast for its own flashback cost, even when its caster names the granted one (702.34a)")
    seams = {"flashback_of": lambda real, ctx: (lambda state, obj, via=None: real(state, obj, None))}
    witnesses = ("flashback/granted/past-in-flames-firebolt-flashed-back-for-its-mana-cost",
                 "flashback/granted/snapcaster-deep-analysis-granted-flashback-asks-no-life")
