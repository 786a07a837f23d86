"""Copies of spells (707.10) and permanents (707.2), with prototype values (718.3c-d)."""
from __future__ import annotations

from .cards import spell_targets
from .errors import Illegal, RequestError
from .frozen import make, replace
from .reasons import Reason
from .resolution import PendingTrigger, enter_battlefield, put_triggers
from .seams import rules
from .state import CARD, FaceUp, Obj, ObjKind, State
from .trace import Trace


def _new_id(state: State, new_id: str) -> None:
    if new_id in state.objects:
        raise RequestError(f"new_id {new_id!r} is already used")


def copy_spell(state: State, oid: str, new_id: str, controller: str | None, trace: Trace) -> State:
    """707.10: the copy has the copiable values and every decision made for the spell (X,
    targets, alternative and additional costs: a prowl-paid spell's copy is prowl-paid), is
    prototyped if the spell is (718.3c), and is controlled and owned by whoever put it there."""
    _new_id(state, new_id)
    orig = state.obj(oid)
    if orig.zone != "stack" or orig.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"{oid} is not a spell on the stack", rules=("707.10",))
    who = controller or orig.controller
    state, ts = state.tick()
    copy = replace(orig, id=new_id, owner=who, controller=who, copy_of=orig.base, token=False,
                   announced=replace(orig.announced, cast=False), timestamp=ts, incarnation=0)
    state = replace(state.with_obj(copy), stack=state.stack + (new_id,))
    trace.add(("707.10", "718.3c"), f"a copy of {orig.base.name} ({new_id}) is put on the stack under {who}'s control"
              + ("; it is prototyped too" if orig.prototyped else ""))
    return state


def copy_ability(state: State, oid: str, new_id: str, controller: str | None, trace: Trace) -> State:
    """707.10, 707.10b: a copy of a triggered or activated ability on the stack has the same
    source as the original (so an ability that refers to its source by name means that very
    object, not another with the same name), its targets and decisions; whoever put it there
    controls it."""
    _new_id(state, new_id)
    orig = state.obj(oid)
    if orig.zone != "stack" or orig.kind not in (ObjKind.TRIGGER, ObjKind.ABILITY) or orig.stack_ability is None:
        raise Illegal(Reason.INVALID_ACTION, f"{oid} is not a triggered or activated ability on the stack",
                      rules=("707.10",))
    who = controller or orig.controller
    state, ts = state.tick()
    copy = replace(orig, id=new_id, owner=who, controller=who, timestamp=ts, incarnation=0)
    state = replace(state.with_obj(copy), stack=state.stack + (new_id,))
    trace.add(("707.10", "707.10b"), f"a copy of {orig.base.name}'s ability {oid} ({new_id}) is put on the stack under "
                                     f"{who}'s control; its source is {orig.stack_ability.source}, the original's")
    return state


def copy_permanent(state: State, oid: str, new_id: str, controller: str | None, trace: Trace) -> State:
    """707.2: a token with the copiable values; 718.3d: a copy of a permanent that was a
    prototyped spell has the prototype values. Status, counters and effects aren't copied."""
    _new_id(state, new_id)
    orig = state.obj(oid)
    if orig.zone != "battlefield":
        raise Illegal(Reason.INVALID_ACTION, f"{oid} is not a permanent", rules=("707.2",))
    transforming = orig.face.transformed and orig.kind is CARD and orig.card.back_face is not None
    if orig.face.transformed and (not transforming or orig.copy_of is not None):
        raise RequestError(f"{oid} is a transformed permanent that is itself a copy: token copies of it (707.8a, "
                           "with the other copy effects' values for each face) are not modelled")
    who = controller or orig.controller
    state, ts = state.tick()
    copied = orig.card if transforming else orig.base
    token = make(Obj, id=new_id, card=copied, zone="battlefield", owner=who, controller=who, timestamp=ts,
                 token=True, copy_of=copied, summoning_sick=True, prototyped=orig.prototyped,
                 face=FaceUp(transformed=True) if transforming else FaceUp())
    state = state.with_obj(token)
    if transforming:
        trace.add(("707.2", "707.8a", "202.3b"), f"a token copy of {orig.base.name} ({new_id}) enters under {who}'s "
                                                 f"control: a transforming token with both faces of {orig.card.name}, "
                                                 "its back face up, counting its front face's mana cost")
    else:
        trace.add(("707.2", "718.3d"), f"a token copy of {orig.base.name} ({new_id}) enters under {who}'s control"
                  + ("; it has the prototype values" if orig.prototyped else ""))
    pending: list[PendingTrigger] = []
    state = enter_battlefield(state, new_id, trace, pending)
    return put_triggers(state, pending, None, trace)


def become_copy(state: State, oid: str, of: str, trace: Trace) -> State:
    """707.2: an existing permanent becomes a copy of another: it takes the copiable values of the
    face that is up (707.8; a prototyped original's prototype values, 718.3d) and keeps its own
    status, counters, damage and controller. A copy of a transformed permanent's back face has
    the back face's absent mana cost, so mana value 0, even when the copying permanent is itself
    a double-faced card (202.3b); a copy of a front face has the front face's mana cost."""
    obj, orig = state.obj(oid), state.obj(of)
    if obj.zone != "battlefield" or obj.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"become_copy: {oid} is not a permanent")
    if orig.zone != "battlefield" or orig.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"become_copy: {of} is not a permanent", rules=("707.2",))
    if oid == of:
        raise Illegal(Reason.INVALID_ACTION, f"become_copy: {oid} can't become a copy of itself")
    face = orig.base
    state = state.with_obj(replace(obj, copy_of=face, prototyped=orig.prototyped))
    note = f"{oid} becomes a copy of {face.name} ({of}); its status, counters, damage and controller stay"
    cited: tuple[str, ...] = ("707.2",)
    if orig.face.transformed and face.mana_cost is None:
        note += "; a copy of a back face has mana value 0"
        cited += ("202.3b",)
    trace.add(cited, note)
    return state


def choose_new_targets(state: State, copy_id: str, targets, trace: Trace) -> State:
    """707.10c: the copy's controller may change any of its targets. `targets` lists the copy's
    targets in order (as many as the spell has): an entry equal to the copied target is left
    unchanged, even if it is illegal now; any other entry is a new target and must be legal
    (115.1, 601.2c). The number of targets doesn't change."""
    from .targets import check_ref, legal_target
    copy = state.obj(copy_id)
    chosen = tuple(targets)
    announced = copy.announced
    if len(chosen) != len(announced.targets):
        raise Illegal(Reason.WRONG_NUMBER_OF_TARGETS, f"the copy has {len(announced.targets)} target(s); {len(chosen)} "
                                                      "given (targets may change, not their number)", rules=("707.10c",))
    specs = list(spell_targets(copy.base, announced.modes, announced.kicked, announced.alt_cost))
    controllers = list(announced.target_controllers) + [None] * (len(chosen) - len(announced.target_controllers))
    changed = []
    for i, (old, new) in enumerate(zip(announced.targets, chosen)):
        check_ref(state, new)
        if new == old:
            continue
        spec = specs[min(i, len(specs) - 1)] if specs else None
        if spec is None or not legal_target(state, spec, new, copy.controller, copy_id):
            raise Illegal(Reason.INVALID_TARGET, f"{new} is not a legal new target for {copy_id}", rules=("707.10c", "115.1"))
        controllers[i] = None
        changed.append(f"{old} -> {new}")
    state = state.with_obj(replace(copy, announced=replace(announced, targets=chosen,
                                                           target_controllers=tuple(controllers))))
    trace.add("707.10c", f"{copy.controller} chooses targets for {copy_id}: "
              + (", ".join(changed) if changed else "all left unchanged"))
    return state


def _targeted_spell(state: State, oid: str, what: str) -> Obj:
    """The spell a 707.10d / 707.10e effect copies: a spell on the stack with at least one target."""
    orig = state.obj(oid)
    if orig.zone != "stack" or orig.kind is not CARD:
        raise Illegal(Reason.INVALID_ACTION, f"{oid} is not a spell on the stack", rules=("707.10",))
    if not orig.announced.targets:
        raise Illegal(Reason.INVALID_ACTION, f"{what}: {oid} has no targets to replace")
    if len(orig.announced.division) > 1:
        raise RequestError(f"{what}: a copy of a spell dividing among several targets, all made the same, is not modelled")
    return orig


def legal_for_each_target(state: State, orig: Obj, ref: str, controller: str, source_id: str) -> bool:
    """707.10d-e: `ref` must be a legal target for each instance of "target" of the spell."""
    from .targets import check_ref, legal_target
    check_ref(state, ref)
    specs = list(spell_targets(orig.base, orig.announced.modes, orig.announced.kicked,
                                orig.announced.alt_cost))
    return bool(specs) and all(legal_target(state, specs[min(i, len(specs) - 1)], ref, controller, source_id)
                               for i in range(len(orig.announced.targets)))


def _retarget_all(state: State, copy_id: str, ref: str) -> State:
    """Every target of the copy becomes `ref` (a single divided target keeps its amount)."""
    copy = state.obj(copy_id)
    n = len(copy.announced.targets)
    division = tuple((ref, amount) for _, amount in copy.announced.division)
    return state.with_obj(replace(copy, announced=replace(copy.announced, targets=(ref,) * n,
                                                          target_controllers=(None,) * n, division=division)))


def copy_with_target(state: State, oid: str, new_id: str, controller: str | None, target: str,
                     trace: Trace) -> State:
    """707.10e: a copy whose new target the effect specifies. Every target of the copy becomes
    `target`; if it isn't a legal target for each of them, the copy isn't created (the effect
    still happened: the step is legal and `new_id` names no object)."""
    _new_id(state, new_id)
    orig = _targeted_spell(state, oid, "copy_spell target")
    who = controller or orig.controller
    if not rules().copy_target_legal(state, orig, target, who, new_id):
        trace.add("707.10e", f"{target} is not a legal target for each target of the copy of {orig.base.name}: "
                             f"no copy is created ({new_id})")
        return state
    state = rules().copy_spell(state, oid, new_id, controller, trace)
    trace.add("707.10e", f"every target of {new_id} becomes {target}")
    return _retarget_all(state, new_id, target)


def copy_for_each(state: State, oid: str, new_ids, controller: str | None, trace: Trace) -> State:
    """707.10d: a copy for each player or object the spell could target. `new_ids` maps each
    candidate the effect names to its copy's id, in the order the copies' controller puts them
    on the stack. Which candidates are legal targets is decided before any copy is made; a
    candidate that isn't a legal target for each instance of "target" gets no copy."""
    items = list(new_ids.items())
    ids = [nid for _, nid in items]
    if len(set(ids)) != len(ids):
        raise RequestError("copy_spell_for_each: a new id is given twice")
    for nid in ids:
        _new_id(state, nid)
    orig = _targeted_spell(state, oid, "copy_spell_for_each")
    who = controller or orig.controller
    legal = [(ref, nid) for ref, nid in items if rules().copy_target_legal(state, orig, ref, who, oid)]
    for ref, nid in items:
        if (ref, nid) not in legal:
            trace.add("707.10d", f"{ref} is not a legal target for each target of {orig.base.name}: no copy for it ({nid})")
    for ref, nid in legal:
        state = rules().copy_spell(state, oid, nid, controller, trace)
        state = _retarget_all(state, nid, ref)
        trace.add("707.10d", f"{nid}'s targets are all {ref}")
    return state
