"""Casting a spell, 601.2a-i, one explicit stage per sub-step, each recording its rule.

Every stage works on immutable states: an illegal cast raises `Illegal` and the caller keeps
the state from before the cast (601.2e, 730), including mana abilities activated during it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Any, Mapping, Sequence

from castrules import model
from . import payment
from .characteristics import chars, matches
from .costs import (ChoiceError, ConcreteCost, ManaCost, concrete_text, cost_text, hybrid_options, phyrexian_count,
                    resolve_choices)
from .errors import Illegal, RequestError
from .prowl import choose_prowl, prowl_costs
from .reasons import Reason
from .state import MAIN_STEPS, State
from .seams import rules
from .targets import assign_targets
from .trace import Trace
from .zones import move


@dataclass(frozen=True)
class CastSpec:
    """A `cast` step, every choice spelled out (docs/case-format.md)."""

    player: str
    object: str
    from_zone: str | None = None
    alternative: tuple[str, ...] = ()
    permission: str | None = None
    prototype: bool = False
    kicker: bool = False
    sacrifice: tuple[str, ...] = ()
    x: int | None = None
    y: int | None = None                                     # 107.3p: Y and Z are announced like X
    z: int | None = None
    modes: tuple[int, ...] = ()
    hybrid: tuple[str, ...] | None = None
    phyrexian: tuple[str, ...] | None = None
    targets: tuple[str, ...] = ()
    reductions: tuple[tuple[str, str | None], ...] = ()
    mana_abilities: tuple[tuple[str, int, str | None], ...] = ()
    auto_pay: bool = True
    division: tuple[tuple[str, int], ...] | None = None     # 601.2d: (target, amount), as announced
    mana_sacrifices: tuple[tuple[str, ...] | None, ...] = ()  # per listed activation: what it sacrifices
    half: int | None = None                                  # a split card: the half cast (202.3d)
    fuse: bool = False                                       # a split card with fuse cast fused (202.3d)
    reveal: tuple[str, ...] = ()                             # cards revealed from hand for an additional cost
    instructed_by: str | None = None                         # a resolving spell instructing this cast (608.2g)
    flash_cost: str | None = None                            # the flash permission whose extra cost is paid (601.3c)
    mana_replacements: tuple[tuple[str, ...] | None, ...] = ()  # per listed activation: replacement order (616.1)


def parse_cast(raw: Mapping[str, Any] | model.Cast) -> CastSpec:
    """A cast step (a document, or the model's typed `Cast`) as the oracle's CastSpec."""
    try:
        step = raw if isinstance(raw, model.Cast) else model.Cast.from_document(raw, "cast")
    except model.ModelError as exc:
        raise RequestError(f"cast: {exc}") from exc
    activations = step.mana_abilities
    sacs = tuple(m.sacrifice for m in activations)
    reps = tuple(m.replacements for m in activations)
    return CastSpec(
        player=step.player, object=step.object, from_zone=_plain(step.from_zone),
        alternative=step.alternative_cost, permission=step.permission,
        prototype=step.prototype, kicker=step.kicker, sacrifice=step.sacrifice, x=step.x, y=step.y, z=step.z,
        modes=step.modes, hybrid=step.hybrid,
        phyrexian=step.phyrexian,
        targets=step.targets, reductions=tuple((r.source, r.choice) for r in step.reductions),
        mana_abilities=tuple((m.object, m.ability, _plain(m.produce)) for m in activations),
        auto_pay=step.auto_pay,
        division=tuple((str(k), v) for k, v in step.division.items()) if step.division is not None else None,
        mana_sacrifices=sacs if any(x is not None for x in sacs) else (),
        half=step.half, fuse=step.fuse, reveal=step.reveal, flash_cost=step.flash_cost,
        mana_replacements=reps if any(r is not None for r in reps) else ())


def _plain(value: Any) -> Any:
    """An enum member of the model as its plain string (the oracle's values are strings)."""
    return getattr(value, "value", value)


@dataclass(frozen=True)
class Proposal:
    """The spell after 601.2a-e: on the stack with every announcement made."""

    state: State
    spell: str
    caster: str
    to_pay: ManaCost | None          # None: no mana cost and no alternative cost (118.6)
    label: str
    x: int | None
    alt: str | None
    kicked: bool
    targets: tuple[str, ...]
    target_controllers: tuple[str | None, ...]
    division: tuple[tuple[str, int], ...] = ()
    y: int | None = None
    z: int | None = None


def one_alternative_cost(announced: Sequence[str]) -> str | None:
    """118.9a: at most one alternative cost may be announced for a spell; the one, or None."""
    if len(announced) > 1:
        raise _fail(Reason.MULTIPLE_ALTERNATIVE_COSTS,
                    f"{len(announced)} alternative costs announced ({', '.join(announced)}); only one may "
                    "apply", rules=("118.9a",))
    return announced[0] if announced else None


def _fail(reason: Reason, note: str, substep: str | None = None, rules: tuple[str, ...] = ()) -> Illegal:
    return Illegal(reason, note, substep, rules=rules)


# ---- 601.2a ---------------------------------------------------------------------------------

def _find_permission(state: State, spell_id: str, caster: str, zone: str, permission: str | None,
                     free: bool, view=None) -> str | None:
    """An object whose cast_permission lets `caster` cast the spell from `zone` (free: without
    paying its mana cost). `permission` narrows the search to one object. `view` is the spell
    as it would be cast (601.3e: e.g. prototyped, 718.3a)."""
    obj = view or state.obj(spell_id)
    c = chars(state, obj)
    candidates = [state.objects[permission]] if permission in state.objects else list(state.battlefield())
    for src in candidates:
        if src.zone != "battlefield" or src.controller != caster or src.kind != "card":
            continue
        for ab in src.base.abilities:
            if ab.kind != "cast_permission" or zone not in ab.zones:
                continue
            if free and not ab.without_paying:
                continue
            if zone != "hand" and obj.owner != caster:
                continue
            if matches(c, obj, ab.spells, src.controller, src.id):
                return src.id
    return None


def propose(state: State, spec: CastSpec, trace: Trace) -> Proposal:
    caster = spec.player
    if not state.has_player(caster):
        raise RequestError(f"cast: unknown player {caster!r}")
    if spec.permission is not None and spec.permission not in state.objects:
        raise RequestError(f"cast: unknown permission object {spec.permission!r}")
    if spec.flash_cost is not None and spec.flash_cost not in state.objects:
        raise RequestError(f"cast: unknown flash_cost object {spec.flash_cost!r}")
    obj = state.objects.get(spec.object)
    if obj is None or obj.zone == "gone" or obj.kind != "card":
        raise _fail(Reason.OBJECT_NOT_FOUND, f"{spec.object} does not exist in the game", rules=("601.2a",))
    if spec.from_zone is not None and obj.zone != spec.from_zone:
        raise _fail(Reason.NOT_IN_ZONE, f"{spec.object} is in {obj.zone}, not {spec.from_zone}", rules=("601.2a",))
    if not state.player(caster).in_game:
        raise _fail(Reason.NO_PERMISSION, f"{caster} is not in the game", rules=("601.3",))
    split = _split_choice(obj, spec, trace)
    # 601.3e / 718.3a: the spell as it would be cast with the announced choices; prohibitions and flash
    # permissions also consider the other proposal choices (601.3a-b, `_proposal_views`)
    view = replace(obj, zone="stack", controller=caster,
                   prototyped=spec.prototype and obj.base.prototype is not None, x=spec.x,
                   half=split[0], fused=split[1])
    c = chars(state, view if obj.base.halves else obj)
    if c.is_("Land"):
        raise _fail(Reason.NO_PERMISSION, f"{c.name} is a land: lands are played, not cast", rules=("305.1", "601.3"))
    zone_permission: str | None = None
    if obj.zone == "hand":
        if obj.owner != caster:
            raise _fail(Reason.NO_PERMISSION, f"{spec.object} is in {obj.owner}'s hand, not {caster}'s", rules=("601.3",))
        trace.add("601.3", f"{caster} may cast {c.name} from their hand")
    elif spec.instructed_by is not None and obj.zone in ("library", "graveyard", "exile", "command"):
        trace.add("608.2g", f"{spec.instructed_by}'s effect instructs {caster} to cast {c.name} from the {obj.zone}")
    elif obj.zone in ("stack", "battlefield"):
        raise _fail(Reason.NO_PERMISSION, f"{spec.object} is on the {obj.zone}; it can't be cast from there", rules=("601.3",))
    else:
        src = zone_permission = _find_permission(state, spec.object, caster, obj.zone, spec.permission, False, view)
        if src is None:
            raise _fail(Reason.NO_PERMISSION, f"nothing lets {caster} cast {c.name} from the {obj.zone}", rules=("601.3",))
        trace.add("601.3", f"{state.obj(src).base.name} ({src}) lets {caster} cast {c.name} from the {obj.zone}")
    prohibitor = _prohibited(state, view, caster, open_choices=True)
    if prohibitor is not None:
        raise _fail(Reason.PROHIBITED, f"{prohibitor} prohibits {caster} from casting {c.name}, whatever is "
                                       "announced", rules=("601.3", "601.3a"))
    avoidable = _prohibited(state, view, caster, open_choices=False)
    if avoidable is not None:
        trace.add(("601.3a", "601.5"), f"{avoidable} would prohibit {c.name} as announced, but a choice still to be made in its "
                            "proposal (prototype, X) could avoid it: the cast may begin; the completed proposal is "
                            "checked at 601.2e")
    t = state.turn
    flash_needed = False      # the cast relies on a flash permission, checked again at 601.2e (601.3b-c, 601.5)
    if spec.instructed_by is not None:
        trace.add(("608.2g", "117.1"), "cast while a spell resolves: no timing permission is needed")
    elif not (c.is_("Instant") or "flash" in c.keywords):
        if t.active != caster or t.step not in MAIN_STEPS or state.stack:
            where = f"{t.active}'s {t.step.replace('_', ' ')}" + (", stack not empty" if state.stack else "")
            enabler = _conditional_flash(state, view, caster)
            perms = _flash_permissions(state, view, caster, open_choices=True) if enabler is None else []
            if enabler is not None:
                trace.add(("601.3d", "601.5a"), f"{c.name} has flash while {caster} controls {enabler}: the condition holds, so "
                                    "it may be cast as though it had flash; the cast goes on even if the condition "
                                    "stops holding")
            elif perms:
                flash_needed = True
                trace.add(("601.3b", "601.5"), f"{' / '.join(f'{s.base.name} ({s.id})' for s, _ in perms)} may let {caster} cast "
                                    f"{c.name} as though it had flash, given the choices still to make (601.3b, "
                                    "601.3c); the completed proposal must qualify")
            else:
                raise _fail(Reason.WRONG_TIMING, f"{c.name} has sorcery timing; now is {where}", rules=("117.1a", "601.3"))
        else:
            trace.add("117.1a", f"sorcery timing is met: {caster}'s main phase, empty stack")
    else:
        trace.add("117.1a", f"{c.name} may be cast any time {caster} has priority")
    # 601.2a: the card moves to the stack; its caster controls it
    from_zone = obj.zone
    state = move(state, spec.object, "stack", None, controller=caster)
    spell = state.obj(spec.object)
    if split != (None, False):
        state = state.with_obj(replace(spell, half=split[0], fused=split[1]))
        spell = state.obj(spec.object)
    trace.add("601.2a", f"{c.name} ({spec.object}) moves from {from_zone} to the stack under {caster}'s control")
    # ---- 601.2b: announcements ---------------------------------------------------------------
    alt = rules().one_alternative_cost(spec.alternative)
    if spec.prototype:
        if spell.base.prototype is None:
            raise _fail(Reason.PROTOTYPE_UNAVAILABLE, f"{c.name} has no prototype", rules=("702.160a",))
        state = state.with_obj(replace(spell, prototyped=True))
        spell = state.obj(spec.object)
        p = spell.base.prototype
        trace.add(("718.3", "718.3a", "718.3b"), f"cast prototyped: mana cost {p.mana_cost}, {p.power}/{p.toughness}")
    c = chars(state, spell)
    mana_cost = c.mana_cost
    to_pay: ManaCost | None
    if alt is None:
        to_pay = mana_cost
        label = ("its prototype mana cost " if spell.prototyped else "its mana cost ") + (cost_text(mana_cost) or "")
        if mana_cost is None:
            label = "no mana cost (unpayable, 118.6)"
    elif alt == "prowl":
        costs = prowl_costs(state, spell, caster)
        if not costs:
            raise _fail(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} has no prowl", rules=("702.76a",))
        chosen = choose_prowl(costs, spec.permission, zone_permission)
        if chosen is None:
            raise _fail(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                        f"{spec.permission} grants {c.name} no prowl cost; its prowl costs come from "
                        f"{', '.join(p.source for p in costs)}", rules=("702.76a", "118.9"))
        enabler = rules().prowl_enabler(state, c, caster)
        if enabler is None:
            types = "every creature type" if c.all_creature_types else (", ".join(sorted(c.creature_types)) or "none")
            raise _fail(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                        f"no player was dealt combat damage this turn by a source {caster} controlled with any of "
                        f"the spell's creature types ({types})", rules=("702.76a",))
        ev = enabler.event
        trace.add("702.76a", f"prowl available: {ev.source_name} ({ev.source}), controlled by {ev.controller}, dealt "
                             f"{ev.amount} combat damage to {ev.player}; shared creature type: {enabler.matched}")
        to_pay = ManaCost.parse(chosen.cost)
        label = f"the prowl cost {chosen.cost}" + ("" if chosen.source == "printed" else f" (granted by {chosen.source})")
    elif alt == "without_paying_mana_cost":
        src = spec.instructed_by or _find_permission(state, spec.object, caster, from_zone, spec.permission, True)
        if src is None:
            raise _fail(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                        f"nothing lets {caster} cast {c.name} from the {from_zone} without paying its mana cost", rules=("118.9",))
        to_pay = ManaCost(())
        label = f"no mana: cast without paying its mana cost ({state.obj(src).base.name}, {src}; 118.9)"
    else:
        named = dict(spell.base.alternative_costs)
        if alt not in named:
            raise _fail(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} has no {alt} cost", rules=("118.9",))
        to_pay = ManaCost.parse(named[alt])
        label = f"the {alt} cost {named[alt]}"
    if alt is not None:
        trace.add("118.9", f"alternative cost announced: {alt}")
    if spec.kicker:
        if spell.base.kicker is None:
            raise _fail(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{c.name} has no kicker", rules=("118.8",))
        if to_pay is not None:
            to_pay = to_pay + ManaCost.parse(spell.base.kicker)
        label += f" plus kicker {spell.base.kicker}"
        trace.add("118.8", f"kicker {spell.base.kicker} announced")
    if spec.flash_cost is not None:
        src = state.obj(spec.flash_cost)
        costed = [ab for s, ab in _flash_permissions(state, replace(spell, x=spec.x), caster, open_choices=False)
                  if s.id == src.id and ab.flash_cost]
        if not costed:
            raise _fail(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{src.base.name} ({src.id}) offers {c.name} no extra cost "
                                                            "to cast it as though it had flash", rules=("601.3c", "601.2b"))
        extra = costed[0].flash_cost
        if to_pay is not None:
            to_pay = to_pay + ManaCost.parse(extra)
        label += f" plus {extra} to cast it as though it had flash ({src.base.name})"
        trace.add("601.3c", f"{caster} will pay {extra} more ({src.base.name}, {src.id}) to cast it as though it had "
                            "flash")
    _announce_objects(c.name, spec.sacrifice, sum(a.count for a in spell.base.additional_costs if a.sacrifice is not None),
                      "object(s)", "sacrifice", "sacrifice", trace)
    _announce_objects(c.name, spec.reveal, sum(a.count for a in spell.base.additional_costs if a.reveal is not None),
                      "card(s)", "reveal", "reveal", trace, suffix=" from the hand")
    modes = spell.base.modes
    if modes is None and spec.modes:
        raise _fail(Reason.INVALID_MODE, f"{c.name} is not modal", rules=("700.2",))
    if modes is not None:
        chosen = list(spec.modes)
        if (len(chosen) != modes.choose or len(set(chosen)) != len(chosen)
                or any(not 0 <= m < len(modes.options) for m in chosen)):
            raise _fail(Reason.INVALID_MODE, f"choose {modes.choose} of the {len(modes.options)} modes; "
                                             f"announced {chosen}", rules=("700.2", "601.2b"))
        trace.add("700.2", f"modes chosen: {chosen}")
    values = _announce_variables(spell, spec, to_pay, mana_cost, trace)
    x, y, z = values["X"], values["Y"], values["Z"]
    if to_pay is not None:
        hyb = spec.hybrid if spec.hybrid is not None else tuple(h[0] for h in hybrid_options(to_pay))
        phy = spec.phyrexian if spec.phyrexian is not None else ("mana",) * phyrexian_count(to_pay)
        try:
            cx, cy, cz = _cost_values(to_pay, x, y, z)
            resolve_choices(to_pay, cx, hyb, phy, y=cy, z=cz)
        except ChoiceError as exc:
            raise _fail(Reason(exc.code), f"{exc}", "601.2b", rules=("601.2b", "118.13a")) from None
    elif spec.hybrid or spec.phyrexian:
        raise _fail(Reason.INVALID_HYBRID_CHOICE if spec.hybrid else Reason.INVALID_PHYREXIAN_CHOICE,
                    "choices announced for a spell with no cost to pay", "601.2b")
    # ---- 601.2c: targets -------------------------------------------------------------------------
    assigned = assign_targets(state, spell.base.targets, spec.targets, caster, spec.object)
    if assigned:
        trace.add("601.2c", "targets: " + ", ".join(t for _, t, _ in assigned))
    # ---- 601.2d: division ------------------------------------------------------------------------
    division = _division(spell.base, assigned, spec.division, trace)
    # ---- 601.2e ----------------------------------------------------------------------------------
    prohibitor = _prohibited(state, replace(spell, x=x), caster, open_choices=False)
    if prohibitor is not None:
        raise _fail(Reason.ILLEGAL_PROPOSAL, f"{prohibitor} prohibits casting the spell as proposed", rules=("601.2e", "601.5"))
    if flash_needed:
        fitting = [(s, ab) for s, ab in _flash_permissions(state, replace(spell, x=x), caster, open_choices=False)
                   if (ab.flash_cost is None or spec.flash_cost == s.id)
                   and (ab.flash_alternative is None or alt == ab.flash_alternative)]
        if not fitting:
            raise _fail(Reason.ILLEGAL_PROPOSAL, f"as proposed, no effect lets {caster} cast {c.name} as though it had "
                                                 "flash, and it has sorcery timing", rules=("601.3b", "601.3c", "601.5"))
        s, _ = fitting[0]
        trace.add("601.5", f"as proposed, {s.base.name} ({s.id}) lets {caster} cast it as though it had flash; that "
                           "stays settled while costs are paid")
    trace.add("601.2e", "the proposed spell is legal to cast")
    return Proposal(state=state, spell=spec.object, caster=caster, to_pay=to_pay, label=label, x=x, alt=alt,
                    kicked=spec.kicker, targets=tuple(t for _, t, _ in assigned),
                    target_controllers=tuple(r for _, _, r in assigned), division=division, y=y, z=z)


def _split_choice(obj, spec: CastSpec, trace: Trace) -> tuple[int | None, bool]:
    """202.3d: a split card is cast as one of its halves (the spell then has only that half's
    characteristics) or, with fuse, as both (702.102: only from its owner's hand)."""
    card = obj.base
    if not card.halves:
        if spec.half is not None or spec.fuse:
            raise _fail(Reason.INVALID_SPLIT_CHOICE, f"{card.name} is not a split card: no half to choose or fuse", rules=("202.3d",))
        return None, False
    if spec.fuse:
        if spec.half is not None:
            raise _fail(Reason.INVALID_SPLIT_CHOICE, "a fused split spell is both halves: no half is chosen", rules=("202.3d",))
        if "fuse" not in card.keywords or obj.zone != "hand" or obj.owner != spec.player:
            raise _fail(Reason.INVALID_SPLIT_CHOICE, f"{card.name} can be cast fused only if it has fuse, from its "
                                                     "owner's hand", rules=("702.102",))
        trace.add("202.3d", f"{card.name} is cast fused: both halves ({card.mana_cost})")
        return None, True
    if isinstance(spec.half, bool) or spec.half not in (0, 1):
        raise _fail(Reason.INVALID_SPLIT_CHOICE, f"{card.name} is a split card: choose half 0 or 1 (or fuse), "
                                                 f"not {spec.half!r}", rules=("202.3d",))
    h = card.halves[spec.half]
    trace.add("202.3d", f"{card.name}: the half {h.name} ({h.mana_cost}) is cast")
    return spec.half, False


def _announce_variables(spell, spec: CastSpec, to_pay: ManaCost | None, mana_cost: ManaCost | None,
                        trace: Trace) -> dict[str, int | None]:
    """601.2b / 107.3a-c, 107.3f, 107.3p: the values of X, Y and Z. A variable in the cost to
    pay must be announced; one only in the mana cost that is not being paid is 0 (107.3b); an
    X only in the text is defined by it (107.3c: announcing it is an error), announced now
    (107.3f, `choose: cast`) or chosen on resolution (`choose: resolution`)."""
    announced = {"X": spec.x, "Y": spec.y, "Z": spec.z}
    for letter, v in announced.items():
        if v is not None and v < 0:
            raise _fail(Reason.INVALID_X, f"{letter} can't be negative ({v})", rules=("107.1b", "107.3a"))
    values: dict[str, int | None] = {}
    tx = spell.base.text_x
    if tx is not None:
        if tx.count is not None and spec.x is not None:
            raise _fail(Reason.INVALID_X, f"X = {spec.x} announced, but {spell.base.name}'s text defines X: its "
                                          "controller doesn't choose it", rules=("107.3c",))
        if tx.choose == "resolution" and spec.x is not None:
            raise _fail(Reason.INVALID_X, f"X = {spec.x} announced, but {spell.base.name}'s X is chosen as it "
                                          "resolves", rules=("107.3f",))
        if tx.choose == "cast":
            if spec.x is None:
                raise _fail(Reason.INVALID_X, f"{spell.base.name}'s text has an undefined X that is chosen as it is "
                                              "put on the stack: its value must be announced", rules=("107.3f",))
            trace.add("107.3f", f"X = {spec.x} (an X in the text only, chosen as the spell is put on the stack)")
            values["X"] = spec.x
        elif tx.count is not None:
            trace.add("107.3c", "X is defined by the spell's text; its controller doesn't choose it")
        else:
            trace.add("107.3f", "X (in the text only) will be chosen as the spell resolves")
        announced.pop("X")
        values.setdefault("X", None)
    for letter, v in announced.items():
        rule = "107.3a" if letter == "X" else "107.3p"
        printed = mana_cost is not None and letter in mana_cost.variables
        if to_pay is not None and letter in to_pay.variables:
            if v is None:
                raise _fail(Reason.INVALID_X, f"the cost {to_pay} has {{{letter}}}: its value must be announced "
                                              f"({rule})")
            trace.add(rule, f"{letter} = {v}")
            values[letter] = v
            continue
        if v not in (None, 0):
            why = (f"the mana cost is not being paid, so {letter} must be 0 (107.3b)" if printed
                   else f"the cost has no {{{letter}}} ({rule})")
            raise _fail(Reason.INVALID_X, f"{letter} = {v} announced but {why}")
        values[letter] = 0 if printed else None
        if printed:
            trace.add("107.3b", f"{letter} is 0: the mana cost with {{{letter}}} is not being paid")
    return values


def _cost_values(cost: ManaCost, x: int | None, y: int | None, z: int | None) -> tuple[int | None, ...]:
    """The variables' values as the cost to pay sees them: only those it has (an X announced for
    the text only, 107.3f, is not part of the cost)."""
    return tuple(v if letter in cost.variables else None for letter, v in zip("XYZ", (x, y, z)))


def _division(card, assigned, announced, trace: Trace) -> tuple[tuple[str, int], ...]:
    """601.2d: the divided amount split among the divided targets, each getting at least 1."""
    divided = [t for spec, t, _ in assigned if spec.divided]
    if card.divide is None or not any(s.divided for s in card.targets):
        if announced:
            raise _fail(Reason.INVALID_DIVISION, f"{card.name} divides nothing; a division was announced", rules=("601.2d",))
        return ()
    total = card.divide
    if announced is None:
        if len(divided) > 1:
            raise _fail(Reason.INVALID_DIVISION, f"{len(divided)} targets share {total}: the division must be "
                                                 "announced", rules=("601.2d",))
        announced = tuple((t, total) for t in divided)
    amounts = dict(announced)
    if len(amounts) != len(announced):
        raise _fail(Reason.INVALID_DIVISION, "a target is named twice in the division", rules=("601.2d",))
    for ref, n in announced:
        if ref not in divided:
            raise _fail(Reason.INVALID_DIVISION, f"{ref} is not a target among which {card.name} divides", rules=("601.2d",))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise _fail(Reason.INVALID_DIVISION, f"{ref} gets {n}; each target must get at least 1", rules=("601.2d",))
    missing = [t for t in divided if t not in amounts]
    if missing:
        raise _fail(Reason.INVALID_DIVISION, f"{', '.join(missing)} get nothing in the division; each target must "
                                             "get at least 1", rules=("601.2d",))
    if sum(amounts.values()) != total:
        raise _fail(Reason.INVALID_DIVISION, f"the division gives {sum(amounts.values())}, but {card.name} divides "
                                             f"{total}", rules=("601.2d",))
    out = tuple((t, amounts[t]) for t in divided)
    trace.add("601.2d", f"{total} divided: " + ", ".join(f"{n} to {t}" for t, n in out))
    return out


def _conditional_flash(state: State, spell, caster: str) -> str | None:
    """601.3d: a card that has flash while its caster controls a permanent of some kind; the
    permanent found (the condition holds), else None."""
    for ab in spell.base.abilities:
        if ab.kind != "conditional_flash":
            continue
        for p in state.battlefield():
            if p.controller == caster and p.id != spell.id and matches(chars(state, p), p, ab.permanents, caster):
                return f"{chars(state, p).name} ({p.id})"
    return None


def _proposal_views(state: State, spell, flt) -> list:
    """601.3a / 601.3b: the spell as the choices still to be made during its proposal could make
    it, for an effect with filter `flt`: cast prototyped or normally (718.3; each judged with the
    characteristics it would be cast with, 601.3e / 718.3a-b) and, for a filter on mana value,
    any value of an {X} in the mana cost (107.3a; 0..bound+2 reaches every parity and bound).
    Other proposal choices (modes, targets, kicker, alternative costs) change none of the
    qualities the oracle's filters look at."""
    shapes = [spell]
    if spell.base.prototype is not None:
        shapes.append(replace(spell, prototyped=not spell.prototyped))
    by_mv = flt.mana_value or flt.mana_value_min is not None or flt.mana_value_max is not None
    top = max(flt.mana_value_min or 0, flt.mana_value_max or 0) + 2
    out = []
    for v in shapes:
        cost = chars(state, v).mana_cost
        if by_mv and cost is not None and cost.has_x:
            out.extend(replace(v, x=n) for n in range(top + 1))
        else:
            out.append(v)
    return out


def _flash_permissions(state: State, spell, caster: str, open_choices: bool) -> list:
    """Permanents `caster` controls whose effect lets them cast `spell` as though it had flash
    (their flash_permission abilities). open_choices (601.3b): the proposal is still to be made,
    so an effect applies if some choice of it (prototype, X: `_proposal_views`) makes the spell
    qualify; extra or alternative costs the permission asks for are checked once the proposal is
    complete (601.3c)."""
    out = []
    for src in state.battlefield():
        if src.kind != "card" or src.controller != caster:
            continue
        for ab in src.base.abilities:
            if ab.kind != "flash_permission":
                continue
            views = _proposal_views(state, spell, ab.spells) if open_choices else [spell]
            if any(matches(chars(state, v), v, ab.spells, caster, src.id) for v in views):
                out.append((src, ab))
    return out


def _prohibited(state: State, spell, caster: str, open_choices: bool) -> str | None:
    """A cast_prohibition that stops `caster` casting `spell`. open_choices (601.3a): before the
    proposal, an effect prohibits only if no choice still to be made during the proposal
    (`_proposal_views`: prototype, X) would make the spell escape it; each effect is judged on
    its own."""
    for src in state.battlefield():
        for ab in src.base.abilities if src.kind == "card" else ():
            if ab.kind != "cast_prohibition":
                continue
            if ab.players == "opponents" and caster == src.controller:
                continue
            if ab.players == "you" and caster != src.controller:
                continue
            views = _proposal_views(state, spell, ab.spells) if open_choices else [spell]
            if all(matches(chars(state, v), v, ab.spells, src.controller, src.id) for v in views):
                return f"{src.base.name} ({src.id})"
    return None


# ---- 601.2f-i -------------------------------------------------------------------------------------

def pay(prop: Proposal, spec: CastSpec, hybrid: Sequence[str], phyrexian: Sequence[str],
        trace: Trace) -> tuple[State, dict]:
    state, caster = prop.state, prop.caster
    spell = state.obj(prop.spell)
    total = None
    if prop.to_pay is not None:
        cx, cy, cz = _cost_values(prop.to_pay, prop.x, prop.y, prop.z)
        start = resolve_choices(prop.to_pay, cx, list(hybrid), list(phyrexian), y=cy, z=cz)
        tc = rules().total_cost(state, spell, caster, start, prop.label, spec.reductions, trace)
        total = tc.cost
    else:
        trace.add("118.6", "the spell has no mana cost and no alternative cost: its cost is unpayable")
    total_text = total and concrete_text(total)
    life = total.life if total is not None else 0
    try:
        # 601.2g: mana abilities
        state = payment.activate_listed(state, caster, spec.mana_abilities, total, trace,
                                        sacrifices=spec.mana_sacrifices, spell=spell,
                                        orders=spec.mana_replacements)
        # 601.2h: pay everything at once
        if total is None:
            raise Illegal(Reason.UNPAYABLE_COST, f"{chars(state, spell).name} has no mana cost; an unpayable cost "
                                                 "can't be paid", rules=("118.6",))
        for oid in spec.sacrifice:
            if not sacrificable(state, prop, oid):
                raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{oid} can't be sacrificed to pay the additional cost", rules=("118.8", "601.2h"))
        for oid in spec.reveal:
            if not _revealable(state, prop, oid):
                raise Illegal(Reason.ADDITIONAL_COST_UNPAID, f"{oid} is not a card in {caster}'s hand that the "
                                                             "reveal cost asks for", rules=("118.8", "601.2h"))
        state = rules().pay_life(state, caster, total.life, trace)
        used = frozenset(o for o, _, _ in spec.mana_abilities)
        state = payment.pay_mana(state, caster, total, spec.auto_pay, used, trace, spell=spell)
        for oid in spec.sacrifice:
            state = move(state, oid, "graveyard", trace, note="sacrificed to pay an additional cost", rules=("601.2h",))
        if spec.reveal:
            trace.add("601.2h", f"{caster} reveals {', '.join(spec.reveal)} from their hand (an additional cost, 118.8)")
    except Illegal as exc:
        exc.total_cost = total_text
        exc.life_paid = life if total is not None else None
        raise
    # 601.2i: the spell becomes cast
    spell = state.obj(prop.spell)
    state = state.with_obj(replace(spell, cast=True, prowl_paid=prop.alt == "prowl", alt_cost=prop.alt, x=prop.x, y=prop.y, z=prop.z,
                                   modes=tuple(spec.modes),
                                   kicked=prop.kicked, targets=prop.targets,
                                   target_controllers=prop.target_controllers, division=prop.division))
    trace.add("601.2i", f"{chars(state, spell).name} ({prop.spell}) becomes cast")
    result = {"legal": True, "total_cost": total_text, "life_paid": life}
    return state, result


def sacrificable(state: State, prop: Proposal, oid: str) -> bool:
    obj = state.objects.get(oid)
    if obj is None or obj.zone != "battlefield" or obj.controller != prop.caster or oid == prop.spell:
        return False
    spell = state.obj(prop.spell)
    c = chars(state, obj)
    return any(matches(c, obj, a.sacrifice, prop.caster) for a in spell.base.additional_costs
               if a.sacrifice is not None)


def _revealable(state: State, prop: Proposal, oid: str) -> bool:
    obj = state.objects.get(oid)
    if obj is None or obj.zone != "hand" or obj.owner != prop.caster or oid == prop.spell:
        return False
    spell = state.obj(prop.spell)
    c = chars(state, obj)
    return any(matches(c, obj, a.reveal, prop.caster) for a in spell.base.additional_costs if a.reveal is not None)


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


def _announce_objects(name: str, chosen, required: int, unit: str, what: str, verb: str, trace, suffix: str = "") -> None:
    """An additional cost that names objects (sacrifice, reveal) is announced with exactly as many
    distinct objects as it asks for (118.8, 601.2b; see docs/case-format.md)."""
    if len(chosen) != required or len(set(chosen)) != len(chosen):
        raise _fail(Reason.ADDITIONAL_COST_UNAVAILABLE,
                    f"{name} needs {required} {unit} announced for its {what} cost, got {len(chosen)}", rules=("118.8", "601.2b"))
    if required:
        trace.add("118.8", f"additional cost announced: {verb} {', '.join(chosen)}{suffix}")
