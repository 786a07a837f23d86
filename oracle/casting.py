"""Casting a spell, 601.2a-i, one explicit stage per sub-step, each recording its rule.

Every stage works on immutable states: an illegal cast raises `Illegal` and the caller keeps
the state from before the cast (601.2e, 730), including mana abilities activated during it.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Sequence

from castrules.model.cards import Flashback
from castrules.model.vocab import AlternativeCostName

from . import payment
from .announcements import (additional_costs, announce_division, announce_modes, announce_object_costs,
                            announce_prototype, announce_variables, base_cost, check_payment_choices, cost_values,
                            flashback_life, flashback_sacrifice, split_choice)
from .cast_permissions import (check_prohibitions, check_timing, flash_permissions, flashback_named_elsewhere, prohibited,
                               zone_permission)
from .cast_triggers import spell_cast
from .cast_spec import CastSpec, parse_cast  # noqa: F401  (parse_cast: re-exported for the steps that cast)
from .characteristics import chars, matches
from .costs import ConcreteCost, ManaCost, concrete_text, hybrid_options, phyrexian_count, resolve_choices
from .cards import spell_targets
from .errors import Illegal, RequestError
from .life_for_mana import life_instead
from .frozen import make, replace, same_or_replaced
from .discard_costs import DiscardPart
from .keyword_costs import escalate
from .keyword_payment import granted_keywords
from .payer import CostContext, LifePart, ManaPart, Part, Paying, RevealPart, SacrificePart, can_pay, pay_costs
from .reasons import Reason
from .return_costs import return_parts
from .seams import rules
from .spending import as_any_type
from .state import CARD, Announced, CastRecord, Obj, State
from .targets import assign_targets
from .trace import Trace
from .zones import move

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_FLASHBACK = AlternativeCostName.FLASHBACK
_PROWL = AlternativeCostName.PROWL
_EMERGE = AlternativeCostName.EMERGE
_SPELL = Paying.SPELL


@dataclass(frozen=True)
class Proposal:
    """The spell after 601.2a-e: on the stack with every announcement made."""

    state: State
    spell: str
    caster: str
    to_pay: ManaCost | None          # None: no mana cost and no alternative cost (118.6)
    label: str
    announced: Announced             # what the spell will carry once cast (601.2i)
    life: int = 0                    # life in the base cost (a flashback cost such as Deep Analysis's, 702.34a)
    permission: str | None = None    # the object whose permission let the spell be cast from its zone (601.3)
    flashback: Flashback | None = None   # the flashback the card had where it was cast from (702.34a)


def one_alternative_cost(announced: Sequence[str]) -> str | None:
    """118.9a: at most one alternative cost may be announced for a spell; the one, or None."""
    if len(announced) > 1:
        raise Illegal(Reason.MULTIPLE_ALTERNATIVE_COSTS,
                    f"{len(announced)} alternative costs announced ({', '.join(announced)}); only one may "
                    "apply", rules=("118.9a",))
    return announced[0] if announced else None


# ---- 601.2a ---------------------------------------------------------------------------------

def propose(state: State, spec: CastSpec, trace: Trace) -> Proposal:
    """601.2a-e, one stage per sub-step: the spell is proposed, moved to the stack, announced,
    targeted and divided, then the completed proposal is checked. Raises Illegal."""
    obj = _object_to_cast(state, spec)
    split = split_choice(obj, spec, trace)
    # 601.3e / 718.3a: the spell as it would be cast with the announced choices; prohibitions and flash
    # permissions also consider the other proposal choices (601.3a-b, `proposal_views`)
    view = replace(obj, zone="stack", controller=spec.player,
                   prototyped=spec.prototype and obj.base.prototype is not None,
                   face=same_or_replaced(obj.face, half=split[0], fused=split[1])).with_x(spec.x)
    c = chars(state, view if obj.base.halves else obj)
    permission = zone_permission(state, spec, obj, view, c, trace)
    from_zone, flashback = obj.zone, rules().flashback_of(state, obj, spec.permission)   # 702.34a: granted too
    stranger = flashback_named_elsewhere(state, spec, obj, view)
    check_prohibitions(state, view, spec.player, c, trace, from_zone)
    flash_needed = check_timing(state, spec, view, c, trace)
    state = _to_stack(state, spec, split, c.name, trace)
    # 601.2b
    alt = rules().one_alternative_cost(spec.alternative)
    state = announce_prototype(state, state.obj(spec.object), spec, c, trace)
    spell = state.obj(spec.object)
    c = chars(state, spell)
    if stranger is not None and alt == _FLASHBACK:
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{stranger} gave {c.name} no flashback and lets it be cast "
                                                           "from the graveyard no other way", rules=("702.34a", "118.9"))
    to_pay, label = base_cost(state, spell, spec, alt, permission, from_zone, trace, flashback)
    to_pay, label = additional_costs(state, spell, spec, to_pay, label, trace)
    chooser = rules().mode_chooser(state, spell, spec, c.name, trace)       # 601.6, 601.6a: who picks the modes
    announce_modes(spell, spec, c, trace)
    to_pay, label = escalate(spell, spec, to_pay, label, trace)
    announce_object_costs(state, spell, spec, trace, flashback)
    values = announce_variables(spell, spec, to_pay, c.mana_cost, trace)
    check_payment_choices(spec, to_pay, values)
    # 601.2c-d
    kicked = int(spec.kicker) + spec.multikicker
    assigned = assign_targets(state, spell_targets(spell.base, spec.modes, kicked, alt), spec.targets, spec.player,
                              spec.object, chooser)
    if assigned:
        trace.add("601.2c", "targets: " + ", ".join(t for _, t, _ in assigned))
    division = announce_division(spell.base, assigned, spec.division, trace)
    # 601.2e
    announced = make(Announced, cast=True, prowl_paid=alt == _PROWL, alt_cost=alt, x=values["X"],
                     y=values["Y"], z=values["Z"], kicked=kicked, bought_back=spec.buyback,
                     modes=tuple(spec.modes), mode_chooser=chooser,
                     targets=tuple(t for _, t, _ in assigned),
                     target_controllers=tuple(r for _, _, r in assigned), division=division,
                     emerge=spec.emerge if alt == _EMERGE else None)
    _check_proposal(state, spell.with_x(values["X"]), spec, alt, flash_needed, c, trace, from_zone)
    if announced.emerge is not None:    # 702.119c: the creature chosen now; its mana value reduces the total (601.2f)
        state = state.with_obj(replace(state.obj(spec.object), announced=replace(
            state.obj(spec.object).announced, alt_cost=alt, emerge=announced.emerge)))
    return make(Proposal, state=state, spell=spec.object, caster=spec.player, to_pay=to_pay, label=label,
                announced=announced, life=flashback_life(flashback, alt), permission=permission,
                flashback=flashback)


def _object_to_cast(state: State, spec: CastSpec) -> Obj:
    """601.2a: the card to cast exists, is where the step says, and its caster is in the game."""
    if not state.has_player(spec.player):
        raise RequestError(f"cast: unknown player {spec.player!r}")
    for field_name, ref in (("permission", spec.permission), ("flash_cost", spec.flash_cost)):
        if ref is not None and ref not in state.objects:
            raise RequestError(f"cast: unknown {field_name} object {ref!r}")
    obj = state.objects.get(spec.object)
    if obj is None or obj.zone == "gone" or obj.kind is not CARD:
        raise Illegal(Reason.OBJECT_NOT_FOUND, f"{spec.object} does not exist in the game", rules=("601.2a",))
    if spec.from_zone is not None and obj.zone != spec.from_zone:
        raise Illegal(Reason.NOT_IN_ZONE, f"{spec.object} is in {obj.zone}, not {spec.from_zone}", rules=("601.2a",))
    if not state.player(spec.player).in_game:
        raise Illegal(Reason.NO_PERMISSION, f"{spec.player} is not in the game", rules=("601.3",))
    return obj


def _to_stack(state: State, spec: CastSpec, split: tuple[int | None, bool], name: str, trace: Trace) -> State:
    """601.2a: the card moves to the stack; its caster controls it (a split card as its half)."""
    from_zone = state.obj(spec.object).zone
    state = move(state, spec.object, "stack", None, controller=spec.player)
    if split != (None, False):
        moved = state.obj(spec.object)
        state = state.with_obj(replace(moved, face=replace(moved.face, half=split[0], fused=split[1])))
    trace.add("601.2a", f"{name} ({spec.object}) moves from {from_zone} to the stack under {spec.player}'s control")
    return state


def _check_proposal(state: State, spell: Obj, spec: CastSpec, alt: str | None, flash_needed: bool, c,
                    trace: Trace, from_zone: str) -> None:
    """601.2e, 601.5: the completed proposal is legal: no prohibition applies to it (cast from
    `from_zone`) and, when the cast relied on a flash permission, one still lets it be cast as
    announced."""
    prohibitor = prohibited(state, spell, spec.player, open_choices=False, from_zone=from_zone)
    if prohibitor is not None:
        raise Illegal(Reason.ILLEGAL_PROPOSAL, f"{prohibitor} prohibits casting the spell as proposed",
                      rules=("601.2e", "601.5"))
    if flash_needed:
        fitting = [(s, ab) for s, ab in flash_permissions(state, spell, spec.player, open_choices=False)
                   if (ab.extra_cost is None or spec.flash_cost == s.id)
                   and (ab.alternative_cost is None or alt == ab.alternative_cost)]
        if not fitting:
            raise Illegal(Reason.ILLEGAL_PROPOSAL, f"as proposed, no effect lets {spec.player} cast {c.name} as though "
                                                   "it had flash, and it has sorcery timing",
                          rules=("601.3b", "601.3c", "601.5"))
        s, _ = fitting[0]
        trace.add("601.5", f"as proposed, {s.base.name} ({s.id}) lets {spec.player} cast it as though it had flash; "
                           "that stays settled while costs are paid")
    trace.add("601.2e", "the proposed spell is legal to cast")


# ---- 601.2f-i -------------------------------------------------------------------------------------

def pay(prop: Proposal, spec: CastSpec, hybrid: Sequence[str], phyrexian: Sequence[str],
        trace: Trace) -> tuple[State, dict]:
    """601.2f-i: lock the total cost, activate the listed mana abilities (601.2g), hand the
    total's parts to the one payer (601.2h), and the spell becomes cast. Raises Illegal."""
    state, caster = prop.state, prop.caster
    spell = state.obj(prop.spell)
    total = None
    if prop.to_pay is not None:
        a = prop.announced
        cx, cy, cz = cost_values(prop.to_pay, a.x, a.y, a.z)
        start = resolve_choices(prop.to_pay, cx, list(hybrid), list(phyrexian), y=cy, z=cz)
        valued = _with_variables(spell, a)
        tc = rules().total_cost(state.with_obj(valued), valued, caster, start, prop.label, spec.reductions, trace)
        total = tc.cost
    else:
        trace.add("118.6", "the spell has no mana cost and no alternative cost: its cost is unpayable")
    total_text = total and concrete_text(total)
    life = total.life if total is not None else 0       # life_paid: for Phyrexian symbols only
    try:
        # 601.2g: mana abilities
        state = payment.activate_listed(state, caster, spec.mana_abilities, total, trace,
                                        sacrifices=spec.mana_sacrifices, spell=spell,
                                        orders=spec.mana_replacements)
        # 601.2h: pay everything at once
        if total is None:
            raise Illegal(Reason.UNPAYABLE_COST, f"{chars(state, spell).name} has no mana cost; an unpayable cost "
                                                 "can't be paid", rules=("118.6",))
        used = frozenset(o for o, _, _ in spec.mana_abilities) | frozenset(spec.improvise)
        state = pay_costs(state, spell_cost_parts(state, prop, spec, total, used, trace), _paying_for(prop, spell),
                          trace)
    except Illegal as exc:
        exc.total_cost = total_text
        exc.life_paid = life if total is not None else None
        raise
    # 601.2i: the spell becomes cast
    spell = state.obj(prop.spell)
    state = state.with_obj(replace(spell, announced=prop.announced))
    c = chars(state, spell)
    via = state.objects.get(prop.permission) if prop.permission not in (None, prop.spell) else None
    record = make(CastRecord, player=prop.caster, spell=prop.spell, types=frozenset(c.types),
                  permission=via and (via.id, via.incarnation))
    state = replace(state, cast_log=state.cast_log + (record,))
    trace.add("601.2i", f"{c.name} ({prop.spell}) becomes cast")
    state = spell_cast(state, prop.spell, caster, trace)
    result = {"legal": True, "total_cost": total_text, "life_paid": life}
    return state, result


def _with_variables(spell: Obj, announced: Announced) -> Obj:
    """The spell on the stack with the X, Y and Z announced at 601.2b: its mana value counts them
    from then on (202.3e, 107.3p), so a cost modifier judging mana value at 601.2f sees them
    (Krosan Drover on Endless One with X=6), not 0."""
    announced = same_or_replaced(spell.announced, x=announced.x, y=announced.y, z=announced.z)
    return spell if announced is spell.announced else replace(spell, announced=announced)


def _paying_for(prop: Proposal, spell: Obj) -> CostContext:
    return make(CostContext, player=prop.caster, paying=_SPELL, source=prop.spell, spell=spell,
                activate=payment.auto_activate)


def spell_cost_parts(state: State, prop: Proposal, spec: CastSpec, total: ConcreteCost,
                     used: frozenset[str] = frozenset(), trace: Trace | None = None) -> tuple[Part, ...]:
    """601.2h: the parts of the spell's locked total: the sacrifices and reveals its additional
    costs ask for (118.8) and emerge's sacrifice (702.119c), checked first, then its life
    (Phyrexian mana and life paid rather than coloured mana, K'rrik), the objects paying generic mana
    (delve, improvise) and the rest in mana."""
    spell = state.obj(prop.spell)
    reveal_fits = tuple(a.reveal for a in spell.base.additional_costs if a.reveal is not None)
    discards = discard_part(spell, spec)
    granted = granted_keywords(state, prop.caster, spell) if spec.improvise else ()
    returns = return_parts(spell, prop.announced.alt_cost, spec.returned)
    by_objects, mana = rules().object_payment(spell, spec.delve, spec.improvise, total, trace or Trace(0), granted)
    emerged = prop.announced.emerge
    mana, instead = life_instead(state, prop.caster, mana, spec.life_for_mana, trace)
    mana = as_any_type(state, prop.caster, spell, mana, trace or Trace(0), prop.permission)
    return (*sacrifice_parts(state, prop, spec),
            *((SacrificePart((rules().emerge_quality(spell)[0],), (emerged,), emerge=True),) if emerged is not None else ()),
            *((RevealPart(reveal_fits, tuple(spec.reveal)),) if spec.reveal else ()), *discards,
            # one life payment: the cost's life (119.4) with its Phyrexian symbols' (118.3b) and
            # the life paid rather than coloured mana (K'rrik)
            LifePart(total.life + prop.life + instead, phyrexian=not prop.life and not instead), *by_objects, *returns,
            ManaPart(mana, auto=spec.auto_pay, used=used))


def sacrifice_parts(state: State, prop: Proposal, spec: CastSpec) -> tuple[SacrificePart, ...]:
    """One part per permanent the caster sacrifices (`spec.sacrifice`) for the spell's additional
    costs (118.8), its flashback cost (702.34a) or an entwine cost paid with objects (702.42a)."""
    spell = state.obj(prop.spell)
    fits = tuple(a.sacrifice for a in spell.base.additional_costs + rules().keyword_object_costs(spell, spec)
                 if a.sacrifice is not None)
    fits += flashback_sacrifice(prop.flashback, prop.announced.alt_cost)
    return tuple(SacrificePart(fits, (oid,)) for oid in spec.sacrifice)


def discard_part(spell: Obj, spec: CastSpec) -> tuple[DiscardPart, ...]:
    """118.8, 702.120a: the cards named for the spell's discard costs (an additional cost's, an
    escalate cost's once per mode beyond the first), as one part."""
    costs = [(a, "118.8") for a in spell.base.additional_costs if a.discard is not None]
    costs += [(a, "702.120a") for a in rules().keyword_object_costs(spell, spec) if a.discard is not None]
    if not spec.discard:
        return ()
    fits = tuple(dict.fromkeys(a.discard for a, _ in costs if a.discard is not None))
    return (DiscardPart(fits, tuple(spec.discard), tuple(dict.fromkeys(r for _, r in costs))),)


def can_sacrifice(state: State, prop: Proposal, spec: CastSpec) -> bool:
    """Could the caster sacrifice what the cast names for the spell's sacrifice costs now?"""
    return can_pay(state, sacrifice_parts(state, prop, spec), _paying_for(prop, state.obj(prop.spell)))


def _candidates(to_pay: ManaCost | None, spec: CastSpec) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Choices to try when the case leaves them to the engine: the first that lets the cost be
    paid wins; coloured halves before generic ones, mana before life (case-format)."""
    if to_pay is None:
        return [((), ())]
    if spec.hybrid is not None:
        hyb_opts: list[tuple[tuple[str, ...], ...]] = [(spec.hybrid,)]
    else:
        per = [tuple(sorted(h, key=lambda v: v.isdigit() or v == "C")) for h in hybrid_options(to_pay)]
        hyb_opts = [tuple(p) for p in product(*per)] if per else [()]
        hyb_opts = [tuple(h) for h in hyb_opts]  # type: ignore[misc]
    if spec.phyrexian is not None:
        phy_opts = [spec.phyrexian]
    else:
        n = phyrexian_count(to_pay)
        phy_opts = list(product(("mana", "life"), repeat=n)) if n else [()]
    out = []
    for h in (hyb_opts if spec.hybrid is None else [spec.hybrid]):
        for p in phy_opts:
            out.append((tuple(h), tuple(p)))
            if len(out) >= 512:
                return out
    return out


def cast(state: State, spec: CastSpec, trace: Trace) -> tuple[State, dict]:
    """Run 601.2a-i; raise Illegal (the caller rewinds) or return the new state and result."""
    prop = propose(state, spec, trace)
    candidates = _candidates(prop.to_pay, spec)
    if len(candidates) == 1:
        return rules().pay_spell(prop, spec, candidates[0][0], candidates[0][1], trace)
    first_error: Illegal | None = None
    first_lines: list = []
    for hyb, phy in candidates:
        attempt = Trace(trace.step)
        try:
            result = rules().pay_spell(prop, spec, hyb, phy, attempt)
        except Illegal as exc:
            if first_error is None:
                first_error, first_lines = exc, attempt.lines
            continue
        trace.add("601.2b", f"engine's choices: hybrid {list(hyb)}, Phyrexian {list(phy)} (the first that can be paid)")
        trace.lines.extend(attempt.lines)
        return result
    trace.lines.extend(first_lines)
    assert first_error is not None
    raise first_error


