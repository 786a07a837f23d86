"""601.2b: the announcements of a cast, each a stage of its own: the half of a split card,
prototype, the alternative cost and what it costs, additional costs (kicker, a flash
permission's extra cost, objects to sacrifice or reveal), modes, X / Y / Z, and the hybrid and
Phyrexian choices; then the division among targets (601.2d)."""
from __future__ import annotations


from castrules.model.cards import Flashback
from castrules.model.parts import Filter
from castrules.model.vocab import AlternativeCostName

from .cast_permissions import find_permission, flash_permissions
from .cast_spec import CastSpec
from .characteristics import Chars, chars, matches
from .costs import ChoiceError, ManaCost, cost_text, hybrid_options, phyrexian_count, resolve_choices
from .errors import Illegal
from .frozen import replace
from .keyword_costs import mode_counts
from .prowl import choose_prowl, prowl_costs
from .reasons import Reason
from .return_costs import announce_returned
from .seams import rules
from .state import Obj, State
from .trace import Trace

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_FLASHBACK = AlternativeCostName.FLASHBACK
_PROWL = AlternativeCostName.PROWL


def announce_prototype(state: State, spell: Obj, spec: CastSpec, c: Chars, trace: Trace) -> State:
    """702.160a, 718.3a-b: cast prototyped, with the prototype's mana cost, power and toughness."""
    if not spec.prototype:
        return state
    if spell.base.prototype is None:
        raise Illegal(Reason.PROTOTYPE_UNAVAILABLE, f"{c.name} has no prototype", rules=("702.160a",))
    p = spell.base.prototype
    trace.add(("718.3", "718.3a", "718.3b"), f"cast prototyped: mana cost {p.mana_cost}, {p.power}/{p.toughness}")
    return state.with_obj(replace(spell, prototyped=True))


def base_cost(state: State, spell: Obj, spec: CastSpec, alt: str | None, zone_permission: str | None,
              from_zone: str, trace: Trace, flashback: Flashback | None = None) -> tuple[ManaCost | None, str]:
    """601.2b, 118.9: the cost the total starts from (the mana cost, or the alternative cost
    announced) and how the trace names it. None: no mana cost and no alternative (118.6).
    `flashback`: the flashback the card had where it was cast from (its own or a granted one)."""
    c = chars(state, spell)
    announce_returned(state, spell, alt, spec.returned, spec.player, trace)
    if spec.emerge is not None and alt != "emerge":
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{spec.emerge} is named to sacrifice for emerge, but "
                                                           f"{c.name} is not being cast for an emerge cost",
                      rules=("702.119a",))
    if alt is None:
        if c.mana_cost is None:
            trace.add("118.6", f"{c.name} has no mana cost: it can't be paid, only replaced by an alternative cost")
            return None, "no mana cost (unpayable)"
        return c.mana_cost, ("its prototype mana cost " if spell.prototyped else "its mana cost ") + (
            cost_text(c.mana_cost) or "")
    if alt == _PROWL:
        found = _prowl_cost(state, spell, spec, c, zone_permission, trace)
    elif alt == AlternativeCostName.WITHOUT_PAYING_MANA_COST:
        src = spec.instructed_by or find_permission(state, spec.object, spec.player, from_zone, spec.permission, True)
        if src is None:
            raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"nothing lets {spec.player} cast {c.name} from the "
                                                               f"{from_zone} without paying its mana cost",
                          rules=("118.9",))
        found = ManaCost(()), f"no mana: cast without paying its mana cost ({state.obj(src).base.name}, {src})"
    elif alt == _FLASHBACK:
        found = _flashback_cost(flashback, c, from_zone)
    else:
        named = {a.name: a.cost for a in spell.base.alternative_costs}
        if alt not in named:
            raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} has no {alt} cost", rules=("118.9",))
        found = ManaCost.parse(named[alt]), f"the {alt} cost {named[alt]}"
        keyword_condition(state, spell, spec, alt, c, trace)
    trace.add("118.9", f"alternative cost announced: {alt}")
    return found


def _flashback_cost(fb: Flashback | None, c: Chars, from_zone: str) -> tuple[ManaCost, str]:
    """702.34a: the flashback cost replaces the mana cost, only for a cast from the graveyard."""
    if fb is None:
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} has no flashback", rules=("702.34a", "118.9"))
    if from_zone != "graveyard":
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} is cast from the {from_zone}: its flashback "
                                                           "cost can be paid only when it is cast from a graveyard",
                      rules=("702.34a",))
    parts = [fb.cost] if fb.cost else ([] if fb.life or fb.sacrifice else ["{0}"])
    parts += [f"{fb.life} life"] if fb.life else []
    parts += ["a sacrifice"] if fb.sacrifice is not None else []
    return ManaCost.parse(fb.cost or "{0}"), "the flashback cost " + " and ".join(parts)


def flashback_sacrifice(fb: Flashback | None, announced) -> tuple:
    """702.34a: the filter of the permanent the flashback cost `fb` sacrifices, if the flashback
    cost is announced (`announced`: an alternative cost or the list of them) and asks for one."""
    wanted = _FLASHBACK in (announced if isinstance(announced, tuple) else (announced,))
    return (fb.sacrifice,) if wanted and fb is not None and fb.sacrifice is not None else ()


def flashback_life(fb: Flashback | None, alt: str | None) -> int:
    """702.34a: life that is part of the flashback cost `fb` paid (Deep Analysis), else 0."""
    return fb.life if alt == _FLASHBACK and fb is not None else 0


def keyword_condition(state: State, spell: Obj, spec: CastSpec, alt: str, c: Chars, trace: Trace) -> None:
    """The condition of a keyword alternative cost, at 601.2b: surge needs another spell cast
    by its caster this turn (702.117a); emerge needs a creature its caster controls, chosen now
    (702.119a, 702.119c)."""
    if alt == "surge":
        earlier = [r.spell for r in state.cast_log if r.player == spec.player]
        if not earlier:
            raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{spec.player} has cast no other spell this turn: "
                                                               f"{c.name}'s surge cost can't be paid", rules=("702.117a",))
        trace.add("702.117a", f"surge available: {spec.player} cast {', '.join(earlier)} this turn")
    if alt == "emerge":
        quality, rule = rules().emerge_quality(spell)
        victim = state.objects.get(spec.emerge) if spec.emerge is not None else None
        if (victim is None or victim.zone != "battlefield" or victim.controller != spec.player
                or not matches(chars(state, victim), victim, quality, spec.player)):
            what = "a creature" if rule == "702.119a" else "a permanent of the quality its emerge names"
            raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                          f"emerge needs {what} {spec.player} controls to sacrifice; "
                          f"{spec.emerge or 'none'} was named", rules=(rule, "702.119c"))
        trace.add(("702.119c", "601.2b") + ((rule,) if rule != "702.119a" else ()),
                  f"emerge: {victim.base.name} ({victim.id}) will be sacrificed as the cost is paid")


def emerge_quality(spell: Obj) -> tuple[Filter, str]:
    """What the emerge cost sacrifices and the rule saying so: a creature (702.119a), or for
    "emerge from [quality]" a permanent of that quality (702.119b; Crabomination: an artifact)."""
    named = next((a.emerge_from for a in spell.base.alternative_costs if a.name == "emerge"), None)
    return (Filter(types=("Creature",)), "702.119a") if named is None else (named, "702.119b")


def _prowl_cost(state: State, spell: Obj, spec: CastSpec, c: Chars, zone_permission: str | None,
                trace: Trace) -> tuple[ManaCost, str]:
    """702.76a: the prowl cost chosen, if combat damage this turn enables it."""
    caster = spec.player
    costs = prowl_costs(state, spell, caster)
    if not costs:
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE, f"{c.name} has no prowl", rules=("702.76a",))
    chosen = choose_prowl(costs, spec.permission, zone_permission)
    if chosen is None:
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                      f"{spec.permission} grants {c.name} no prowl cost; its prowl costs come from "
                      f"{', '.join(p.source for p in costs)}", rules=("702.76a", "118.9"))
    enabler = rules().prowl_enabler(state, c, caster)
    if enabler is None:
        types = "every creature type" if c.all_creature_types else (", ".join(sorted(c.creature_types)) or "none")
        raise Illegal(Reason.ALTERNATIVE_COST_UNAVAILABLE,
                      f"no player was dealt combat damage this turn by a source {caster} controlled with any of "
                      f"the spell's creature types ({types})", rules=("702.76a",))
    ev = enabler.event
    trace.add("702.76a", f"prowl available: {ev.source_name} ({ev.source}), controlled by {ev.controller}, dealt "
                         f"{ev.amount} combat damage to {ev.player}; shared creature type: {enabler.matched}")
    return (ManaCost.parse(chosen.cost),
            f"the prowl cost {chosen.cost}" + ("" if chosen.source == "printed" else f" (granted by {chosen.source})"))


def additional_costs(state: State, spell: Obj, spec: CastSpec, to_pay: ManaCost | None, label: str,
                     trace: Trace) -> tuple[ManaCost | None, str]:
    """118.8, 601.3c: kicker and a flash permission's extra cost join the cost to pay; the
    objects a sacrifice or reveal cost names are announced."""
    c = chars(state, spell)
    if spec.kicker:
        if spell.base.kicker is None:
            raise Illegal(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{c.name} has no kicker", rules=("118.8",))
        if to_pay is not None:
            to_pay = to_pay + ManaCost.parse(spell.base.kicker)
        label += f" plus kicker {spell.base.kicker}"
        trace.add("118.8", f"kicker {spell.base.kicker} announced")
    to_pay, label = rules().keyword_costs(spell, spec, c.name, to_pay, label, trace)
    if spec.flash_cost is not None:
        src = state.obj(spec.flash_cost)
        costed = [ab for s, ab in flash_permissions(state, spell.with_x(spec.x), spec.player, open_choices=False)
                  if s.id == src.id and ab.extra_cost]
        if not costed:
            raise Illegal(Reason.ADDITIONAL_COST_UNAVAILABLE, f"{src.base.name} ({src.id}) offers {c.name} no extra "
                                                              "cost to cast it as though it had flash",
                          rules=("601.3c", "601.2b"))
        extra = costed[0].extra_cost
        if to_pay is not None:
            to_pay = to_pay + ManaCost.parse(extra)
        label += f" plus {extra} to cast it as though it had flash ({src.base.name})"
        trace.add("601.3c", f"{spec.player} will pay {extra} more ({src.base.name}, {src.id}) to cast it as though "
                            "it had flash")
    return to_pay, label


def announce_object_costs(state: State, spell: Obj, spec: CastSpec, trace: Trace,
                          flashback: Flashback | None = None) -> None:
    """118.8, 601.2b: the objects the costs paid with objects ask for are named, as many as they
    ask: the card's additional costs, the sacrifice of the flashback cost it is cast with, and
    entwine and escalate costs paid with objects (702.42a, 702.120a; escalate's once per mode
    beyond the first)."""
    name = chars(state, spell).name
    costs = spell.base.additional_costs + rules().keyword_object_costs(spell, spec)
    sacrifices = reveals = discards = 0     # most spells have no such cost: no generator to sum
    if costs:
        sacrifices = sum(a.count for a in costs if a.sacrifice is not None)
        reveals = sum(a.count for a in costs if a.reveal is not None)
        discards = sum(a.count for a in costs if a.discard is not None)
    announce_objects(name, spec.sacrifice, sacrifices + len(flashback_sacrifice(flashback, spec.alternative)),
                     "object(s)", "sacrifice", "sacrifice", trace)
    announce_objects(name, spec.reveal, reveals, "card(s)", "reveal", "reveal", trace, suffix=" from the hand")
    announce_objects(name, spec.discard, discards, "card(s)", "discard", "discard", trace, suffix=" from the hand")


def announce_modes(spell: Obj, spec: CastSpec, c: Chars, trace: Trace) -> None:
    """700.2: a modal spell's modes, as many different ones as it says."""
    modes = spell.base.modes
    if modes is None:
        if spec.modes:
            raise Illegal(Reason.INVALID_MODE, f"{c.name} is not modal", rules=("700.2",))
        return
    chosen = list(spec.modes)
    least, most, why = mode_counts(spell, spec)
    if (not least <= len(chosen) <= most or len(set(chosen)) != len(chosen)
            or any(not 0 <= m < len(modes.options) for m in chosen)):
        many = str(least) if least == most else f"{least} to {most}"
        raise Illegal(Reason.INVALID_MODE, f"choose {many} of the {len(modes.options)} modes"
                      + (" (entwined: all of them)" if spec.entwine else "") + f"; announced {chosen}", rules=why)
    if why[0] == "601.4" and len(chosen) > modes.choose:
        trace.add(why, f"modes chosen: {chosen}, more than {modes.choose} because the kicker, announced later, "
                       "is paid")
        return
    if why[0] == "601.4" and not chosen:
        trace.add(("107.1c", "601.4", "700.2"), "no mode chosen: the kicker, announced later, allows any number of "
                                                "modes, and any number includes none")
        return
    trace.add("700.2" if not spec.entwine else ("702.42a", "700.2"), f"modes chosen: {chosen}")


def check_payment_choices(spec: CastSpec, to_pay: ManaCost | None, values: dict[str, int | None]) -> None:
    """601.2b, 118.13a: the hybrid and Phyrexian choices announced fit the cost to pay."""
    if to_pay is None:
        if spec.hybrid or spec.phyrexian:
            raise Illegal(Reason.INVALID_HYBRID_CHOICE if spec.hybrid else Reason.INVALID_PHYREXIAN_CHOICE,
                          "choices announced for a spell with no cost to pay", "601.2b")
        return
    hyb = spec.hybrid if spec.hybrid is not None else tuple(h[0] for h in hybrid_options(to_pay))
    phy = spec.phyrexian if spec.phyrexian is not None else ("mana",) * phyrexian_count(to_pay)
    try:
        cx, cy, cz = cost_values(to_pay, values["X"], values["Y"], values["Z"])
        resolve_choices(to_pay, cx, hyb, phy, y=cy, z=cz)
    except ChoiceError as exc:
        raise Illegal(Reason(exc.code), f"{exc}", "601.2b", rules=("601.2b", "118.13a") + exc.rules) from None


def split_choice(obj, spec: CastSpec, trace: Trace) -> tuple[int | None, bool]:
    """202.3d: a split card is cast as one of its halves (the spell then has only that half's
    characteristics) or, with fuse, as both (702.102: only from its owner's hand)."""
    card = obj.base
    if not card.halves:
        if spec.half is not None or spec.fuse:
            raise Illegal(Reason.INVALID_SPLIT_CHOICE, f"{card.name} is not a split card: no half to choose or fuse", rules=("202.3d",))
        return None, False
    if spec.fuse:
        if spec.half is not None:
            raise Illegal(Reason.INVALID_SPLIT_CHOICE, "a fused split spell is both halves: no half is chosen", rules=("202.3d",))
        if "fuse" not in card.keywords or obj.zone != "hand" or obj.owner != spec.player:
            raise Illegal(Reason.INVALID_SPLIT_CHOICE, f"{card.name} can be cast fused only if it has fuse, from its "
                                                     "owner's hand", rules=("702.102",))
        trace.add("202.3d", f"{card.name} is cast fused: both halves ({card.mana_cost})")
        return None, True
    if isinstance(spec.half, bool) or spec.half not in (0, 1):
        raise Illegal(Reason.INVALID_SPLIT_CHOICE, f"{card.name} is a split card: choose half 0 or 1 (or fuse), "
                                                 f"not {spec.half!r}", rules=("202.3d",))
    h = card.halves[spec.half]
    trace.add("202.3d", f"{card.name}: the half {h.name} ({h.mana_cost}) is cast")
    return spec.half, False


def announce_variables(spell, spec: CastSpec, to_pay: ManaCost | None, mana_cost: ManaCost | None,
                        trace: Trace) -> dict[str, int | None]:
    """601.2b / 107.3a-c, 107.3f, 107.3p: the values of X, Y and Z. A variable in the cost to
    pay must be announced; one only in the mana cost that is not being paid is 0 (107.3b); an
    X only in the text is defined by it (107.3c: announcing it is an error), announced now
    (107.3f, `choose: cast`) or chosen on resolution (`choose: resolution`)."""
    announced = {"X": spec.x, "Y": spec.y, "Z": spec.z}
    for letter, v in announced.items():
        if v is not None and v < 0:
            raise Illegal(Reason.INVALID_X, f"{letter} can't be negative ({v})", rules=("107.1b", "107.3a"))
    values: dict[str, int | None] = {}
    tx = spell.base.text_x
    if tx is not None:
        if tx.defined and spec.x is not None:
            raise Illegal(Reason.INVALID_X, f"X = {spec.x} announced, but {spell.base.name}'s text defines X: its "
                                          "controller doesn't choose it", rules=("107.3c",))
        if tx.choose == "resolution" and spec.x is not None:
            raise Illegal(Reason.INVALID_X, f"X = {spec.x} announced, but {spell.base.name}'s X is chosen as it "
                                          "resolves", rules=("107.3f",))
        if tx.choose == "cast":
            if spec.x is None:
                raise Illegal(Reason.INVALID_X, f"{spell.base.name}'s text has an undefined X that is chosen as it is "
                                              "put on the stack: its value must be announced", rules=("107.3f",))
            trace.add("107.3f", f"X = {spec.x} (an X in the text only, chosen as the spell is put on the stack)")
            values["X"] = spec.x
        elif tx.defined:
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
                raise Illegal(Reason.INVALID_X, f"the cost {to_pay} has {{{letter}}}: its value must be announced",
                              rules=(rule,))
            trace.add(rule, f"{letter} = {v}")
            values[letter] = v
            continue
        if v not in (None, 0):
            why = (f"the mana cost is not being paid, so {letter} must be 0" if printed
                   else f"the cost has no {{{letter}}}")
            raise Illegal(Reason.INVALID_X, f"{letter} = {v} announced but {why}",
                          rules=("107.3b",) if printed else (rule,))
        values[letter] = 0 if printed else None
        if printed:
            trace.add("107.3b", f"{letter} is 0: the mana cost with {{{letter}}} is not being paid")
    return values


def cost_values(cost: ManaCost, x: int | None, y: int | None, z: int | None) -> tuple[int | None, ...]:
    """The variables' values as the cost to pay sees them: only those it has (an X announced for
    the text only, 107.3f, is not part of the cost)."""
    return tuple(v if letter in cost.variables else None for letter, v in zip("XYZ", (x, y, z)))


def announce_division(card, assigned, announced, trace: Trace) -> tuple[tuple[str, int], ...]:
    """601.2d: the divided amount split among the divided targets, each getting at least 1."""
    divided = [t for spec, t, _ in assigned if spec.divided]
    if card.divide is None or not any(s.divided for s in card.targets):
        if announced:
            raise Illegal(Reason.INVALID_DIVISION, f"{card.name} divides nothing; a division was announced", rules=("601.2d",))
        return ()
    total = card.divide
    if announced is None:
        if len(divided) > 1:
            raise Illegal(Reason.INVALID_DIVISION, f"{len(divided)} targets share {total}: the division must be "
                                                 "announced", rules=("601.2d",))
        announced = tuple((t, total) for t in divided)
    amounts = dict(announced)
    if len(amounts) != len(announced):
        raise Illegal(Reason.INVALID_DIVISION, "a target is named twice in the division", rules=("601.2d",))
    for ref, n in announced:
        if ref not in divided:
            raise Illegal(Reason.INVALID_DIVISION, f"{ref} is not a target among which {card.name} divides", rules=("601.2d",))
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise Illegal(Reason.INVALID_DIVISION, f"{ref} gets {n}; each target must get at least 1", rules=("601.2d",))
    missing = [t for t in divided if t not in amounts]
    if missing:
        raise Illegal(Reason.INVALID_DIVISION, f"{', '.join(missing)} get nothing in the division; each target must "
                                             "get at least 1", rules=("601.2d",))
    if sum(amounts.values()) != total:
        raise Illegal(Reason.INVALID_DIVISION, f"the division gives {sum(amounts.values())}, but {card.name} divides "
                                             f"{total}", rules=("601.2d",))
    out = tuple((t, amounts[t]) for t in divided)
    trace.add("601.2d", f"{total} divided: " + ", ".join(f"{n} to {t}" for t, n in out))
    return out


def announce_objects(name: str, chosen, required: int, unit: str, what: str, verb: str, trace, suffix: str = "") -> None:
    """An additional cost that names objects (sacrifice, reveal) is announced with exactly as many
    distinct objects as it asks for (118.8, 601.2b; see docs/case-format.md)."""
    if len(chosen) != required or len(set(chosen)) != len(chosen):
        raise Illegal(Reason.ADDITIONAL_COST_UNAVAILABLE,
                    f"{name} needs {required} {unit} announced for its {what} cost, got {len(chosen)}", rules=("118.8", "601.2b"))
    if required:
        trace.add("118.8", f"additional cost announced: {verb} {', '.join(chosen)}{suffix}")
