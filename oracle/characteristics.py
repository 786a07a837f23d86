"""Current characteristics of an object, derived from the state (a small layer system, 613).

Order of application: copiable values (707.2, with prototype values on the stack and
battlefield, 718.3b-d) -> colour from the mana cost or colour indicator (105.2, 202.2) ->
type-adding effects (a Mutavault becoming a creature) -> creature-type effects: changeling
first as a characteristic-defining ability (702.73a, 613.3), then Conspiracy / Arcane
Adaptation / Maskwood Nexus / test actions in timestamp order -> power and toughness
(counters, pumps) -> granted keywords.
"""
from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Literal

from castrules.model.abilities import (ActivatedAbility, Ability, AddColor, DefinePT, GrantAbility, KeywordGrant, ManaAbility,
                                       PumpPer, StaticAbility, TypeChange)
from castrules.model.effects import Animate, BecomeColor, Pump, SetBasePT
from castrules.model.parts import Filter
from castrules.model.steps import ChangeTypes

from .chars_value import Chars, new_chars, shared_store
from .costs import ManaCost, colors_of, parse_cost
from .power_layers import animate_all, defined_pt
from .seams import rules
from .state import CARD, NOTHING_ANNOUNCED, PLAIN_FACE, Awakened, Obj, State

OFF_BATTLEFIELD_CARD_ZONES = frozenset({"hand", "graveyard", "library", "exile", "command"})


def prototype_active(obj: Obj) -> bool:
    """718.3b/718.4: prototype values exist only on the stack or battlefield, when cast
    prototyped (or a copy of such an object, 718.3c-d)."""
    return obj.prototyped and obj.zone in ("stack", "battlefield") and obj.base.prototype is not None


def chars(state: State, obj: Obj) -> Chars:
    """The object's characteristics, computed once for as long as what they depend on stays:
    the object's fields that characteristics read (all but its statuses, damage and combat:
    NOT_READ), the timed effects, the choices and the permanents with watching abilities
    (``Objects.sources``; a state's own objects when it has no such token), each compared by
    identity (all are frozen) in the cache the states of one run share, so tapping a land for
    mana keeps its entry. An object whose own abilities read more of the game (READS_THE_GAME:
    Tarmogoyf counts graveyards) is kept for its state only. In a state with no timed effect
    and no watching ability, objects alike in every field read but their ids (10,000 Forests)
    share one computation: then nothing but the object itself can reach its characteristics."""
    key = (obj.id, obj.zone, obj.incarnation)
    objects, effects, choices = state.objects, state.effects, state.choices
    sources = getattr(objects, "sources", objects)
    hit = state.chars_cache.get(key)
    if hit is not None and hit[1] is effects and hit[2] is choices and hit[3] is sources:
        if hit[0] is obj:
            return hit[4]
        if _read_fields(hit[0]) == _read_fields(obj):
            state.chars_cache[key] = (obj, effects, choices, sources, hit[4])
            return hit[4]
    hit = state._cache.get(key)
    if hit is not None and hit[0] is obj:
        return hit[1]
    for ab in obj.base.abilities:       # a loop, not any(generator): chars runs ~35 times a case
        if isinstance(ab, READS_THE_GAME):
            break
    else:
        ab = None
    if ab is not None:
        value = rules().characteristics(state, obj)
        state._cache[key] = (obj, value)
        return value
    table = rules()
    like = shared = None
    if not effects and state.watches_nothing():
        # nothing from outside reaches the object: like objects (the same card, zone, counters...,
        # whatever their ids) have the same characteristics, computed once (10,000 Forests), and
        # so do they in any other game run by the same rules (the suite's cases share their cards)
        # the shared plain face and empty announcements as None (neither is ever None): hashing
        # them field by field was most of the key's cost; an equal value that is not the shared
        # one only keys apart from it (a miss, never a wrong hit)
        face, announced = obj.face, obj.announced
        like = (id(obj.card), id(obj.copy_of), id(obj.stack_ability), None if face is PLAIN_FACE else face,
                obj.zone, obj.kind, obj.owner, obj.controller, obj.token, obj.counters, obj.prototyped,
                None if announced is NOTHING_ANNOUNCED else announced)
        hit = state.chars_cache.get(like)
        if hit is None:
            shared = shared_store(table)
            hit = shared.get(like)
        if hit is not None:
            state.chars_cache[key] = (obj, effects, choices, sources, hit[1])
            return hit[1]
    value = table.characteristics(state, obj)
    state.chars_cache[key] = (obj, effects, choices, sources, value)
    if like is not None:
        state.chars_cache[like] = (obj, value)     # obj keeps the objects whose ids are in the key alive
        if shared is not None:
            shared[like] = (obj, value)
    return value


# An object's fields that no characteristic depends on: its statuses (110.5: tapped; a
# creature's summoning sickness, 302.6), damage marked on it (120.3) and its part in combat.
# compute_characteristics (and any variant of it) reads none of them, so a change of only these
# keeps the cached characteristics; a field it starts to read must leave this set.
NOT_READ = frozenset({"tapped", "summoning_sick", "damage", "deathtouched", "combat"})
_read_fields = attrgetter(*(f.name for f in fields(Obj) if f.name not in NOT_READ))


# Abilities of an object whose characteristics read the game beyond what ``chars`` keys on
READS_THE_GAME: tuple[type[Ability], ...] = (DefinePT, PumpPer, StaticAbility)   # static: abilities_of


def compute_characteristics(state: State, obj: Obj, count_others: bool = True) -> Chars:
    """Reads the object, ``state.effects``, ``state.choices`` and ``state.watching_abilities``,
    and more only for an object with an ability of READS_THE_GAME: ``chars`` keeps the result
    while those stay (an ability that reads anything else goes in READS_THE_GAME). Without
    ``count_others`` pump_per is left out: two such abilities never read each other."""
    base = obj.base
    proto = base.prototype if prototype_active(obj) else None
    cost_text = proto.mana_cost if proto else base.mana_cost
    if obj.kind is not CARD:
        cost_text = None
    mana_cost = parse_cost(cost_text)
    # 105.2 / 202.2: colour from the mana cost; a colour indicator defines it instead (202.2e)
    colors = tuple(base.color_indicator) if base.color_indicator is not None else colors_of(mana_cost)
    types = list(base.types)
    power = proto.power if proto else base.power
    toughness = proto.toughness if proto else base.toughness
    if obj.kind is CARD and not proto:
        power, toughness = defined_pt(state, base.abilities, power, toughness)
    timed = [e for e in state.effects if e.obj == obj.id and e.incarnation == obj.incarnation]
    colors = _colour_layer(state, obj, colors, timed)
    setters: list[tuple[int, int, int]] = []       # layer 7b (613.4b): (timestamp, power, toughness)
    for e in timed:
        if isinstance(e.does, Animate):
            for t in e.does.types or ("Creature",):
                if t not in types:
                    types.append(t)
            if e.does.power is not None:
                setters.append((e.timestamp, e.does.power, e.does.toughness))
        elif isinstance(e.does, SetBasePT):           # 208.4a
            setters.append((e.timestamp, e.does.power, e.does.toughness))
        elif isinstance(e.does, Awakened):            # 702.113a: a 0/0 creature that is still a land
            types += [] if "Creature" in types else ["Creature"]
            setters.append((e.timestamp, 0, 0))
    if obj.zone == "battlefield" and "Creature" not in types:     # what animate_all can animate
        setters += animate_all(state, obj, types, rules().cost_mana_value(mana_cost) if mana_cost else 0)
    if setters:
        _, power, toughness = max(setters)          # the latest timestamp wins (613.7)
    printed = base.creature_types
    ctypes = set(printed)
    other_sub = tuple(s for s in base.subtypes if s not in printed) if printed else tuple(base.subtypes)
    all_ct = "changeling" in base.keywords                      # 702.73a, a CDA: applies first
    # creature-type changing effects in timestamp order (613.7)
    changes: list[tuple[int, str, str | None, bool]] = []      # (ts, mode, type, all)
    for e in timed:
        if isinstance(e.does, ChangeTypes):
            mode = e.does.mode                          # a TypeChangeMode: equal to its spelling
            for t in (e.does.creature_types or (None,)):
                changes.append((e.timestamp, mode, t, False))
            if mode == "set" and not e.does.creature_types:
                changes.append((e.timestamp, "remove_all", None, False))
        elif isinstance(e.does, Animate) and e.does.all_creature_types:
            changes.append((e.timestamp, "all", None, True))
        elif isinstance(e.does, Awakened):
            changes.append((e.timestamp, "add", "Elemental", False))
    is_creature = "Creature" in types
    if obj.kind is CARD:
        for src, ab in state.watching_abilities(TypeChange):
            if not _in_conspiracy_reach(obj, is_creature, src.controller):
                continue
            chosen = ab.creature_type
            if chosen == "chosen" or chosen is None:
                chosen = state.choices.get(src.id, {}).get("creature_type")
            if ab.mode == "all":
                changes.append((src.timestamp, "all", None, True))
            elif chosen:
                changes.append((src.timestamp, ab.mode or "set", chosen, False))
    changes.sort(key=lambda c: c[0])
    set_done: set[int] = set()
    for ts, mode, t, _ in changes:
        if mode == "all":
            all_ct = True
        elif mode == "remove_all":
            ctypes, all_ct = set(), False
        elif mode == "set":
            if ts not in set_done:                 # one "set" effect may name several types
                ctypes, all_ct = set(), False
                set_done.add(ts)
            if t:
                ctypes.add(t)
        elif mode == "add" and t:
            ctypes.add(t)
    if "Creature" not in types and "Kindred" not in types:    # 205.3d
        ctypes, all_ct = set(), False
    keywords = set(base.keywords)
    if obj.zone == "battlefield" and obj.announced.alt_cost == "dash":
        keywords.add("haste")                       # 702.109a: while its dash cost was paid
    if any(isinstance(e.does, Awakened) for e in timed):
        keywords.add("haste")                       # 702.113a
    if "Creature" in types:
        if power is None:
            power, toughness = 0, 0                 # 208.5
        base_power = power                          # 208.4b: set values, before 613.4c
        for name, n in obj.counters:
            if name == "+1/+1":
                power += n
                toughness += n
            elif name == "-1/-1":
                power -= n
                toughness -= n
        for e in timed:
            if isinstance(e.does, Pump):
                power += e.does.power or 0
                toughness += e.does.toughness or 0
        dp, dt = _pump_per(state, obj, base.abilities) if count_others else (0, 0)
        power, toughness = power + dp, toughness + dt
    elif obj.zone == "battlefield" or obj.kind is not CARD:
        power = toughness = None                    # 208.3
    result = new_chars(name=base.name, mana_cost=mana_cost, colors=colors,
                       supertypes=tuple(base.supertypes), types=tuple(types), other_subtypes=other_sub,
                       creature_types=frozenset(ctypes), all_creature_types=all_ct, power=power,
                       toughness=toughness, keywords=frozenset(keywords), abilities=base.abilities,
                       base=base, base_power=base_power if "Creature" in types else None)
    if obj.zone == "battlefield":
        granted = _granted_keywords(state, obj, result)
        if granted:
            result = Chars(**{**result.__dict__, "keywords": result.keywords | granted})
        gained = _granted_abilities(state, obj, result) + _borrowed_abilities(state, obj)
        if gained:
            result = Chars(**{**result.__dict__, "abilities": result.abilities + gained})
    return result


def _pump_per(state: State, obj: Obj, abilities: tuple[Ability, ...]) -> tuple[int, int]:
    """pump_per (layer 7c, 613.4c): so much for each other permanent matching the filter (base
    power among what it reads, 208.4b), seen from the source's controller."""
    dp = dt = 0
    for ab in abilities:
        if isinstance(ab, PumpPer) and obj.zone == "battlefield":
            n = sum(1 for o in state.in_zone("battlefield") if o.id != obj.id and matches(
                compute_characteristics(state, o, count_others=False), o, ab.permanents, obj.controller, obj.id))
            dp, dt = dp + n * ab.power, dt + n * ab.toughness
    return dp, dt


WUBRG = "WUBRG"


def _colour_layer(state: State, obj: Obj, colors: tuple[str, ...], timed: list) -> tuple[str, ...]:
    """Layer 5 (613.1e): colour-changing effects in timestamp order (613.7). An effect that gives
    new colours replaces the old ones; one that adds a colour "in addition" keeps them (105.3).
    Abilities on the stack have no colour to change."""
    if obj.kind is not CARD:
        return colors
    changes: list[tuple[int, bool, tuple[str, ...]]] = []       # (timestamp, replaces, colours)
    for e in timed:
        if isinstance(e.does, BecomeColor):
            changes.append((e.timestamp, True, tuple(e.does.colors)))
    for src, ab in state.watching_abilities(AddColor):
        colour = ab.color if ab.color != "chosen" else state.choices.get(src.id, {}).get("color")
        if colour:
            changes.append((src.timestamp, False, (colour,)))
    if not changes:
        return colors
    out = set(colors)
    for _, replaces, new in sorted(changes, key=lambda c: c[0]):
        out = set(new) if replaces else out | set(new)
    return tuple(c for c in WUBRG if c in out)


def _granted_abilities(state: State, obj: Obj, c: Chars) -> tuple[Ability, ...]:
    """grant_ability: permanents matching the filter have the granted activated ability, after
    their own, in the granting sources' timestamp order. Its X is its own (107.3j)."""
    out: list[Ability] = []
    for src, ab in sorted(state.watching_abilities(GrantAbility), key=lambda pair: pair[0].timestamp):
        if ab.whose in (None, "you") and obj.controller != src.controller:
            continue
        if matches(c, obj, ab.permanents, src.controller, src.id):
            out.append(ab.ability)
    return tuple(out)


def _borrowed_abilities(state: State, obj: Obj) -> tuple[Ability, ...]:
    """A static `abilities_of` (Manascape Refractor): the permanent has every activated ability,
    mana abilities included, printed on each other permanent matching the filter, in timestamp
    order (abilities those permanents gain from elsewhere are not borrowed: no case has one)."""
    out: list[Ability] = []
    for ab in _abilities_of(obj):
        if not isinstance(ab, StaticAbility) or ab.abilities_of is None:
            continue
        for o in sorted(state.in_zone("battlefield"), key=lambda p: p.timestamp):
            if o.id != obj.id and o.kind is CARD and matches(
                    compute_characteristics(state, o, count_others=False), o, ab.abilities_of, obj.controller, obj.id):
                out.extend(a for a in o.base.abilities if isinstance(a, (ManaAbility, ActivatedAbility)))
    return tuple(out)


def _abilities_of(obj: Obj) -> tuple[Ability, ...]:
    return obj.base.abilities if obj.kind is CARD else ()


def _in_conspiracy_reach(obj: Obj, is_creature: bool, who: str) -> bool:
    """Creatures you control, creature spells you control, creature cards you own elsewhere."""
    if not is_creature:
        return False
    if obj.zone in ("battlefield", "stack"):
        return obj.controller == who
    return obj.zone in OFF_BATTLEFIELD_CARD_ZONES and obj.owner == who


def _granted_keywords(state: State, obj: Obj, c: Chars) -> frozenset[str]:
    out: set[str] = set()
    for src, ab in state.watching_abilities(KeywordGrant):
        if ab.keyword:
            if ab.whose in (None, "you") and obj.controller != src.controller:
                continue
            if matches(c, obj, ab.permanents, src.controller, src.id):
                out.add(ab.keyword.lower())
    return frozenset(out)


def cost_mana_value(cost: ManaCost, x: int | None = None, y: int | None = None, z: int | None = None) -> int:
    """202.3: the mana value of a mana cost, each {X}, {Y}, {Z} counting the value given."""
    return cost.mana_value(x, y=y, z=z)


def mana_value(c: Chars, obj: Obj) -> int:
    """202.3: on the stack each {X}, {Y}, {Z} counts its announced value (202.3e, 107.3p);
    elsewhere they count 0 (107.3g). No mana cost: 0 (202.3a), except a transformed permanent's
    back face (202.3b) and a melded permanent (202.3c). A split card's mana cost is its halves'
    combined, or on the stack the cast half's (202.3d): see Obj.base."""
    if obj.kind is CARD and obj.copy_of is None and obj.face.melded_with is not None:
        # 202.3c: the combined mana costs of the front faces of both cards representing it
        return sum(rules().cost_mana_value(parse_cost(card.mana_cost)) for card in (obj.card, obj.face.melded_with)
                   if card.mana_cost is not None)
    dfc = obj.copy_of or obj.card
    if obj.face.transformed and dfc.back_face is not None and (obj.copy_of is None or obj.token):
        # 202.3b: the back face counts the front face's mana cost, a transforming token copy's too (707.8a)
        front = parse_cost(dfc.mana_cost)
        return rules().cost_mana_value(front) if front is not None else 0
    # a copy of a back face or of a melded permanent has the copied face's (absent) mana cost: 0
    if c.mana_cost is None:
        return 0
    if obj.zone != "stack":
        return rules().cost_mana_value(c.mana_cost)
    return rules().cost_mana_value(c.mana_cost, obj.announced.x, obj.announced.y, obj.announced.z)


def matches(c: Chars, obj: Obj, flt: Filter | Literal["self"] | None, source_controller: str | None,
            source_id: str | None = None) -> bool:
    """Does an object with characteristics `c` pass `flt` (seen from a source's controller)?
    No filter matches every object; "self" only the source itself."""
    if flt is None:
        return True
    if type(flt) is not Filter and flt == "self":    # a Filter never equals it (no Python-level __eq__ call)
        return obj.id == source_id
    if any(t not in c.types for t in flt.all_types):
        return False
    if flt.types_any and not any(t in c.types for t in flt.types_any):
        return False
    if flt.any_of and not any(matches(c, obj, f, source_controller, source_id) for f in flt.any_of):
        return False
    if any(t in c.types for t in flt.not_types):
        return False
    if flt.colors and not any(col in c.colors for col in flt.colors):
        return False
    if any(col in c.colors for col in flt.not_colors):
        return False
    if flt.multicolored and len(c.colors) < 2:
        return False                        # 105.2b
    subtypes = flt.all_subtypes
    if subtypes and not any(c.has_creature_type(s) or s in c.other_subtypes for s in subtypes):
        return False
    if any(s not in c.supertypes for s in flt.supertypes):
        return False
    if any(s in c.supertypes for s in flt.not_supertypes):
        return False
    if flt.mana_value in ("even", "odd"):
        mv = mana_value(c, obj)
        if (mv % 2 == 0) != (flt.mana_value == "even"):
            return False
    if flt.mana_value_min is not None or flt.mana_value_max is not None:
        mv = mana_value(c, obj)
        if flt.mana_value_min is not None and mv < flt.mana_value_min:
            return False
        if flt.mana_value_max is not None and mv > flt.mana_value_max:
            return False
    for value, low, high in ((c.power, flt.power_min, flt.power_max), (c.toughness, flt.toughness_min, flt.toughness_max)):
        if low is None and high is None:
            continue
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            return False                    # 208.3: an object with no power has none to compare
    if flt.base_power is not None and c.base_power != flt.base_power:
        return False                        # 208.4b: base power, counters and pumps left out
    if flt.controller == "you" and obj.controller != source_controller:
        return False
    if flt.controller == "opponent" and obj.controller == source_controller:
        return False
    return True
