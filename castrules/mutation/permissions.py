"""Mutants of the permissions to cast (face-down cards in exile, 601.3f, 406.3; the top of a library, 601.3)
and of how activated abilities are paid (activation cost increases and reductions, 602.2b; mana of any
colour for them, 602.1e)."""
from __future__ import annotations

from dataclasses import replace

from castrules.model.abilities import StaticAbility
from castrules.oracle.characteristics import chars
from castrules.oracle.costs import ConcreteCost, ManaType

from .base import Mutant, substitute


class FaceDownCastWithoutLooking(Mutant):
    description = ("any player with a permission to cast from exile may begin to cast a face-down exiled card, even one "
                   "they are not allowed to look at (601.3f)")
    seams = {"may_look": substitute(lambda obj, player: True)}
    witnesses = ("casting/face-down/owner-with-exile-permission-may-not-look",)


class ActivationIncreaseIgnored(Mutant):
    description = ("effects that make activated abilities cost more (Suppression Field) are ignored: an activation "
                   "pays only its printed cost (602.2b, 601.2f)")
    seams = {"activation_increases": substitute(lambda state, oid, cost, trace: cost)}
    witnesses = ("activation/any-colour/refractor-four-red-short-of-the-increased-total",)


def _any_colour_lost_when_increased(real, ctx):
    """activation_any_colour that gives up once any effect increases activation costs: the
    payment rule matched to the printed cost only."""
    def activation_any_colour(state, oid, cost):
        increased = any(isinstance(ab, StaticAbility) and ab.activation_cost_increase is not None
                        for p in state.battlefield() for ab in chars(state, p).abilities)
        return cost if increased else real(state, oid, cost)
    return activation_any_colour


class AnyColourLostOnIncreasedCost(Mutant):
    description = ("mana of any colour pays a permanent's activation costs only while no effect changes them: under "
                   "Suppression Field, Manascape Refractor's abilities need their own colours again (602.1e)")
    seams = {"activation_any_colour": _any_colour_lost_when_increased}
    witnesses = ("activation/any-colour/refractor-red-mana-pays-the-increased-castle-ability",)


def _any_colour_for_every_ability(real, ctx):
    """activation_any_colour that applies to every activation, whoever's ability it is."""
    def activation_any_colour(state, oid, cost):
        coloured = sum(cost.colored[t] for t in ManaType if t is not ManaType.C)
        return ConcreteCost({ManaType.C: cost.colored[ManaType.C]}, cost.generic + coloured, cost.life, cost.snow)
    return activation_any_colour


class AnyColourForEveryAbility(Mutant):
    description = ("Manascape Refractor's mana of any colour pays the activation costs of every ability its controller "
                   "activates, not only the Refractor's own (602.1e)")
    seams = {"activation_any_colour": _any_colour_for_every_ability}
    witnesses = ("activation/any-colour/castle-own-ability-not-paid-with-red",)


class LibraryPermissionAnyCard(Mutant):
    description = ("a permission to cast from a library (Future Sight) reaches every card of it, not only the top "
                   "one (601.3)")
    seams = {"library_top": substitute(lambda state, oid: True)}
    witnesses = ("library/future-sight/only-the-top-card",)


def _face_down_keeps_own_permission(real, ctx):
    """own_permission judged on the card as if it were face up."""
    def own_permission(card, caster, zone, free):
        return real(replace(card, face=replace(card.face, face_down=False)), caster, zone, free)
    return own_permission


class FaceDownCardKeepsItsAbilities(Mutant):
    description = ("a card exiled face down keeps its own abilities: its owner, allowed to look at it, casts it through "
                   "its own permission to be cast from exile (406.3a: face down it has no characteristics)")
    seams = {"own_permission": _face_down_keeps_own_permission}
    witnesses = ("casting/face-down/hidden-eternal-scourge-has-no-permission-of-its-own",)


class LinkedPermissionOnlyOwnCards(Mutant):
    description = ("a permission linked to the card its source exiled (Gonti, Lord of Luxury) reaches it only if the "
                   "caster owns it: an opponent's card it took can't be cast (607.2)")
    seams = {"reaches_others_cards": substitute(lambda ab: False)}
    witnesses = ("casting/face-down/gonti-controller-casts-the-face-down-card",)


class ActivationReductionIgnored(Mutant):
    description = ("effects that make the abilities a player activates cost less (Zirda, the Dawnwaker) are ignored "
                   "(602.2b, 601.2f)")
    seams = {"activation_reductions": substitute(lambda state, oid, cost, trace: cost)}
    witnesses = ("activation/any-colour/refractor-two-red-pay-the-reduced-castle-ability",)


def _reduction_without_floor(real, ctx):
    """activation_reductions that takes the whole amount off the generic mana, down to nothing."""
    def activation_reductions(state, oid, cost, trace):
        activator = state.obj(oid).controller
        for src in state.battlefield():
            for ab in chars(state, src).abilities:
                if (isinstance(ab, StaticAbility) and ab.activation_cost_reduction is not None
                        and src.controller == activator):
                    off = min(ConcreteCost.parse(ab.activation_cost_reduction).generic, cost.generic)
                    cost = ConcreteCost(cost.colored, cost.generic - off, cost.life, cost.snow)
        return cost
    return activation_reductions


class ActivationReductionBelowOneMana(Mutant):
    description = ("a reduction of activation costs that says it can't leave less than one mana (Zirda, the "
                   "Dawnwaker) makes a {1} ability free")
    seams = {"activation_reductions": _reduction_without_floor}
    witnesses = ("activation/reduction/zirda-leaves-mutavault-its-one-mana",)


class FreeCastAnyCard(Mutant):
    description = ("a resolving effect's free cast (Electrodominance, Kaho) reaches any card of its zone, whatever the "
                   "mana value or the card it names (608.2g, 607.2)")
    seams = {"free_cast_card": substitute(lambda state, e, player, source_id, card_id, x, owner: None)}
    witnesses = ("casting/free-cast/effects-name-their-cards",)


class PermissionLimitsIgnored(Mutant):
    description = ("a permission to cast from a graveyard limited to its controller's turns and to one spell each turn "
                   "(Lurrus of the Dream-Den, Karador, Kess) works any turn, for any number of spells (601.3)")
    seams = {"permission_limit": substitute(lambda state, src, ab, caster: None)}
    witnesses = ("casting/graveyard/lurrus-lets-only-one-spell-each-turn",
                 "casting/graveyard/lurrus-not-during-an-opponents-turn")


def _counts_every_graveyard_cast(real, ctx):
    """permission_limit that counts every spell its controller cast this turn from anywhere but
    the hand, whatever permission let it be cast."""
    def permission_limit(state, src, ab, caster):
        if ab.during == "your_turn" and state.turn.active != caster:
            return "not its controller's turn"
        used = sum(1 for r in state.cast_log if r.player == caster and r.permission is not None)
        return "used" if ab.per_turn is not None and used >= ab.per_turn else None
    return permission_limit


class PermissionCountsOtherPermissions(Mutant):
    description = ("a permission for one spell each turn counts the spells cast through any permission, another "
                   "permanent's included: with Lurrus used, Karador lets nothing be cast (601.3)")
    seams = {"permission_limit": _counts_every_graveyard_cast}
    witnesses = ("casting/graveyard/lurrus-and-karador-each-allow-their-own-spell",)


def _remembered_across_objects(real, ctx):
    """permission_limit that counts by the source's id, so a permanent that left and came back
    (400.7: a new object) still has its old count."""
    def permission_limit(state, src, ab, caster):
        if ab.during == "your_turn" and state.turn.active != caster:
            return "not its controller's turn"
        used = sum(1 for r in state.cast_log if r.permission is not None and r.permission[0] == src.id)
        return "used" if ab.per_turn is not None and used >= ab.per_turn else None
    return permission_limit


class PermissionCountSurvivesBlink(Mutant):
    description = ("a Lurrus exiled and returned keeps the old Lurrus's count of spells cast through its permission "
                   "this turn, though it is a new object (400.7, 601.3)")
    seams = {"permission_limit": _remembered_across_objects}
    witnesses = ("casting/graveyard/lurrus-blinked-is-a-new-lurrus-with-its-own-spell",)


class ZoneProhibitionEverywhere(Mutant):
    description = ("a prohibition on casting from some zones (Grafdigger's Cage: graveyards and libraries) stops "
                   "casts from every zone, exile included (601.3)")
    seams = {"prohibition_zone": substitute(lambda ab, from_zone: True)}
    witnesses = ("casting/prohibition/grafdiggers-cage-does-not-reach-exile",
                 "casting/prohibition/ashes-of-the-abhorrent-does-not-reach-the-library")


class ZoneProhibitionIgnored(Mutant):
    description = ("a prohibition limited to some zones (Grafdigger's Cage, Drannith Magistrate) stops nothing: "
                   "flashback and graveyard permissions go ahead under it (601.3)")
    seams = {"prohibition_zone": substitute(lambda ab, from_zone: not ab.from_zones)}
    witnesses = ("flashback/prohibition/grafdiggers-cage-stops-its-own-controllers-flashback",
                 "casting/prohibition/drannith-magistrate-stops-eternal-scourge-from-exile")
