"""601.2f: the total cost, then lock-in.

Start from the mana cost, the prototype mana cost (718.3b: it IS the mana cost) or an
alternative cost (118.9; 118.9d: modifiers apply to it), add additional costs (kicker) and
increases, subtract reductions in the player's order (the order giving the least total when
the player does not say), never below {0} (601.2f, 118.7), then apply the effects on the total:
an invented one setting its mana (Test Fixed Toll), then floors such as Trinisphere's, counting
mana only, once X is fixed. The result is locked in.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import Sequence

from castrules.model.abilities import Ability, CostFloor, CostModifier, CostSet

from .characteristics import Chars, chars, mana_value
from .costs import ConcreteCost, ManaCost, concrete_text, reduce, resolve_choices
from .seams import rules
from .state import CARD, Obj, State
from .trace import Trace


@dataclass(frozen=True)
class Modifier:
    """One cost modifier that applies to the spell being cast, with its source (601.2f)."""

    source: str
    source_name: str


@dataclass(frozen=True)
class Increase(Modifier):
    """The cost goes up by `amount`, `times` times (added first, 601.2f); `per`: what `times`
    counted, for the trace."""

    amount: ManaCost
    times: int = 1
    per: str | None = None


@dataclass(frozen=True)
class Reduction(Modifier):
    """The cost goes down by `amount`, `times` times (118.7, in the player's order); `per`:
    what `times` counted (or "emerge"), for the trace."""

    amount: ManaCost
    times: int = 1
    per: str | None = None
    only_coloured: bool = False


@dataclass(frozen=True)
class Floor(Modifier):
    """The total is at least `minimum` mana (Trinisphere), once everything else applied."""

    minimum: int


@dataclass(frozen=True)
class SetTotal(Modifier):
    """The total's mana becomes `cost` once increases and reductions applied (an invented
    effect on the total, 601.2f), before floors."""

    cost: str


# The counts whose trace says what was counted (the older `per` values keep their notes), and
# the rules each rests on beyond 601.2f.
COUNTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "attacking_creatures_you_control": ("attacking creature(s) its caster controls", ()),
    "creatures": ("creature(s) on the battlefield", ()),
    "opponents": ("opponent(s) still in the game", ("702.125a", "702.125b")),
    "instant_and_sorcery_spells_you_cast_this_turn": ("instant and sorcery spell(s) its caster cast this turn", ()),
    "total_power_of_creatures_you_control": ("total power of its caster's creatures", ("107.1b",)),
    "greatest_power_among_creatures_you_control": ("greatest power among its caster's creatures", ()),
}
EMERGE_RULES = ("702.119a", "702.119c")


def _creatures(state: State, player: str | None) -> list[Chars]:
    """The characteristics of the creatures on the battlefield (of `player`, or everyone's)."""
    out = []
    for o in state.battlefield():
        if player is None or o.controller == player:
            c = chars(state, o)
            if c.is_creature:
                out.append(c)
    return out


def modifier_count(state: State, per: str | None, player: str) -> int:
    """How many times a "for each" modifier applies, counted now, as the total is determined
    (601.2f): the count is not looked at again once the total is locked. A negative count
    (a total power below 0) is 0 (107.1b)."""
    if per is None:
        return 1
    if per == "artifacts_you_control":
        return sum(1 for o in state.battlefield() if o.controller == player and chars(state, o).is_("Artifact"))
    if per == "creatures_you_control":
        return len(_creatures(state, player))
    if per == "creatures":
        return len(_creatures(state, None))
    if per == "attacking_creatures_you_control":
        return sum(1 for o in state.battlefield() if o.controller == player and o.combat.attacking is not None
                   and chars(state, o).is_creature)
    if per == "opponents":
        return len(state.opponents(player))
    if per == "instant_and_sorcery_spells_you_cast_this_turn":
        return sum(1 for r in state.cast_log if r.player == player and r.types & {"Instant", "Sorcery"})
    powers = [c.power or 0 for c in _creatures(state, player)]
    if per == "total_power_of_creatures_you_control":
        return max(0, sum(powers))
    if per == "greatest_power_among_creatures_you_control":
        return max([0, *powers])
    return 0


def modifier_applies(ab: Ability, src: Obj, spell: Obj, c: Chars, caster: str) -> bool:
    if ab.while_ == "untapped" and src.tapped:
        return False
    if ab.whose in (None, "you") and caster != src.controller:
        return False
    if ab.whose == "opponents" and caster == src.controller:
        return False
    return rules().modifier_matches(c, spell, ab.spells, src.controller, src.id)


def modifiers(state: State, spell: Obj, caster: str) -> list[Modifier]:
    """Cost modifiers that apply to `spell` as it is being cast, in object order: abilities
    of permanents and the spell's own (113.6d, e.g. affinity)."""
    c = chars(state, spell)
    out: list[Modifier] = []
    sources = [o for o in state.battlefield() if o.kind is CARD] + [spell]
    for src in sources:
        for ab in src.base.abilities:
            if isinstance(ab, CostModifier):
                if (src.id == spell.id) != (ab.spells == "self"):
                    continue
                if not rules().modifier_applies(ab, src, spell, c, caster):
                    continue
                if ab.chosen_type and not _of_chosen_type(state, src, c):
                    continue
                if not _linked_types_match(state, ab, src, c):
                    continue
                times = rules().modifier_count(state, ab.per, caster)
                if times <= 0:
                    continue
                amount = ManaCost.parse(ab.amount or "{1}")
                out.append(Increase(src.id, src.base.name, amount, times, per=ab.per) if ab.change == "increase"
                           else Reduction(src.id, src.base.name, amount, times, per=ab.per, only_coloured=ab.only_coloured))
            elif isinstance(ab, CostFloor) and src.id != spell.id and rules().modifier_applies(ab, src, spell, c, caster):
                out.append(Floor(src.id, src.base.name, ab.minimum))
            elif isinstance(ab, CostSet) and src.id != spell.id and rules().modifier_applies(ab, src, spell, c, caster):
                out.append(SetTotal(src.id, src.base.name, ab.cost))
    return out + emerge_reduction(state, spell)


def _of_chosen_type(state: State, src: Obj, c: Chars) -> bool:
    """Is the spell of the creature type chosen for `src` as it entered (Morophon)? No type
    chosen: no spell is."""
    chosen = state.choices.get(src.id, {}).get("creature_type")
    return chosen is not None and c.has_creature_type(chosen)


def _linked_types_match(state: State, ab: CostModifier, src: Obj, c: Chars) -> bool:
    """Card types a source's reduction names through its own choice or card: the card type
    chosen as it entered (Cloud Key), or those of the card it imprinted (Semblance Anvil, 607.2),
    which the spell must share. Nothing chosen, or the card no longer in exile: no spell."""
    chosen = state.choices.get(src.id, {})
    if ab.chosen_card_type and chosen.get("card_type") not in c.types:
        return False
    if ab.imprinted_types:
        card = state.objects.get(chosen.get("imprinted", ""))
        return card is not None and card.zone == "exile" and bool(set(chars(state, card).types) & set(c.types))
    return True


def emerge_reduction(state: State, spell: Obj) -> list[Modifier]:
    """702.119a: a spell cast for its emerge cost costs generic mana equal to the mana value of
    the creature chosen to be sacrificed (702.119c) less, read now, while that creature is still
    on the battlefield (601.2f); like any reduction it joins the others in the player's order."""
    chosen = spell.announced.emerge
    if spell.announced.alt_cost != "emerge" or chosen is None:
        return []
    victim = state.obj(chosen)
    value = mana_value(chars(state, victim), victim)
    return [Reduction(spell.id, f"{spell.base.name}'s emerge, sacrificing {victim.base.name} ({victim.id}) of mana "
                                f"value {value},", ManaCost.parse(f"{{{value}}}"), per="emerge")]


def _times(cost: ManaCost, n: int) -> ManaCost:
    return ManaCost(cost.symbols * n)


def _apply_reductions(cost: ConcreteCost, reds: Sequence[tuple[Reduction, str | None]]) -> ConcreteCost:
    for m, choice in reds:
        cost, _ = reduce(cost, _times(m.amount, m.times), choice, m.only_coloured)
    return cost


def _halves(m: Reduction) -> list[str | None]:
    halves = [s.halves for s in m.amount.symbols if s.halves]
    return list(halves[0]) if halves else [None]


def order_reductions(cost: ConcreteCost, reds: list[Reduction],
                     player_order: Sequence[tuple[str, str | None]]) -> list[tuple[Reduction, str | None]]:
    """The player's listed order and choices first (601.2f: any order they like), then the
    rest in the order (and hybrid choices, 118.7e) that leaves the least mana to pay."""
    chosen: list[tuple[Reduction, str | None]] = []
    remaining = list(reds)
    for source, choice in player_order:
        for m in remaining:
            if m.source == source:
                chosen.append((m, choice))
                remaining.remove(m)
                break
    if not remaining:
        return chosen
    base = _apply_reductions(cost, chosen)
    best: list[tuple[Reduction, str | None]] | None = None
    best_amount = None
    candidates = permutations(remaining) if len(remaining) <= 6 else [tuple(remaining)]
    for perm in candidates:
        options: list[list[tuple[Reduction, str | None]]] = [[]]
        for m in perm:
            options = [o + [(m, h)] for o in options for h in _halves(m)]
        for opt in options:
            amount = _apply_reductions(base, opt).mana_amount
            if best_amount is None or amount < best_amount:
                best, best_amount = opt, amount
    return chosen + (best or [])


def _counted(m: Increase | Reduction) -> str:
    """What a counted modifier counted, for its trace note ("" for the others)."""
    if m.per not in COUNTED:
        return ""
    return f" ({m.amount} for each of {m.times} {COUNTED[m.per][0]}, counted now)"


def _count_rules(m: Increase | Reduction) -> tuple[str, ...]:
    if m.per == "emerge":
        return ("601.2f", *EMERGE_RULES)
    return ("601.2f", *COUNTED[m.per][1]) if m.per in COUNTED else ()


@dataclass(frozen=True)
class TotalCost:
    cost: ConcreteCost

    @property
    def text(self) -> str:
        return concrete_text(self.cost)


def determine(state: State, spell: Obj, caster: str, start: ConcreteCost, start_label: str,
              player_order: Sequence[tuple[str, str | None]], trace: Trace) -> TotalCost:
    """Apply increases, reductions and floors to the starting cost; lock in (601.2f)."""
    cost = start
    trace.add("601.2f", f"start from {start_label}: {concrete_text(cost)}"
              + (f" and {cost.life} life" if cost.life else ""))
    mods = rules().cost_modifiers(state, spell, caster)
    for m in (m for m in mods if isinstance(m, Increase)):
        inc = _times(m.amount, m.times)
        first = [s.halves[0] for s in inc.symbols if s.halves]
        cost = cost.add(resolve_choices(inc, None, first, ["mana"] * sum(1 for s in inc.symbols if "P" in str(s))))
        trace.add(("601.2f", *_count_rules(m)), f"{m.source_name} ({m.source}) increases the cost by {inc}"
                                                f"{_counted(m)}: {concrete_text(cost)}")
    reds = [m for m in mods if isinstance(m, Reduction)]
    for m, choice in rules().order_reductions(cost, reds, player_order):
        amount = _times(m.amount, m.times)
        before = cost
        cost, rule = reduce(cost, amount, choice, m.only_coloured)
        note = f"{m.source_name} ({m.source}) reduces the cost by {amount}{_counted(m)}"
        if m.only_coloured:
            note += " (only coloured mana the cost asks for)"
        if choice:
            note += f" (half chosen: {choice})"
        if before == cost:
            note += " (nothing left to reduce)"
        trace.add((rule or "118.7", *_count_rules(m)), f"{note}: {concrete_text(cost)}")
    for m in (m for m in mods if isinstance(m, SetTotal)):
        cost = rules().cost_set(cost, m.cost)
        trace.add("601.2f", f"{m.source_name} ({m.source}) sets the mana of the total to {m.cost}, whatever it was "
                            f"(life stays): {concrete_text(cost)}")
    floors = [m for m in mods if isinstance(m, Floor)]
    if floors:
        m = max(floors, key=lambda f: f.minimum)
        before = cost
        cost, _ = rules().cost_floor(cost, m.minimum)
        if cost != before:
            trace.add("601.2f", f"{m.source_name} ({m.source}) raises the total to {m.minimum} mana "
                                f"(life does not count): {concrete_text(cost)}")
        else:
            trace.add("601.2f", f"{m.source_name} ({m.source}) applies no floor: already {before.mana_amount} mana")
    trace.add("601.2f", f"total cost locked in: {concrete_text(cost)}" + (f" and {cost.life} life" if cost.life else ""))
    return TotalCost(cost)
