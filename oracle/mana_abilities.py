"""Mana abilities (605): activating them, what they produce, what a permanent could produce.

- 106.7 could-produce: the types an ability would add if it resolved now, replacement
  effects included, costs ignored; loops (two Reflecting Pools) add nothing.
- 106.5: an ability that would add mana of an undefined type adds nothing.
- 106.12: "tapped for mana" = a mana ability with {T} in its cost; 106.12b replacements
  (Contamination, Mana Reflection) change the production, 106.12a triggers add more.
- 605.3b: an activation's costs ({T}, {Q}, mana from the pool, life, sacrifices; 107.5, 107.6,
  302.6) are paid by the one payer (oracle.payer) before the ability resolves at once.
"""
from __future__ import annotations

import functools
from typing import Callable, Sequence

from castrules.model.abilities import Ability, ManaAbility, ManaReplacement, ManaTrigger
from castrules.model.effects import AddMana
from castrules.model.parts import ProduceCouldProduce, ProduceOneOf, ProducePower

from .characteristics import chars, matches
from .costs import ManaCost, ManaType, Supply, SymbolKind, Unit, resolve_choices
from .errors import Illegal
from .frozen import make, replace
from .payer import CostContext, Paying, TapPart, ability_cost_parts, can_pay, pay_costs
from .reasons import Reason
from .seams import rules
from .spending import Purpose, allowed, restriction_of
from .state import CARD, Obj, Player, State
from .trace import Trace

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_MANA_ABILITY = Paying.MANA_ABILITY

ORDER = ("W", "U", "B", "R", "G", "C")
COLOR_LETTERS = frozenset("WUBRG")


def _mana_text_units(text: str) -> list[frozenset[str]]:
    """Mana an effect adds from text, one unit per symbol; each unit is the set of ways it can
    be added ("CC" = two colorless): coloured as such, generic and snow as colorless (106.10,
    106.11), hybrid one of its halves (106.8: {2/W} is {W} or two colorless), Phyrexian its
    colour (106.9). A new list each call (its callers may build on it)."""
    return list(_text_units(text))


@functools.lru_cache(maxsize=1024)
def _text_units(text: str) -> tuple[frozenset[str], ...]:
    """``_mana_text_units``, kept per text: a pure function of an immutable string, asked once or
    twice per activation of a mana ability (errors are raised anew, never kept)."""
    out: list[frozenset[str]] = []
    for sym in ManaCost.parse(text).symbols:
        kind = sym.kind
        if kind is SymbolKind.GENERIC:
            out += [frozenset("C")] * sym.number
        elif kind in (SymbolKind.COLORLESS, SymbolKind.SNOW):
            out.append(frozenset("C"))
        elif kind in (SymbolKind.COLORED, SymbolKind.PHYREXIAN):
            out.append(frozenset(sym.components[0].value))
        else:
            out.append(frozenset("CC" if h == "2" else h for h in sym.halves))
    return tuple(out)


def mana_from_text(text: str) -> tuple[str, ...]:
    """The mana an effect adds from text, one type letter per mana, each unit's first option
    (a hybrid symbol its first half): what "add {R}{G}" puts into a pool."""
    return tuple(t for u in _mana_text_units(text) for t in _first(u))


def _first(u: frozenset[str]) -> str:
    found = _FIRST.get(u)
    if found is None:
        found = _FIRST[u] = sorted(u, key=lambda o: (len(o), ORDER.index(o[0])))[0]
    return found


def letters(u: frozenset[str]) -> frozenset[str]:
    """The mana types a unit's options are made of."""
    found = _LETTERS.get(u)
    if found is None:
        found = _LETTERS[u] = frozenset(ch for o in u for ch in o)
    return found


# A unit's options -> its first option, its letters, its solver unit (snow or not): kept, as the
# few units there are (sets of options among WUBRGC and CC) recur at every activation.
_FIRST: dict[frozenset[str], str] = {}
_LETTERS: dict[frozenset[str], frozenset[str]] = {}
_UNITS: dict[tuple[frozenset[str], bool], Unit] = {}


def solver_unit(u: frozenset[str], snow: bool = False) -> Unit:
    """The unit the mana layer's solver sees for a unit's options (107.4h: `snow` from a snow
    source); one shared frozen value per kind."""
    found = _UNITS.get((u, snow))
    if found is None:
        found = _UNITS[(u, snow)] = Unit(frozenset(ManaType(t) for t in letters(u)), snow)
    return found


def base_units(state: State, obj: Obj, ab: Ability, visiting: frozenset[str]) -> list[frozenset[str]]:
    """The mana the ability would add before replacement effects (each unit: its options)."""
    p = ab.add if isinstance(ab, ManaAbility) else None
    if isinstance(p, str):
        return _mana_text_units(p)
    if isinstance(p, ProduceOneOf):
        return [frozenset(p.one_of)]
    if isinstance(p, ProduceCouldProduce):
        types: set[str] = set()
        for other in state.battlefield():
            if other.id in visiting:          # 106.7: a loop adds no type
                continue
            if not chars(state, other).is_("Land"):
                continue
            mine = other.controller == obj.controller
            if (p.could_produce.lands == "you") != mine:
                continue
            types |= could_produce(state, other, visiting | {obj.id})
        if p.could_produce.colors_only:
            types -= {"C"}
        return [frozenset(types)] if types else []          # 106.5 / 106.7
    if isinstance(p, ProducePower):
        power = chars(state, obj).power or 0
        return [frozenset(p.type or "C")] * max(0, power)   # 107.1b: negative is zero
    return []


def _applicable(state: State, obj: Obj, kind: type[Ability]) -> list[tuple[Obj, Ability]]:
    """The permanents' abilities of one kind (mana replacements, mana triggers) that look at
    `obj` being tapped for mana: whose permanents they watch, and which ones (106.12)."""
    out = []
    watching = state.watching_abilities(kind)
    if not watching:
        return out
    c = chars(state, obj)
    for src, ab in watching:
        if ab.whose in (None, "you") and obj.controller != src.controller:
            continue
        if matches(c, obj, ab.permanents, src.controller, src.id):
            out.append((src, ab))
    return out


def _replacements(state: State, obj: Obj) -> list[tuple[Obj, Ability]]:
    return _applicable(state, obj, ManaReplacement)


def apply_replacements(state: State, obj: Obj, ab: Ability, units: list[frozenset[str]],
                       trace: Trace | None = None, order: Sequence[str] | None = None) -> list[frozenset[str]]:
    """106.12b: replacements on a tapped-for-mana event. `order` (616.1, 616.1e-f): the sources
    of the applicable replacements in the order the player applies them, each named once; a
    name that is not one of them, or one left out, is invalid_mana_choice. Without it the
    type-setting ones apply before the multiplying ones (the order that gives the most mana)."""
    reps = _replacements(state, obj) if ab.cost.tap else []
    if order is not None:
        applicable = {src.id for src, _ in reps}
        if len(set(order)) != len(order) or set(order) != applicable:
            raise Illegal(Reason.INVALID_MANA_CHOICE,
                          f"replacement order {list(order)}: the replacement effects that apply to tapping {obj.id} for "
                          f"mana come from {sorted(applicable) or 'nothing'}; each is named once", rules=("616.1",))
        if not units:
            return units
        for oid in order:
            for src, rep in reps:
                if src.id != oid:
                    continue
                if rep.produce:
                    units = _mana_text_units(rep.produce)
                if (rep.multiply or 1) > 1:
                    units = [u for u in units for _ in range(rep.multiply)]
                if trace:
                    trace.add("616.1", f"{src.base.name} ({src.id}) applies now: "
                                       + "".join("{%s}" % "/".join(sorted(u)) for u in units))
        return units
    if not units or not ab.cost.tap:
        return units
    for src, rep in reps:
        if rep.produce:
            units = _mana_text_units(rep.produce)
            if trace:
                trace.add("106.12b", f"{src.base.name} ({src.id}) replaces the mana: {rep.produce}")
    for src, rep in reps:
        if (rep.multiply or 1) > 1:
            units = [u for u in units for _ in range(rep.multiply)]
            if trace:
                trace.add("106.12b", f"{src.base.name} ({src.id}) multiplies the mana by {rep.multiply}")
    return units


def could_produce(state: State, obj: Obj, visiting: frozenset[str] = frozenset()) -> frozenset[str]:
    """106.7: every type any mana ability of `obj` would add now (costs ignored)."""
    if obj.id in visiting:
        return frozenset()
    out: set[str] = set()
    for ab in chars(state, obj).mana_abilities():
        units = rules().mana_ability_units(state, obj, ab, visiting | {obj.id})
        units = apply_replacements(state, obj, ab, units)
        for u in units:
            out |= letters(u)
    return frozenset(out)


def _tap_triggers(state: State, obj: Obj, ab: Ability, produced: Sequence[str]):
    """106.12a: abilities that trigger on this tapped-for-mana event (it produced mana, of the
    named type if one is named)."""
    if not ab.cost.tap or not produced:
        return
    for src, t in _applicable(state, obj, ManaTrigger):
        wanted = watched_type(state, src, t)
        if t.produced and wanted not in produced:
            continue
        yield src, t


def watched_type(state: State, src: Obj, t: ManaTrigger) -> str | None:
    """The type of mana the trigger watches for: its own, or the colour chosen for its source as
    it entered (`chosen`, Caged Sun; none chosen: it watches for nothing)."""
    if t.produced != "chosen":
        return t.produced
    return state.choices.get(src.id, {}).get("color")


def is_mana_trigger(t: ManaTrigger) -> bool:
    """605.1b: it adds mana and has no target; otherwise it uses the stack (605.5a)."""
    if t.add:
        return True
    return bool(t.effect) and all(isinstance(e, AddMana) and (e.player in (None, "you", "tapper"))
                                  for e in t.effect)


def _triggers(state: State, obj: Obj, ab: Ability, produced: Sequence[str],
              fired: Sequence[tuple[Obj, ManaTrigger]] | None = None) -> list[tuple[str, str, str]]:
    """Mana added by triggered mana abilities: (player, type, source name). `fired`: the
    abilities `_tap_triggers` gives, when the caller has them already."""
    out = []
    for src, t in (_tap_triggers(state, obj, ab, produced) if fired is None else fired):
        if not is_mana_trigger(t):
            continue
        default_to = t.to or ("tapper" if t.add else "you")
        if t.add == "same":
            out.append((obj.controller if default_to == "tapper" else src.controller,
                        watched_type(state, src, t) or produced[0], src.base.name))
            continue
        texts = [t.add] if t.add else [e.mana for e in t.effect]
        for e_text, e in zip(texts, t.effect or [None] * len(texts)):
            to = (e.player if e is not None and e.player else default_to)
            who = obj.controller if to == "tapper" else src.controller
            for u in _mana_text_units(e_text or ""):
                out.append((who, _first(u)[0], src.base.name))
    return out


def _stack_triggers(fired: Sequence[tuple[Obj, ManaTrigger]], tapper: str) -> list[tuple[str, Ability, str]]:
    """Non-mana abilities triggered by tapping for mana: they wait for the stack (603.3), knowing
    who tapped (their "that player", 106.12a)."""
    return [(src.id, t, tapper) for src, t in fired if not is_mana_trigger(t)]


def find_mana_ability(state: State, player: str, oid: str, index: int) -> tuple[Obj, Ability]:
    obj = state.objects.get(oid)
    if obj is None or obj.zone != "battlefield" or obj.kind is not CARD:
        raise Illegal(Reason.MANA_ABILITY_UNAVAILABLE, f"{oid} is not a permanent on the battlefield", rules=("605.3a",))
    if obj.controller != player:
        raise Illegal(Reason.MANA_ABILITY_UNAVAILABLE, f"{player} does not control {oid}", rules=("602.2",))
    abilities = chars(state, obj).mana_abilities()
    if not 0 <= index < len(abilities):
        raise Illegal(Reason.MANA_ABILITY_UNAVAILABLE, f"{oid} has no mana ability #{index}", rules=("605.1a",))
    return obj, abilities[index]


def _as_last_on_battlefield(state: State, before: State, oid: str) -> State:
    """The game to judge a mana ability's production in: as it is, but a source sacrificed to
    pay the cost is seen as it last existed on the battlefield (608.2h, 113.7a: its power, its
    counters; whether it is tapped changes no production)."""
    if state.obj(oid).zone == "battlefield":
        return state
    return state.with_obj(before.obj(oid))


def activate(state: State, player: str, oid: str, index: int, produce: str | None, trace: Trace,
             chooser: Callable[[frozenset[str]], str] | None = None,
             sacrifice: Sequence[str] | None = None, order: Sequence[str] | None = None) -> State:
    """Activate a mana ability and resolve it at once (605.3b); raise Illegal if it can't be.
    Its costs are paid by the one payer (oracle.payer); `sacrifice`: the permanents a sacrifice
    cost sacrifices (the player's choice; default the first fitting one in setup order)."""
    obj, ab = find_mana_ability(state, player, oid, index)
    if sacrifice is not None and ab.cost.sacrifice_filter is None:
        raise Illegal(Reason.MANA_ABILITY_COST_UNPAYABLE,
                      f"{oid}'s ability has no sacrifice cost; {', '.join(sacrifice)} named", rules=("602.2b",))
    before = state
    mana = resolve_choices(ManaCost.parse(ab.cost.mana), None) if ab.cost.mana else None
    state = pay_costs(state, ability_cost_parts(ab.cost, oid, mana, sacrifice=sacrifice),
                      make(CostContext, player=player, paying=_MANA_ABILITY, source=oid), trace)
    # the ability resolves at once (605.3b): production is judged now, costs already paid
    judged = _as_last_on_battlefield(state, before, oid)
    source = judged.obj(oid)
    units = rules().mana_ability_units(judged, source, ab, frozenset())
    units = apply_replacements(judged, source, ab, units, trace, order)
    produced = produced_kinds(oid, units, produce, chooser)
    if not units:
        trace.add(("106.5", "106.7"), f"{obj.base.name} ({oid}) adds no mana: no type can be defined")
    pl = state.player(player)
    state = state.with_player(produce_into(pl, source, ab, produced, is_snow(judged, source), trace))
    if produced:
        trace.add("605.3b", f"{obj.base.name} ({oid}) adds {{{'}{'.join(produced)}}}")
    fired = list(_tap_triggers(before, obj, ab, produced))
    if not fired:
        return state
    for who, kind, name in _triggers(before, obj, ab, produced, fired):
        q = state.player(who)
        state = state.with_player(replace(q, pool=q.pool.add(ManaType(kind))))
        trace.add(("106.12a", "605.4a"), f"{name} triggers: {who} adds {{{kind}}}")
    waiting = _stack_triggers(fired, player)
    if waiting:
        state = replace(state, pending=state.pending + tuple(waiting))
        for sid, _, _ in waiting:
            trace.add(("106.12a", "603.3"), f"{before.obj(sid).base.name} ({sid}) triggers; it waits to be put on the stack")
    return state


def produced_kinds(oid: str, units: Sequence[frozenset[str]], produce: str | None,
                   chooser: Callable[[frozenset[str]], str] | None) -> list[str]:
    """The type letter of each mana the units make: `produce` (the player's choice, which each
    unit must offer), else the chooser's for a unit with options, else the unit's first."""
    produced: list[str] = []
    for u in units:
        if produce is not None and (produce in u or produce * 2 in u):
            kind = produce if produce in u else produce * 2
        elif produce is not None:
            raise Illegal(Reason.INVALID_MANA_CHOICE, f"{oid} can't produce {{{produce}}} (its options: "
                          + ", ".join("".join("{%s}" % t for t in o) for o in sorted(u)) + ")")
        elif chooser is not None and len(u) > 1:
            kind = chooser(letters(u))
            kind = kind if kind in u else kind * 2
        else:
            kind = _first(u)
        produced.extend(kind)
    return produced


def produce_into(pl: Player, obj: Obj, ab: Ability, produced: Sequence[str], snow: bool, trace: Trace) -> Player:
    """The mana made goes to the player: apart, with its restriction (106.6, 106.6a: all of it,
    replacements included), or into the pool, as snow mana when the source is snow (`snow`, 107.4h)."""
    restriction = restriction_of(ab)
    if restriction is not None:
        entries = tuple((kind, restriction, obj.controller, obj.id) for kind in produced)
        if produced:
            trace.add("106.6", f"the mana from {obj.id} may be spent only as its ability allows")
        return replace(pl, restricted=pl.restricted + entries)
    pool = pl.pool
    for kind in produced:
        pool = pool.add(kind, snow=snow)        # a type letter (ValueError for any other, as ManaType(kind))
    if produced and snow:
        trace.add("107.4h", f"{obj.id} is a snow permanent: its mana is snow mana, of its own type")
    return replace(pl, pool=pool)


def is_snow(state: State, obj: Obj) -> bool:
    """Is the permanent a snow source (107.4h: mana it produces can pay {S})?"""
    return "Snow" in chars(state, obj).supertypes


def free_tap_abilities(state: State, obj: Obj) -> list[tuple[int, Ability]]:
    """The mana abilities paid by {T} alone, in order, if the permanent can pay {T} now."""
    found = [(i, ab) for i, ab in enumerate(chars(state, obj).mana_abilities())
             if ab.cost.tap and not ab.cost.untap and not ab.cost.mana and not ab.cost.life
             and not ab.cost.sacrifices_self and ab.cost.sacrifice_filter is None]
    ctx = CostContext(obj.controller, _MANA_ABILITY, obj.id)
    return found if found and can_pay(state, (TapPart(obj.id),), ctx) else []


def supplies(state: State, player: str, exclude: frozenset[str] = frozenset(),
             spell: Purpose = None) -> list[tuple[Supply, int]]:
    """Activations the engine may make with pay=auto: {T}-only mana abilities of untapped
    permanents the player controls, with their replacement and trigger mana. A source whose
    mana carries a spending restriction (106.6) counts only if `spell` may receive it: the
    solver then sees only mana that can pay, and stays exact. A permanent with several such
    abilities gives one entry for each, under its one key, in its abilities' order: only one
    of them can be activated (the {T}), which the caller settles (payment.auto_activate)."""
    out = []
    for obj in state.battlefield():
        if obj.controller != player or obj.id in exclude or obj.kind is not CARD:
            continue
        for index, ab in free_tap_abilities(state, obj):
            r = restriction_of(ab)
            if r is not None and not allowed(state, spell, r, obj.controller, obj.id):
                continue
            units = apply_replacements(state, obj, ab, rules().mana_ability_units(state, obj, ab, frozenset()))
            extra = [frozenset(k) for who, k, _ in _triggers(state, obj, ab, [_first(u)[0] for u in units])
                     if who == player]
            snow = is_snow(state, obj)
            all_units = tuple(solver_unit(u, snow) for u in units) + tuple(solver_unit(u) for u in extra)
            if all_units:
                out.append((Supply(obj.id, all_units), index))
    return out
