"""Moving objects between zones (400.7: a new object each time).

A card whose flashback cost was paid goes to exile whenever it would leave the stack (702.34a).
Leaving the battlefield or the stack clears status, counters, damage, cast decisions and
prototype values (718.4), and a card exiled face down is turned face up as it leaves exile
(406.3a); a token that leaves the battlefield and a spell copy that leaves
the stack cease to exist (111.7, 707.10a): their zone becomes `gone`. A card or token that would
go to a graveyard while a permanent says it is exiled instead (Rest in Peace) goes to exile
(614.1a); a cost paid that way is still paid (118.11).
"""
from __future__ import annotations

from castrules.model.abilities import ExileInsteadOfGraveyard
from castrules.model.vocab import AlternativeCostName

from .dying import dies_triggers
from .frozen import replace, same_or_replaced
from .seams import rules as rule_table
from .state import CARD, GONE, NOT_IN_COMBAT, NOTHING_ANNOUNCED, Obj, State
from .trace import Trace
from .turn_grants import GraveyardTurn

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_FLASHBACK = AlternativeCostName.FLASHBACK


def move(state: State, oid: str, zone: str, trace: Trace | None = None, controller: str | None = None,
         note: str = "", rules: tuple[str, ...] = ()) -> State:
    """Move `oid` to `zone`; the trace line says why (`note`) and cites `rules` beside 400.7."""
    obj = state.obj(oid)
    old_zone = obj.zone
    if obj.face.melded_with is not None and zone != old_zone:
        from .errors import RequestError
        raise RequestError(f"{oid} is a melded permanent: a melded permanent leaving the battlefield is not modelled")
    stack = tuple(s for s in state.stack if s != oid) if old_zone == "stack" else state.stack
    gone = ((obj.token and old_zone == "battlefield" and zone != "battlefield")
            or (obj.is_copy and not obj.token and old_zone == "stack" and zone != "battlefield")
            or obj.kind is not CARD)
    new_zone = GONE if gone else zone
    replaced: tuple[str, ...] = ()
    if old_zone == "stack" and not gone and zone != "stack":
        new_zone = rule_table().leave_stack_zone(obj, zone)
        if new_zone != zone:
            zone, replaced = new_zone, ("702.34a",)
            note = (note + "; " if note else "") + "exiled instead: its flashback cost was paid"
    if zone == "graveyard" and not gone:
        instead = exiler(state, oid)
        if instead is not None:
            new_zone = zone = "exile"
            replaced += ("614.1a",)
            note = (note + "; " if note else "") + f"exiled instead ({instead})"
    state, ts = state.tick()
    changes = dict(
        zone=new_zone, incarnation=obj.incarnation + 1, timestamp=ts,
        controller=(controller or obj.owner) if new_zone in ("battlefield", "stack") else obj.owner,
        tapped=False, summoning_sick=new_zone == "battlefield", counters=(), damage=0, deathtouched=False,
        combat=NOT_IN_COMBAT, face=same_or_replaced(obj.face, transformed=False, face_down=False, may_look=()), attached=None,
    )   # one replace of the object: the changes below join these
    if old_zone == "battlefield" and obj.copy_of is not None and not obj.token:
        # a permanent that became a copy (become_copy) is a new object elsewhere: the effect ends (400.7)
        changes["copy_of"] = None
    if old_zone != "stack" or new_zone != "battlefield":
        # only a resolving spell keeps its cast decisions as it becomes a permanent
        changes.update(prototyped=False, announced=NOTHING_ANNOUNCED,
                       face=same_or_replaced(changes["face"], half=None, fused=False))
    new = replace(obj, **changes)
    if new_zone == "stack":
        stack = stack + (oid,)
    before = state
    state = replace(state.with_obj(new), stack=stack)
    waiting = dies_triggers(before, obj) if zone == "graveyard" and old_zone == "battlefield" else ()
    if waiting:
        state = replace(state, pending=state.pending + waiting)
    if trace is not None:
        what = "ceases to exist" if gone else f"moves to {zone}"
        trace.add(("400.7" if not gone else ("707.10a" if obj.is_copy and not obj.token else "111.7"), *rules,
                   *replaced),
                  f"{obj.base.name} ({oid}) {what}" + (f" from {old_zone}" if old_zone != zone else "")
                  + (f" ({note})" if note else ""))
        for sid, _ in waiting:
            trace.add(("603.10a", "603.3"), f"{before.obj(sid).base.name} ({sid}) triggers on {oid} dying, judged "
                                            "as things were just before it left; it waits to be put on the stack")
    if old_zone == "battlefield" and state.static_copies:
        state = end_static_copies(state, oid, trace)
    return state


def end_static_copies(state: State, oid: str, trace: Trace | None) -> State:
    """611.3a: the copy effect of an Aura's static ability (707.2c) ends as the Aura leaves the
    battlefield: the permanent it enchanted copies again what it copied before, unless a later copy
    effect has replaced this one (613.7); the effects on a permanent that left end with it (400.7)."""
    ended = tuple(r for r in state.static_copies if oid in (r.aura, r.enchanted))
    if not ended:
        return state
    state = replace(state, static_copies=tuple(r for r in state.static_copies if r not in ended))
    for r in ended:
        host = state.objects.get(r.enchanted)
        if r.aura != oid or host is None or host.incarnation != r.incarnation or host.copy_of is not r.values:
            continue
        state = state.with_obj(replace(host, copy_of=r.before, prototyped=r.before_prototyped))
        if trace is not None:
            trace.add(("611.3a", "707.2c"), f"{host.id} is no longer a copy of {r.values.name}: the effect of the "
                                            f"Aura {oid} ends as it leaves the battlefield")
    return state


def top_of_library(state: State, player: str) -> Obj | None:
    """The top card of `player`'s library: the first of their library objects (a setup lists
    them top first), or None when it is empty."""
    return next((o for o in state.objects.values() if o.zone == "library" and o.owner == player), None)


def exiler(state: State, oid: str) -> str | None:
    """614.1a: the permanent (other than `oid`) whose effect exiles what would go to a graveyard
    (Rest in Peace), or the resolved spell whose effect exiles this turn the cards that would go to
    their owner's graveyard (Yawgmoth's Will), named for the trace; None when there is none."""
    for o in state.battlefield():
        if o.id != oid:
            for ab in o.base.abilities:     # a loop, not any(generator): every move asks
                if isinstance(ab, ExileInsteadOfGraveyard):
                    return f"{o.base.name}, {o.id}"
    owner = state.obj(oid).owner
    for e in state.effects:
        if isinstance(e.does, GraveyardTurn) and e.does.exile_instead and e.does.player == owner:
            return f"{state.obj(e.does.source).base.name}'s effect this turn"
    return None


def paid_anyway(state: State, oid: str, action: str, trace: Trace | None) -> State:
    """118.11: a cost whose action an effect changed (a sacrificed permanent exiled rather than
    put into the graveyard) is still paid; the trace says so."""
    if trace is not None and state.obj(oid).zone == "exile":
        trace.add("118.11", f"the {action} of {oid} still pays the cost, though it went to exile")
    return state


def leave_stack_zone(obj: Obj, zone: str) -> str:
    """702.34a: where a card leaving the stack for `zone` goes: exile instead, wherever it was
    going, when its flashback cost was paid; else `zone`."""
    done = obj.announced
    flashed_back = done.alt_cost == _FLASHBACK and done.cast
    return "exile" if flashed_back and obj.kind is CARD else zone


def owner_graveyard(state: State, oid: str, trace: Trace | None, note: str = "",
                    rules: tuple[str, ...] = ()) -> State:
    return move(state, oid, "graveyard", trace, note=note, rules=rules)
