"""Mutants: the oracle with ONE realistic bug injected each, to measure the suite (issue 7).

Each mutant is an engine (``--engine oracle.mutants:NoLockIn``) that runs exactly like
``OracleEngine`` except for one wrong rule, taken from bugs rules engines really ship. The bug
is injected by replacing one or two functions of the oracle *for the duration of that engine's
``run`` only* (under a lock, restored in ``finally``): nothing leaks into other engines, and
the oracle's own code is unchanged. ``MUTANTS`` maps each mutant's name to a one-line
description of its bug; ``castrules mutants`` runs the suite against every one of them.
"""
from __future__ import annotations

import importlib
import threading
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Callable, Iterator, Mapping

from .engine import OracleEngine

_LOCK = threading.RLock()

# A patch: (target "module:attr" or "module:Class.attr", factory(original, ctx) -> replacement).
# `ctx` is a dict made fresh for each run: patches of one mutant share it.
Patch = tuple[str, Callable[[Any, dict], Any]]


@contextmanager
def _applied(patches: tuple[Patch, ...], ctx: dict) -> Iterator[None]:
    saved: list[tuple[Any, str, Any]] = []
    try:
        for target, make in patches:
            module_name, _, path = target.partition(":")
            owner: Any = importlib.import_module(module_name)
            *parents, attr = path.split(".")
            for name in parents:
                owner = getattr(owner, name)
            original = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
            saved.append((owner, attr, original))
            setattr(owner, attr, make(original, ctx))
        yield
    finally:
        for owner, attr, original in reversed(saved):
            setattr(owner, attr, original)


@contextmanager
def _swap(module_name: str, attr: str, value: Any) -> Iterator[None]:
    """Replace one module attribute for a moment (inside a mutant's run, under the lock)."""
    module = importlib.import_module(module_name)
    original = getattr(module, attr)
    setattr(module, attr, value)
    try:
        yield
    finally:
        setattr(module, attr, original)


class Mutant(OracleEngine):
    """The oracle with the patches of `patches` applied while it runs."""

    description = ""
    patches: tuple[Patch, ...] = ()

    def __init__(self) -> None:
        self.name = f"castrules-mutant-{type(self).__name__}"

    def run(self, request: Mapping[str, Any]) -> dict:
        with _LOCK, _applied(self.patches, {}):
            return super().run(request)


# ---- shared pieces -------------------------------------------------------------------------

def _remember_proposal(original, ctx):
    """casting.pay wrapper: remember the proposal being paid (X, alternative cost)."""
    def pay(prop, spec, hybrid, phyrexian, trace):
        ctx["prop"] = prop
        try:
            return original(prop, spec, hybrid, phyrexian, trace)
        finally:
            ctx.pop("prop", None)
    return pay


def _x_part(ctx) -> int:
    prop = ctx.get("prop")
    if prop is None or prop.to_pay is None or not prop.x:
        return 0
    from .mana.symbols import SymbolKind
    return prop.x * sum(1 for s in prop.to_pay.symbols if s.kind is SymbolKind.X)


def _symbol_mana_value(rule: Callable[[Any, Any, int | None], int | None]):
    """ManaSymbol.mana_value wrapper: `rule(symbol, original, x)` returns a value or None."""
    def make(original, ctx):
        def mana_value(self, x=None):
            value = rule(self, original, x)
            return original(self, x) if value is None else value
        return mana_value
    return make


# ---- the mutants required by the issue -------------------------------------------------------

class ReductionsBeforeIncreases(Mutant):
    description = "applies cost reductions before cost increases (601.2f adds increases first)"

    def _determine(original, ctx):
        def determine(state, spell, caster, start, start_label, player_order, trace):
            from . import total_cost
            all_mods = total_cost.modifiers(state, spell, caster)
            reductions = [m for m in all_mods if m.kind == "reduce"]
            others = [m for m in all_mods if m.kind != "reduce"]
            with _swap("castrules.oracle.total_cost", "modifiers", lambda *a: reductions):
                reduced = original(state, spell, caster, start, start_label, player_order, trace)
            with _swap("castrules.oracle.total_cost", "modifiers", lambda *a: others):
                return original(state, spell, caster, reduced.cost, "the reduced cost", (), trace)
        return determine

    patches = (("castrules.oracle.casting:determine", _determine),)


class TrinisphereBeforeX(Mutant):
    description = "Trinisphere's floor looks at the cost before X is added (X counted on top of the floor)"

    def _floor(original, ctx):
        def floor(cost, minimum):
            short = minimum - (cost.mana_amount - _x_part(ctx))
            return (cost.add(short), "601.2f") if short > 0 else (cost, "601.2f")
        return floor

    patches = (("castrules.oracle.casting:pay", _remember_proposal), ("castrules.oracle.total_cost:floor", _floor))


class TrinisphereCountsLife(Mutant):
    description = "Trinisphere's floor counts Phyrexian symbols paid with life as mana paid"

    def _floor(original, ctx):
        def floor(cost, minimum):
            short = minimum - (cost.mana_amount + cost.life // 2)
            return (cost.add(short), "601.2f") if short > 0 else (cost, "601.2f")
        return floor

    patches = (("castrules.oracle.total_cost:floor", _floor),)


class NoLockIn(Mutant):
    description = ("no lock-in: the total is recomputed after payment began (after the mana abilities and "
                   "the sacrifices), so a reducer or taxer sacrificed while paying changes the cost")

    def _pay(original, ctx):
        def pay(prop, spec, hybrid, phyrexian, trace):
            from . import casting, payment
            from .costs import resolve_choices
            from .errors import Illegal
            from .trace import Trace
            from .zones import move
            if prop.to_pay is None:
                return original(prop, spec, hybrid, phyrexian, trace)
            state = prop.state
            spell = state.obj(prop.spell)
            start = resolve_choices(prop.to_pay, prop.x, list(hybrid), list(phyrexian))
            first = casting.determine(state, spell, prop.caster, start, prop.label, spec.reductions, Trace(trace.step))
            try:
                state = payment.activate_listed(state, prop.caster, spec.mana_abilities, first.cost, trace)
            except Illegal as exc:
                exc.total_cost, exc.life_paid = casting._text(first.cost), first.cost.life
                raise
            if all(casting._sacrificable(state, prop, oid) for oid in spec.sacrifice):
                for oid in spec.sacrifice:
                    state = move(state, oid, "graveyard", trace, note="sacrificed before the cost is computed")
                spec = replace(spec, sacrifice=())
            # the bug: the cost is worked out only now, from the state after payment began
            return original(replace(prop, state=state), replace(spec, mana_abilities=()), hybrid, phyrexian, trace)
        return pay

    patches = (("castrules.oracle.casting:pay", _pay),)


class ReductionsIgnoredForAlternativeCosts(Mutant):
    description = "cost reductions are not applied when the spell is cast for an alternative cost (118.9d)"

    def _modifiers(original, ctx):
        def modifiers(state, spell, caster):
            mods = original(state, spell, caster)
            prop = ctx.get("prop")
            if prop is not None and prop.alt is not None:
                mods = [m for m in mods if m.kind != "reduce"]
            return mods
        return modifiers

    patches = (("castrules.oracle.casting:pay", _remember_proposal), ("castrules.oracle.total_cost:modifiers", _modifiers))


class GenericReductionsEatColoured(Mutant):
    description = "a generic reduction larger than the generic part goes on to remove coloured mana (118.7a)"

    def _reduce_generic(original, ctx):
        def reduce_generic(cost, n):
            from .mana.concrete import ConcreteCost
            from .mana.types import ManaType
            rest = max(0, n - cost.generic)
            colored = cost.colored
            for t in ManaType:
                take = min(rest, colored[t])
                if take:
                    colored = colored.with_count(t, colored[t] - take)
                    rest -= take
            return ConcreteCost(colored, max(0, cost.generic - n), cost.life, cost.snow), "118.7a"
        return reduce_generic

    patches = (("castrules.oracle.costs:reduce_generic", _reduce_generic),)


def _enabler_filter(keep: Callable[[Any, Any, str], bool], all_types: bool = True):
    """casting.prowl_enabler wrapper: look only at damage events `keep(state, event, caster)`;
    with all_types False, a source's every-creature-type is ignored."""
    def make(original, ctx):
        def prowl_enabler(state, spell_chars, caster):
            log = tuple(replace(ev, all_creature_types=ev.all_creature_types and all_types)
                        for ev in state.damage_log if keep(state, ev, caster))
            return original(replace(state, damage_log=log), spell_chars, caster)
        return prowl_enabler
    return make


class ChangelingNoProwl(Mutant):
    description = "a changeling (every creature type) that dealt combat damage does not enable prowl"
    patches = (("castrules.oracle.casting:prowl_enabler", _enabler_filter(lambda s, ev, c: True, all_types=False)),)


class ProwlPrintedTypes(Mutant):
    description = "prowl compares the card's printed creature types, not the spell's current ones (702.76a)"

    def _enabler(original, ctx):
        def prowl_enabler(state, spell_chars, caster):
            printed = replace(spell_chars, creature_types=frozenset(spell_chars.base.creature_types),
                              all_creature_types="changeling" in spell_chars.base.keywords)
            return original(state, printed, caster)
        return prowl_enabler

    patches = (("castrules.oracle.casting:prowl_enabler", _enabler),)


def _still_there(state, ev, caster) -> bool:
    obj = state.objects.get(ev.source)
    return obj is not None and obj.zone == "battlefield"


class ProwlLostWhenSourceLeft(Mutant):
    description = "prowl is lost when the creature that dealt the combat damage has left the battlefield (113.7a)"
    patches = (("castrules.oracle.casting:prowl_enabler", _enabler_filter(_still_there)),)


class NoncombatDamageEnablesProwl(Mutant):
    description = "noncombat damage dealt to a player by a Rogue enables prowl (702.76a needs combat damage)"

    def _enabler(original, ctx):
        def prowl_enabler(state, spell_chars, caster):
            log = tuple(replace(ev, combat=True) for ev in state.damage_log)
            return original(replace(state, damage_log=log), spell_chars, caster)
        return prowl_enabler

    patches = (("castrules.oracle.casting:prowl_enabler", _enabler),)


class TwoAlternativeCosts(Mutant):
    description = "several alternative costs may be announced; the first one is used (118.9a allows one)"

    def _parse(original, ctx):
        def parse_cast(raw):
            spec = original(raw)
            return replace(spec, alternative=spec.alternative[:1])
        return parse_cast

    patches = (("castrules.oracle.casting:parse_cast", _parse), ("castrules.oracle.scenario:parse_cast", _parse))


def _proto_chars(fix: Callable[[Any, Any], dict]):
    """characteristics._compute wrapper: for an object whose prototype values apply, overwrite
    some characteristics with `fix(chars, obj)`."""
    def make(original, ctx):
        def _compute(state, obj):
            from .characteristics import prototype_active
            c = original(state, obj)
            return replace(c, **fix(c, obj)) if prototype_active(obj) else c
        return _compute
    return make


def _normal_colors(c, obj) -> dict:
    from .costs import colors_of, parse_cost
    if obj.base.color_indicator is not None:
        return {}
    return {"colors": colors_of(parse_cost(obj.base.mana_cost))}


class PrototypeKeepsNormalColour(Mutant):
    description = "a prototyped spell or permanent keeps the colour of its normal mana cost (718.3b)"
    patches = (("castrules.oracle.characteristics:_compute", _proto_chars(_normal_colors)),)


class PrototypeKeepsNormalManaValue(Mutant):
    description = "a prototyped spell or permanent reports the mana value of its normal mana cost (718.3b)"

    def _view(original, ctx):
        def object_view(state, obj):
            from .characteristics import prototype_active
            from .costs import parse_cost
            view = original(state, obj)
            if prototype_active(obj):
                printed = parse_cost(obj.base.mana_cost)
                view["mana_value"] = printed.mana_value() if printed is not None else 0
            return view
        return object_view

    patches = (("castrules.oracle.snapshot:object_view", _view),)


class CopyOfPrototypedSpellNotPrototyped(Mutant):
    description = "a copy of a prototyped spell has the card's normal values (718.3c copies the prototype)"

    def _copy(original, ctx):
        def copy_spell(state, oid, new_id, controller, trace):
            state = original(state, oid, new_id, controller, trace)
            return state.with_obj(replace(state.obj(new_id), prototyped=False))
        return copy_spell

    patches = (("castrules.oracle.copying:copy_spell", _copy),)


class SummoningSickManaAbility(Mutant):
    description = "a summoning-sick creature may activate its {T} mana ability (302.6)"

    def _check(original, ctx):
        def check_tap_cost(state, obj, ab):
            if ab.kind == "mana" and obj.summoning_sick:
                obj = replace(obj, summoning_sick=False)
            return original(state, obj, ab)
        return check_tap_cost

    patches = (("castrules.oracle.mana_abilities:check_tap_cost", _check),)


# ---- mutants of our own ----------------------------------------------------------------------

class XManaValueOnBattlefield(Mutant):
    description = "X keeps its announced value in the mana value of the permanent a spell became (202.3e: 0 off the stack)"

    def _view(original, ctx):
        def object_view(state, obj):
            view = original(state, obj)
            from .characteristics import chars
            c = chars(state, obj)
            if obj.zone == "battlefield" and obj.x and c.mana_cost is not None and c.mana_cost.has_x:
                view["mana_value"] = c.mana_cost.mana_value(obj.x)
            return view
        return object_view

    patches = (("castrules.oracle.snapshot:object_view", _view),)


class HybridManaValueSmallerHalf(Mutant):
    description = "a {2/W} symbol counts 1 toward mana value (its smaller half; 202.3f counts the larger)"
    patches = (("castrules.oracle.mana.symbols:ManaSymbol.mana_value",
                _symbol_mana_value(lambda s, orig, x: 1 if s.kind.value == "twobrid" else None)),)


class PhyrexianManaValueZero(Mutant):
    description = "Phyrexian symbols count 0 toward mana value (202.3g: each counts 1)"
    patches = (("castrules.oracle.mana.symbols:ManaSymbol.mana_value",
                _symbol_mana_value(lambda s, orig, x: 0 if s.kind.value in ("phyrexian", "hybrid_phyrexian") else None)),)


class IllegalCastKeepsManaAbilities(Mutant):
    description = ("an illegal cast is not fully rewound: the mana abilities activated for it stay "
                   "activated (lands tapped, mana in the pool; 601.2e / 730)")

    def _run_step(original, ctx):
        def run_step(state, step, trace):
            new_state, result = original(state, step, trace)
            body = step.get("cast") if isinstance(step, Mapping) else None
            if body and not result.get("legal") and result.get("substep") in ("601.2g", "601.2h"):
                from .casting import parse_cast
                from .errors import Illegal
                from .mana_abilities import activate
                for oid, index, produce in parse_cast(body).mana_abilities:
                    try:
                        new_state = activate(new_state, body["player"], oid, index, produce, trace)
                    except Illegal:
                        break
            return new_state, result
        return run_step

    patches = (("castrules.oracle.scenario:run_step", _run_step),)


class UntapSymbolOnUntapped(Mutant):
    description = "{Q} may be paid by an untapped permanent (107.6 needs it tapped)"

    def _check(original, ctx):
        def check_tap_cost(state, obj, ab):
            if ab.cost.untap and not obj.tapped:
                obj = replace(obj, tapped=True)
            return original(state, obj, ab)
        return check_tap_cost

    patches = (("castrules.oracle.mana_abilities:check_tap_cost", _check),)


class ProwlDamageLastsAllGame(Mutant):
    description = "combat damage dealt in an earlier turn still enables prowl (702.76a: this turn only)"

    def _next_turn(original, ctx):
        def next_turn(state, trace):
            log = state.damage_log
            new = original(state, trace)
            return replace(new, damage_log=log + new.damage_log)
        return next_turn

    patches = (("castrules.oracle.turns:next_turn", _next_turn),)


class KindredCountsAsCreatureSpell(Mutant):
    description = "cost modifiers treat a Kindred spell with creature types as a creature spell (Thalia skips it)"

    def _matches(original, ctx):
        def matches(c, obj, flt, source_controller, source_id=None):
            if "Kindred" in c.types and "Creature" not in c.types:
                c = replace(c, types=c.types + ("Creature",))
            return original(c, obj, flt, source_controller, source_id)
        return matches

    patches = (("castrules.oracle.total_cost:matches", _matches),)


class TrinisphereWhileTapped(Mutant):
    description = "Trinisphere's floor applies while it is tapped"

    def _applies(original, ctx):
        def _applies(ab, src, spell, c, caster):
            return original(ab, replace(src, tapped=False), spell, c, caster)
        return _applies

    patches = (("castrules.oracle.total_cost:_applies", _applies),)


class FloorIgnoresFreeSpells(Mutant):
    description = "Trinisphere's floor is not applied to a spell cast without paying its mana cost (601.2f applies it)"

    def _modifiers(original, ctx):
        def modifiers(state, spell, caster):
            mods = original(state, spell, caster)
            prop = ctx.get("prop")
            if prop is not None and prop.alt == "without_paying_mana_cost":
                mods = [m for m in mods if m.kind != "floor"]
            return mods
        return modifiers

    patches = (("castrules.oracle.casting:pay", _remember_proposal), ("castrules.oracle.total_cost:modifiers", _modifiers))


class OpponentsDamageEnablesProwl(Mutant):
    description = "combat damage dealt by an opponent's Rogue enables prowl (702.76a: a source you controlled)"

    def _enabler(original, ctx):
        def prowl_enabler(state, spell_chars, caster):
            log = tuple(replace(ev, controller=caster) for ev in state.damage_log)
            return original(replace(state, damage_log=log), spell_chars, caster)
        return prowl_enabler

    patches = (("castrules.oracle.casting:prowl_enabler", _enabler),)


class PoolsDoNotEmpty(Mutant):
    description = "mana pools do not empty between steps (106.4)"

    def _empty(original, ctx):
        def empty_pools(state, trace):
            return state
        return empty_pools

    patches = (("castrules.oracle.turns:empty_pools", _empty),)


class CopyOfPrototypedPermanentNormal(Mutant):
    description = "a token copy of a prototyped permanent has the card's normal values (718.3d)"

    def _copy(original, ctx):
        def copy_permanent(state, oid, new_id, controller, trace):
            orig = state.obj(oid)
            if orig.prototyped:
                state = state.with_obj(replace(orig, prototyped=False))
                state = original(state, oid, new_id, controller, trace)
                return state.with_obj(replace(state.obj(oid), prototyped=True))
            return original(state, oid, new_id, controller, trace)
        return copy_permanent

    patches = (("castrules.oracle.copying:copy_permanent", _copy),)


class ProwlPaidNotCopied(Mutant):
    description = "a copy of a spell whose prowl cost was paid is not prowl-paid (707.10 copies that choice)"

    def _copy(original, ctx):
        def copy_spell(state, oid, new_id, controller, trace):
            state = original(state, oid, new_id, controller, trace)
            return state.with_obj(replace(state.obj(new_id), prowl_paid=False, alt_cost=None))
        return copy_spell

    patches = (("castrules.oracle.copying:copy_spell", _copy),)


class CopyIgnoresTargetLegality(Mutant):
    description = ("a copy with a specified new target, or a copy for each candidate, is made even when that "
                   "player or object isn't a legal target (707.10d, 707.10e)")

    def _legal(original, ctx):
        def _legal_for_each_target(state, orig, ref, controller, source_id):
            original(state, orig, ref, controller, source_id)
            return True
        return _legal_for_each_target

    patches = (("castrules.oracle.copying:_legal_for_each_target", _legal),)


class CopiesForEachInReverseOrder(Mutant):
    description = "copies made for each candidate go on the stack in the reverse of the chosen order (707.10d)"

    def _each(original, ctx):
        def copy_for_each(state, oid, new_ids, controller, trace):
            return original(state, oid, dict(reversed(list(new_ids.items()))), controller, trace)
        return copy_for_each

    patches = (("castrules.oracle.copying:copy_for_each", _each),)



class ProwlReadsSourceTypesNow(Mutant):
    description = ("prowl reads the damage source's creature types as they are now, not as they were when it "
                   "dealt the damage (702.76a looks back; 113.7a)")

    def _enabler(original, ctx):
        def prowl_enabler(state, spell_chars, caster):
            from .characteristics import chars
            log = []
            for ev in state.damage_log:
                obj = state.objects.get(ev.source)
                if obj is not None and obj.zone == "battlefield":
                    now = chars(state, obj)
                    ev = replace(ev, creature_types=now.creature_types, all_creature_types=now.all_creature_types)
                log.append(ev)
            return original(replace(state, damage_log=tuple(log)), spell_chars, caster)
        return prowl_enabler

    patches = (("castrules.oracle.casting:prowl_enabler", _enabler),)


class DamageToCreatureEnablesProwl(Mutant):
    description = "combat damage a Rogue deals to a blocking creature enables prowl (702.76a: damage to a player)"

    def _damage(original, ctx):
        def damage_object(state, source, oid, amount, trace):
            from .characteristics import chars
            from .state import DamageEvent
            target = state.obj(oid)
            new = original(state, source, oid, amount, trace)
            if amount > 0 and target.zone == "battlefield" and state.turn.step == "combat_damage":
                c = chars(state, source)
                ev = DamageEvent(source=source.id, source_name=c.name, player=target.controller, amount=amount,
                                 combat=True, controller=source.controller, creature_types=c.creature_types,
                                 all_creature_types=c.all_creature_types)
                new = replace(new, damage_log=new.damage_log + (ev,))
            return new
        return damage_object

    patches = (("castrules.oracle.combat:damage_object", _damage),)


class PrototypePaysNormalCost(Mutant):
    description = "a prototyped spell's total cost starts from the card's normal mana cost (718.3b: the prototype cost)"

    def _pay(original, ctx):
        def pay(prop, spec, hybrid, phyrexian, trace):
            spell = prop.state.obj(prop.spell)
            if spell.prototyped and prop.alt is None and spell.base.mana_cost is not None:
                from .costs import ManaCost
                prop = replace(prop, to_pay=ManaCost.parse(spell.base.mana_cost))
            return original(prop, spec, hybrid, phyrexian, trace)
        return pay

    patches = (("castrules.oracle.casting:pay", _pay),)


class PrototypeNormalPowerToughness(Mutant):
    description = "a prototyped spell or permanent keeps the card's normal power and toughness (718.3b)"
    patches = (("castrules.oracle.characteristics:_compute", _proto_chars(
        lambda c, obj: {"power": c.power - obj.base.prototype.power + obj.base.power if c.power is not None else None,
                        "toughness": c.toughness - obj.base.prototype.toughness + obj.base.toughness
                        if c.toughness is not None else None})),)


class ExoticOrchardOwnLands(Mutant):
    description = "Exotic Orchard-like abilities look at your own lands instead of your opponents' (106.7)"

    def _units(original, ctx):
        def base_units(state, obj, ab, visiting):
            p = ab.produce
            if p is not None and p.could_produce_lands == "opponents":
                ab = replace(ab, produce=replace(p, could_produce_lands="you"))
            return original(state, obj, ab, visiting)
        return base_units

    patches = (("castrules.oracle.mana_abilities:base_units", _units),)


class KickerDroppedWithAlternativeCost(Mutant):
    description = "kicker is not added when the spell is cast for an alternative cost (118.8 adds it to any cost)"

    def _pay(original, ctx):
        def pay(prop, spec, hybrid, phyrexian, trace):
            spell = prop.state.obj(prop.spell)
            if prop.alt is not None and prop.kicked and spell.base.kicker and prop.to_pay is not None:
                from .costs import ManaCost
                kick = len(ManaCost.parse(spell.base.kicker).symbols)
                prop = replace(prop, to_pay=ManaCost(prop.to_pay.symbols[:len(prop.to_pay.symbols) - kick]))
            return original(prop, spec, hybrid, phyrexian, trace)
        return pay

    patches = (("castrules.oracle.casting:pay", _pay),)


class ReductionOnlyOnGenericSymbols(Mutant):
    description = "a coloured reduction ({B}) with no mana of its colour in the cost reduces nothing (118.7b: it comes off generic)"

    def _typed(original, ctx):
        def reduce_typed(cost, mana_type, n):
            from .mana.types import ManaType
            if cost.colored[ManaType.coerce(mana_type)] == 0:
                return cost, "118.7b"
            return original(cost, mana_type, n)
        return reduce_typed

    patches = (("castrules.oracle.costs:reduce_typed", _typed),)



class TaxSparesItsController(Mutant):
    description = "a cost increase that applies to every player's spells (Thalia) spares its own controller's spells"

    def _applies(original, ctx):
        def _applies(ab, src, spell, c, caster):
            if ab.kind == "cost_modifier" and ab.change == "increase" and ab.whose == "all" and caster == src.controller:
                return False
            return original(ab, src, spell, c, caster)
        return _applies

    patches = (("castrules.oracle.total_cost:_applies", _applies),)


class ReducerHelpsOpponents(Mutant):
    description = "a reduction for 'spells you cast' (Goblin Electromancer) also reduces opponents' spells"

    def _applies(original, ctx):
        def _applies(ab, src, spell, c, caster):
            if ab.kind == "cost_modifier" and ab.change != "increase" and ab.whose == "you":
                ab = replace(ab, whose="all")
            return original(ab, src, spell, c, caster)
        return _applies

    patches = (("castrules.oracle.total_cost:_applies", _applies),)


class ReductionChoiceIgnored(Mutant):
    description = "the player's order and hybrid choices for reductions are ignored; the engine picks (601.2f, 118.7e)"

    def _order(original, ctx):
        def order_reductions(cost, reds, player_order):
            return original(cost, reds, ())
        return order_reductions

    patches = (("castrules.oracle.total_cost:order_reductions", _order),)


class LifeMustExceedPayment(Mutant):
    description = "paying life for Phyrexian mana needs more life than the amount (119.4: at least that much)"

    def _pay_life(original, ctx):
        def pay_life(state, player, life, trace):
            from .errors import Illegal
            from .reasons import Reason
            if life > 0 and state.player(player).life <= life:
                raise Illegal(Reason.INSUFFICIENT_LIFE, f"{player} can't pay {life} life", "601.2h")
            return original(state, player, life, trace)
        return pay_life

    patches = (("castrules.oracle.payment:pay_life", _pay_life),)


class IncreasesAfterFloor(Mutant):
    description = "cost increases are added after Trinisphere's floor (the floor applies last, 601.2f)"

    def _determine(original, ctx):
        def determine(state, spell, caster, start, start_label, player_order, trace):
            from . import total_cost
            all_mods = total_cost.modifiers(state, spell, caster)
            increases = [m for m in all_mods if m.kind == "increase"]
            others = [m for m in all_mods if m.kind != "increase"]
            with _swap("castrules.oracle.total_cost", "modifiers", lambda *a: others):
                floored = original(state, spell, caster, start, start_label, player_order, trace)
            with _swap("castrules.oracle.total_cost", "modifiers", lambda *a: increases):
                return original(state, spell, caster, floored.cost, "the cost after the floor", (), trace)
        return determine

    patches = (("castrules.oracle.casting:determine", _determine),)


class AffinityCountsAllArtifacts(Mutant):
    description = "affinity for artifacts counts every artifact on the battlefield, not only yours"

    def _count(original, ctx):
        def _count(state, per, player):
            if per == "artifacts_you_control":
                from .characteristics import chars
                return sum(1 for o in state.battlefield() if chars(state, o).is_("Artifact"))
            return original(state, per, player)
        return _count

    patches = (("castrules.oracle.total_cost:_count", _count),)


class HybridColourFromChosenHalf(Mutant):
    description = "a hybrid spell has only the colours of the halves chosen to pay it (105.2, 202.2d: all its colours)"

    def _pay(original, ctx):
        def pay(prop, spec, hybrid, phyrexian, trace):
            state, result = original(prop, spec, hybrid, phyrexian, trace)
            ctx.setdefault("hybrid", {})[prop.spell] = tuple(h for h in hybrid if h in "WUBRG")
            return state, result
        return pay

    def _view(original, ctx):
        def object_view(state, obj):
            view = original(state, obj)
            chosen = ctx.get("hybrid", {}).get(obj.id)
            if chosen is not None and obj.zone in ("stack", "battlefield"):
                from .characteristics import chars
                c = chars(state, obj)
                fixed = {sym.components[0].value for sym in (c.mana_cost.symbols if c.mana_cost else ())
                         if sym.kind.value in ("colored", "phyrexian")}
                view["colors"] = [col for col in "WUBRG" if col in fixed or col in chosen]
            return view
        return object_view

    patches = (("castrules.oracle.casting:pay", _pay), ("castrules.oracle.snapshot:object_view", _view))


def _all_mutants() -> dict[str, type[Mutant]]:
    return {name: cls for name, cls in globals().items()
            if isinstance(cls, type) and issubclass(cls, Mutant) and cls is not Mutant}


MUTANT_CLASSES: dict[str, type[Mutant]] = _all_mutants()
MUTANTS: dict[str, str] = {name: cls.description for name, cls in MUTANT_CLASSES.items()}
