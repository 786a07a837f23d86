"""Auras (303.4, 702.5): an Aura spell resolving attached to its target, the copy effect of an
Aura's static ability (707.2c; Metamorphic Alteration), and the state-based action that puts an
Aura attached to nothing, or to what it can't enchant, into its owner's graveyard (704.5m). The
copy effect ends as the Aura leaves the battlefield (611.3a; zones.end_static_copies)."""
from __future__ import annotations

from dataclasses import replace as new_values
from typing import Any, Mapping

from castrules.model.abilities import EnchantedCopy

from .characteristics import chars, matches
from .errors import Illegal, RequestError
from .frozen import replace
from .reasons import Reason
from .state import CARD, State
from .static_copy import StaticCopy
from .targets import legal_target
from .trace import Trace
from .zones import move


def enter_attached(state: State, oid: str, targets: tuple[str | None, ...], choices: Mapping[str, Any],
                   trace: Trace) -> State:
    """303.4a, 608.3: an Aura spell that has just resolved is on the battlefield attached to the
    object it targeted (still legal: 608.2b let it resolve); then its static copy effect begins."""
    aura = state.obj(oid)
    if aura.base.enchant is None:
        return state
    host = state.obj(str(targets[0]))
    state = state.with_obj(replace(aura, attached=(host.id, host.incarnation)))
    trace.add(("303.4a", "608.3"), f"{aura.base.name} ({oid}) enters attached to {host.base.name} ({host.id}), the "
                                   "object it targeted")
    return begin_static_copy(state, oid, choices, trace)


def begin_static_copy(state: State, oid: str, choices: Mapping[str, Any], trace: Trace) -> State:
    """707.2c: the Aura's copy effect takes the copiable values the permanent chosen as it entered
    (the `copy` choice) has now, once: later changes to that permanent, or its leaving, change
    nothing. A copy of a copy gets what that one copies (707.3)."""
    aura = state.obj(oid)
    ability = next((a for a in aura.base.abilities if isinstance(a, EnchantedCopy)), None)
    if ability is None or aura.attached is None:
        return state
    chosen = choices.get("copy")
    if chosen is None:
        raise RequestError(f"resolve: {aura.base.name} ({oid}) needs the choice `copy`, the permanent chosen as it "
                           "enters")
    orig = state.objects.get(str(chosen))
    if (orig is None or orig.id == oid or orig.zone != "battlefield" or orig.kind is not CARD
            or not matches(chars(state, orig), orig, ability.of, aura.controller, oid)):
        raise Illegal(Reason.INVALID_ACTION, f"{chosen} is not a permanent {aura.base.name} may choose",
                      rules=("707.2c",))
    host = state.obj(aura.attached[0])
    values = new_values(orig.base)          # its own value: the record knows it by identity
    record = StaticCopy(aura=oid, enchanted=host.id, incarnation=host.incarnation, chosen=orig.id, values=values,
                        before=host.copy_of, before_prototyped=host.prototyped)
    state = state.with_obj(replace(host, copy_of=values, prototyped=orig.prototyped))
    state = replace(state, static_copies=state.static_copies + (record,))
    trace.add(("707.2c", "613.1a"), f"{host.id}, enchanted by {aura.base.name} ({oid}), is a copy of {values.name} "
                                    f"({orig.id}), chosen as it entered: the copiable values it has now, fixed "
                                    "while the effect lasts")
    return state


def unattached_auras(state: State, auras: list[str], trace: Trace) -> tuple[State, bool]:
    """704.5m: each of `auras` (Auras on the battlefield) attached to nothing (what it enchanted left:
    a new object, 400.7), or to an object its enchant ability doesn't allow, is put into its
    owner's graveyard."""
    changed = False
    for aid in auras:
        aura = state.obj(aid)
        spec, at = aura.base.enchant, aura.attached
        host = state.objects.get(at[0]) if at is not None else None
        if aura.zone != "battlefield" or spec is None or (
                host is not None and at is not None and host.incarnation == at[1]
                and legal_target(state, spec, host.id, aura.controller, aid)):
            continue
        state = move(state, aid, "graveyard", trace, note="an Aura attached to nothing it may enchant",
                     rules=("704.5m",))
        changed = True
    return state, changed
