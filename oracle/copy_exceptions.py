"""Copy effects with exceptions (707.9) and permanents entering as a copy (707.2).

An exception changes the copiable values the copy gets, and what results is itself copiable
(707.9b): a copy of a Phyrexian Metamorph that copies a creature is an artifact too. A copy that
gets specific power and toughness doesn't copy a characteristic-defining ability setting them,
and one that keeps its own colours copies no colour indicator either (707.9d).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from castrules.model.abilities import DefinePT, EnchantedCopy, EntersAsCopy
from castrules.model.parts import CopyExceptions

from .frozen import make
from .cards import CardDef
from .characteristics import matches, chars
from .costs import colors_of, parse_cost
from .errors import Illegal
from .reasons import Reason
from .seams import rules
from .state import CARD, Obj, State
from .trace import Trace
from .zones import move


def with_exceptions(copied: CardDef, own: CardDef, exc: CopyExceptions) -> CardDef:
    """The copiable values of a copy of `copied` made with the exceptions `exc` (707.9a-d);
    `own` is the copying object's own card (for the colours it keeps, 707.9c)."""
    changes: dict[str, Any] = {}
    if exc.add_types:
        changes["types"] = copied.types + tuple(t for t in exc.add_types if t not in copied.types)
    if exc.add_keywords:
        changes["keywords"] = copied.keywords | {k.lower() for k in exc.add_keywords}
    if exc.power is not None:
        changes.update(power=exc.power, toughness=exc.toughness,
                       abilities=tuple(a for a in copied.abilities if not isinstance(a, DefinePT)))
    if exc.keep_colors:
        mine = own.color_indicator if own.color_indicator is not None else colors_of(parse_cost(own.mana_cost))
        changes["color_indicator"] = tuple(mine)
    if exc.name is not None:
        changes["name"] = exc.name
    if exc.add_subtypes:
        changes["subtypes"] = copied.subtypes + tuple(t for t in exc.add_subtypes if t not in copied.subtypes)
    if exc.not_legendary and "Legendary" in copied.supertypes:
        changes["supertypes"] = tuple(t for t in copied.supertypes if t != "Legendary")
    return replace(copied, **changes) if changes else copied


def extra_counter(obj: Obj, values: CardDef, exc: CopyExceptions, trace: Trace) -> Obj:
    """707.9f: an exception giving the copy a counter only if it is a creature is judged on the
    copy as the copy effect makes it without that exception (its copiable values), not on the
    copied permanent as it stood (an animated land copies as a land)."""
    if exc.creature_counter is None:
        return obj
    if "Creature" not in values.types:
        trace.add("707.9f", f"{obj.id} as a copy of {values.name} would not be a creature: no {exc.creature_counter} "
                            "counter")
        return obj
    counters = dict(obj.counters)
    counters[exc.creature_counter] = counters.get(exc.creature_counter, 0) + 1
    trace.add("707.9f", f"{obj.id} as a copy of {values.name} would be a creature: it enters with an additional "
                        f"{exc.creature_counter} counter")
    return replace(obj, counters=tuple(counters.items()))


@dataclass(frozen=True)
class AppliedCopy:
    """One copy effect applied to a permanent as it enters: the copiable values it gave, the
    ability that made it, and the object it copied (its id, name and incarnation, 400.7)."""

    values: CardDef
    ability: EntersAsCopy
    original: str
    original_name: str
    incarnation: int


@dataclass(frozen=True)
class LinkedExile:
    """The triggered ability written beside a copy effect and linked to it (603.11, 607.2):
    "when you do, exile that card" (Superior Spider-Man). It knows the card's incarnation: a card
    that has left the graveyard since is a new object it can't find (400.7)."""

    card: str
    name: str
    incarnation: int


def enter_as_copy(state: State, oid: str, choices: Mapping[str, Any], trace: Trace
                  ) -> tuple[State, tuple[LinkedExile, ...]]:
    """707.2, 707.9, 614.1c: a permanent spell with `enters_as_copy` that has just entered becomes
    a copy of what the `copy` choice names, with its exceptions; no choice, no copy. A list of
    choices is a chain (707.5, 614.12, 616.1f): a copy of something with an enters-as-copy ability
    of its own has that ability as it enters, and the next name is what that one copies; only the
    last copy effect's additional effects happen (707.9e) and its linked trigger triggers (707.9g).
    An Aura with `enchanted_copy` reads the choice as the permanent it chooses (oracle.auras)."""
    obj = state.obj(oid)
    chosen = choices.get("copy")
    if any(isinstance(a, EnchantedCopy) for a in obj.card.abilities):
        return state, ()                    # the Aura's chosen permanent, not a copy of it (oracle.auras)
    chain = [] if chosen is None else list(chosen) if isinstance(chosen, (list, tuple)) else [chosen]
    own, orig, applied = obj.card, None, []
    for link in chain:
        ability = next((a for a in own.abilities if isinstance(a, EntersAsCopy)), None)
        if ability is None:
            raise Illegal(Reason.INVALID_ACTION, f"{own.name} can't enter as a copy of anything",
                          rules=("707.5", "614.12") if applied else ())
        orig = _copied(state, obj, str(link), ability, own)
        values = with_exceptions(orig.base, own, ability.exceptions)
        trace.add(("707.2", "707.9", "614.1c") if not applied else ("707.5", "614.12", "616.1f", "707.2"),
                  f"{own.name} ({oid}) enters as a copy of {orig.base.name} ({link})" + describe(ability.exceptions))
        applied.append(AppliedCopy(values, ability, orig.id, orig.base.name, orig.incarnation))
        own = values
    if orig is None:
        return state, ()
    copy = replace(obj, copy_of=own, prototyped=orig.prototyped)
    copy = rules().copy_additional_effects(copy, tuple(applied), trace)
    return state.with_obj(copy), rules().copy_linked_triggers(oid, tuple(applied), trace)


def _copied(state: State, obj: Obj, chosen: str, ability: EntersAsCopy, own: CardDef) -> Obj:
    """What a copy effect of `ability` may copy: a permanent, or a card in a graveyard (`from`),
    matching its filter as the entering object stands now (614.12); Illegal otherwise."""
    orig = state.objects.get(chosen)
    if (orig is None or orig.id == obj.id or orig.zone != ability.zone or orig.kind is not CARD
            or not matches(chars(state, orig), orig, ability.of, obj.controller, obj.id)):
        where = "permanent" if ability.zone == "battlefield" else f"card in a {ability.zone}"
        raise Illegal(Reason.INVALID_ACTION, f"{chosen} is not a {where} {own.name} may enter as a copy of",
                      rules=("707.2",))
    return orig


def additional_effects(obj: Obj, applied: tuple[AppliedCopy, ...], trace: Trace) -> Obj:
    """707.9e: an exception that is an effect beside the copy (Spark Double's extra counter)
    happens only if no other copy effect was applied to the object after the one that has it;
    so only the last copy effect's additional effects happen (judged as 707.9f says)."""
    for a in applied[:-1]:
        if a.ability.exceptions.creature_counter is not None:
            trace.add("707.9e", f"{obj.id}: another copy effect was applied after the one copying {a.original_name}: "
                                f"that one's additional {a.ability.exceptions.creature_counter} counter doesn't happen")
    last = applied[-1]
    return extra_counter(obj, last.values, last.ability.exceptions, trace)


def linked_triggers(oid: str, applied: tuple[AppliedCopy, ...], trace: Trace) -> tuple[LinkedExile, ...]:
    """603.11, 707.9g: a triggered ability linked to a copy effect triggers when that effect is
    applied, unless another copy effect is applied to the object after it: only the last one's."""
    for a in applied[:-1]:
        if a.ability.exile_copied:
            trace.add("707.9g", f"{oid}: another copy effect was applied after the one copying {a.original_name} "
                                f"({a.original}): the triggered ability linked to it doesn't trigger")
    last = applied[-1]
    if not last.ability.exile_copied:
        return ()
    trace.add(("603.11", "607.2"), f"{oid} entered as a copy of {last.original_name} ({last.original}): the "
                                   "triggered ability linked to that copy effect triggers, to exile that card")
    return (LinkedExile(last.original, last.original_name, last.incarnation),)


def exile_linked(state: State, ability: LinkedExile, trace: Trace) -> State:
    """The linked trigger resolves: the card copied is exiled if it is still the object it was
    (in its graveyard, 400.7); a new object is not "that card"."""
    card = state.objects.get(ability.card)
    if card is None or card.incarnation != ability.incarnation or card.zone != "graveyard":
        trace.add(("607.2", "400.7"), f"{ability.name} ({ability.card}) is no longer the card copied: not exiled")
        return state
    return move(state, ability.card, "exile", trace, note="the card the linked copy effect copied",
                rules=("603.11", "607.2"))


def token_copy(state: State, of: str, new_id: str, controller: str, exc: CopyExceptions, trace: Trace) -> State:
    """707.2, 707.9: an effect creates a token that copies the permanent `of`, with exceptions.
    Like any token an effect creates, it enters under the effect's controller, summoning sick."""
    orig = state.obj(of)
    values = with_exceptions(orig.base, orig.base, exc)
    state, ts = state.tick()
    token = make(Obj, id=new_id, card=values, zone="battlefield", owner=controller, controller=controller,
                 timestamp=ts, token=True, copy_of=values, summoning_sick=True, prototyped=orig.prototyped)
    trace.add(("707.2", "707.9", "111.1"), f"a token copy of {orig.base.name} ({new_id}) enters under {controller}'s "
              f"control" + describe(exc))
    return state.with_obj(token)


def describe(exc: CopyExceptions) -> str:
    """The exceptions in words, for the trace."""
    parts = []
    if exc.add_types:
        parts.append(f"also {' '.join(exc.add_types)}")
    if exc.add_keywords:
        parts.append(f"with {', '.join(exc.add_keywords)}")
    if exc.name is not None:
        parts.append(f"named {exc.name}")
    if exc.add_subtypes:
        parts.append(f"also {' '.join(exc.add_subtypes)}")
    if exc.power is not None:
        parts.append(f"{exc.power}/{exc.toughness}")
    if exc.keep_colors:
        parts.append("keeping its own colours")
    if exc.not_legendary:
        parts.append("not legendary")
    if exc.creature_counter is not None:
        parts.append(f"an additional {exc.creature_counter} counter if it is a creature")
    return (", except: " + "; ".join(parts)) if parts else ""
