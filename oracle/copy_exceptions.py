"""Copy effects with exceptions (707.9) and permanents entering as a copy (707.2).

An exception changes the copiable values the copy gets, and what results is itself copiable
(707.9b): a copy of a Phyrexian Metamorph that copies a creature is an artifact too. A copy that
gets specific power and toughness doesn't copy a characteristic-defining ability setting them,
and one that keeps its own colours copies no colour indicator either (707.9d).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from castrules.model.abilities import DefinePT, EntersAsCopy
from castrules.model.parts import CopyExceptions

from .cards import CardDef
from .characteristics import matches, chars
from .costs import colors_of, parse_cost
from .errors import Illegal
from .reasons import Reason
from .seams import rules
from .state import Obj, ObjKind, State
from .trace import Trace


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


def enter_as_copy(state: State, oid: str, choices: Mapping[str, Any], trace: Trace) -> State:
    """707.2, 707.9, 614.1c: a permanent spell with `enters_as_copy` that has just entered becomes
    a copy of the permanent the `copy` choice names, with its exceptions; no choice, no copy. A
    list of choices is a chain (707.5, 614.12, 616.1f): a copy of a permanent with an enters-as-copy
    ability of its own has that ability as it enters, and the next permanent is what that one
    copies; only the last copy effect's additional effects happen (707.9e)."""
    obj = state.obj(oid)
    chosen = choices.get("copy")
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
        applied.append((values, ability.exceptions))
        own = values
    if orig is None:
        return state
    copy = replace(obj, copy_of=own, prototyped=orig.prototyped)
    return state.with_obj(rules().copy_additional_effects(copy, tuple(applied), trace))


def _copied(state: State, obj: Obj, chosen: str, ability: EntersAsCopy, own: CardDef) -> Obj:
    """The permanent a copy effect of `ability` may copy (its filter, read as the entering object
    stands now, 614.12), or Illegal."""
    orig = state.objects.get(chosen)
    if (orig is None or orig.id == obj.id or orig.zone != "battlefield" or orig.kind is not ObjKind.CARD
            or not matches(chars(state, orig), orig, ability.of, obj.controller, obj.id)):
        raise Illegal(Reason.INVALID_ACTION, f"{chosen} is not a permanent {own.name} may enter as a copy of",
                      rules=("707.2",))
    return orig


def additional_effects(obj: Obj, applied: tuple[tuple[CardDef, CopyExceptions], ...], trace: Trace) -> Obj:
    """707.9e: an exception that is an effect beside the copy (Spark Double's extra counter)
    happens only if no other copy effect was applied to the object after the one that has it;
    so only the last copy effect's additional effects happen (judged as 707.9f says)."""
    for values, exc in applied[:-1]:
        if exc.creature_counter is not None:
            trace.add("707.9e", f"{obj.id}: another copy effect was applied after the one copying {values.name}: "
                                f"that one's additional {exc.creature_counter} counter doesn't happen")
    values, exc = applied[-1]
    return extra_counter(obj, values, exc, trace)


def token_copy(state: State, of: str, new_id: str, controller: str, exc: CopyExceptions, trace: Trace) -> State:
    """707.2, 707.9: an effect creates a token that copies the permanent `of`, with exceptions.
    Like any token an effect creates, it enters under the effect's controller, summoning sick."""
    orig = state.obj(of)
    values = with_exceptions(orig.base, orig.base, exc)
    state, ts = state.tick()
    token = Obj(id=new_id, card=values, zone="battlefield", owner=controller, controller=controller, timestamp=ts,
                token=True, copy_of=values, summoning_sick=True, prototyped=orig.prototyped)
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
    if exc.power is not None:
        parts.append(f"{exc.power}/{exc.toughness}")
    if exc.keep_colors:
        parts.append("keeping its own colours")
    if exc.not_legendary:
        parts.append("not legendary")
    if exc.creature_counter is not None:
        parts.append(f"an additional {exc.creature_counter} counter if it is a creature")
    return (", except: " + "; ".join(parts)) if parts else ""
