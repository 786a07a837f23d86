"""601.3: whether a player may begin to cast a spell (zone, prohibitions, timing, flash
permissions), each judged on the spell as it would be cast (601.3e) and, before the proposal,
on every shape the choices still to make could give it (601.3a-b)."""
from __future__ import annotations


from castrules.model.abilities import CastPermission, CastProhibition, ConditionalFlash, FlashPermission
from castrules.model.parts import Filter
from castrules.model.vocab import AlternativeCostName

from .cast_spec import CastSpec
from .characteristics import Chars, chars, matches
from .errors import Illegal
from .face_down import check_look
from .frozen import replace
from .granted_flashback import granted_by
from .reasons import Reason
from .seams import rules as seam_rules
from .state import CARD, MAIN_STEPS, Obj, State
from .trace import Trace
from .turn_grants import GraveyardTurn
from .zones import top_of_library

# module globals: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11
_FLASHBACK = AlternativeCostName.FLASHBACK


def zone_permission(state: State, spec: CastSpec, obj: Obj, view: Obj, c: Chars, trace: Trace) -> str | None:
    """601.3: the spell may be cast from where it is; the permission object used, if any."""
    caster = spec.player
    if c.is_("Land"):
        raise Illegal(Reason.NO_PERMISSION, f"{c.name} is a land: lands are played, not cast", rules=("305.1", "601.3"))
    if obj.zone == "hand":
        if obj.owner != caster:
            raise Illegal(Reason.NO_PERMISSION, f"{spec.object} is in {obj.owner}'s hand, not {caster}'s",
                          rules=("601.3",))
        trace.add("601.3", f"{caster} may cast {c.name} from their hand")
        return None
    check_look(obj, caster, trace)          # 601.3f: a face-down exiled card, only by a player who may look at it
    if spec.instructed_by is not None and obj.zone in ("library", "graveyard", "exile", "command"):
        trace.add("608.2g", f"{spec.instructed_by}'s effect instructs {caster} to cast {c.name} from the {obj.zone}")
        return None
    if obj.zone in ("stack", "battlefield"):
        raise Illegal(Reason.NO_PERMISSION, f"{spec.object} is on the {obj.zone}; it can't be cast from there",
                      rules=("601.3",))
    flashback = (_FLASHBACK in spec.alternative and obj.zone == "graveyard"
                 and seam_rules().flashback_of(state, obj, spec.permission) is not None)
    if flashback and obj.owner == caster and (c.is_("Instant") or c.is_("Sorcery")):
        granter = granted_by(state, obj, spec.permission)
        trace.add("702.34a", f"{c.name}'s flashback" + (f" (granted by {granter} until end of turn)" if granter else "")
                  + f" lets {caster} cast it from their own graveyard")
        return None
    paying = AlternativeCostName.WITHOUT_PAYING_MANA_COST not in spec.alternative
    src = find_permission(state, spec.object, caster, obj.zone, spec.permission, False, view, paying)
    if src is None:
        rules = ("601.3", "702.34a") if flashback else ("601.3",)
        why = (f"flashback lets only {obj.owner}, its owner, cast it from the graveyard, and only as an instant or "
               "sorcery spell; nothing else lets " if flashback else "nothing lets ")
        linked = _linked_elsewhere(state, spec.permission, spec.object)
        if not linked[0]:
            linked = _limited_elsewhere(state, spec, obj, view)
        if paying and find_permission(state, spec.object, caster, obj.zone, spec.permission, True, view):
            linked = (" for a cost: what lets it be cast from there lets it be cast only without paying its mana "
                      "cost", ("118.9",))
        if obj.zone == "library" and not seam_rules().library_top(state, obj.id):
            linked = (f" ({c.name} is not the top card of {obj.owner}'s library)", linked[1])
        if obj.face.face_down and own_permission(replace(obj, face=replace(obj.face, face_down=False)), caster,
                                                 obj.zone, False):
            linked = (": face down in exile it has no abilities, so not its own permission", ("406.3a",))
        raise Illegal(Reason.NO_PERMISSION, f"{why}{caster} cast {c.name} from the {obj.zone}{linked[0]}",
                      rules=rules + linked[1])
    trace.add("601.3", f"{state.obj(src).base.name} ({src}) lets {caster} cast {c.name} from the {obj.zone}")
    return src


def check_prohibitions(state: State, view: Obj, caster: str, c: Chars, trace: Trace, from_zone: str) -> None:
    """601.3a: a prohibition stops the cast only if no choice still to make escapes it (the zone
    the card is cast from is no such choice)."""
    prohibitor = prohibited(state, view, caster, open_choices=True, from_zone=from_zone)
    if prohibitor is not None:
        raise Illegal(Reason.PROHIBITED, f"{prohibitor} prohibits {caster} from casting {c.name}"
                                         f"{'' if from_zone == 'hand' else ' from the ' + from_zone}, whatever is "
                                         "announced", rules=("601.3", "601.3a"))
    avoidable = prohibited(state, view, caster, open_choices=False, from_zone=from_zone)
    if avoidable is not None:
        trace.add(("601.3a", "601.5", "601.2e"), f"{avoidable} would prohibit {c.name} as announced, but a choice "
                                                 "still to be made in its proposal (prototype, X) could avoid it: the "
                                                 "cast may begin; the completed proposal is checked again")


def check_timing(state: State, spec: CastSpec, view: Obj, c: Chars, trace: Trace) -> bool:
    """117.1a, 601.3b-d: the spell may be cast now. True when the cast relies on a flash
    permission, to be checked again on the completed proposal (601.5)."""
    caster, t = spec.player, state.turn
    if spec.instructed_by is not None:
        trace.add(("608.2g", "117.1"), "cast while a spell resolves: no timing permission is needed")
        return False
    if c.is_("Instant") or "flash" in c.keywords:
        trace.add("117.1a", f"{c.name} may be cast any time {caster} has priority")
        return False
    if t.active == caster and t.step in MAIN_STEPS and not state.stack:
        trace.add("117.1a", f"sorcery timing is met: {caster}'s main phase, empty stack")
        return False
    enabler = conditional_flash(state, view, caster)
    if enabler is not None:
        trace.add(("601.3d", "601.5a"), f"{c.name} has flash while {caster} controls {enabler}: the condition holds, "
                                        "so it may be cast as though it had flash; the cast goes on even if the "
                                        "condition stops holding")
        return False
    perms = flash_permissions(state, view, caster, open_choices=True)
    if not perms:
        where = f"{t.active}'s {t.step.replace('_', ' ')}" + (", stack not empty" if state.stack else "")
        raise Illegal(Reason.WRONG_TIMING, f"{c.name} has sorcery timing; now is {where}", rules=("117.1a", "601.3"))
    trace.add(("601.3b", "601.3c", "601.5"), f"{' / '.join(f'{s.base.name} ({s.id})' for s, _ in perms)} may let "
                                             f"{caster} cast {c.name} as though it had flash, given the choices still "
                                             "to make; the completed proposal must qualify")
    return True


def find_permission(state: State, spell_id: str, caster: str, zone: str, permission: str | None,
                     free: bool, view=None, paying: bool = False, limits: bool = True) -> str | None:
    """An object whose cast_permission lets `caster` cast the spell from `zone` (free: without
    paying its mana cost; paying: for a cost other than that, which a permission to cast from
    another zone only without paying, Golos's, does not give). `permission` narrows the search
    to one object. `view` is the spell as it would be cast (601.3e: e.g. prototyped, 718.3a).
    limits: a permission only during its controller's turns, or for so many spells each turn,
    that can't be used now is passed over (`limited_out`)."""
    obj = view or state.obj(spell_id)
    c = chars(state, obj)
    if permission in (None, spell_id) and seam_rules().own_permission(state.obj(spell_id), caster, zone, free):
        return spell_id
    turn = turn_permission(state, obj, c, caster, zone, permission, free)
    if turn is not None:
        return turn
    candidates = [state.objects[permission]] if permission in state.objects else state.battlefield()
    for src in candidates:
        if src.zone != "battlefield" or src.controller != caster or src.kind is not CARD:
            continue
        for ab in chars(state, src).abilities:     # a copy has the copied permission (707.2), linked to its own exile (707.7)
            if not isinstance(ab, CastPermission) or ab.own or zone not in ab.from_zones:
                continue
            if free and not ab.without_paying_mana_cost:
                continue
            if paying and ab.without_paying_mana_cost and zone != "hand":
                continue                    # 118.9: its cards are cast for no mana, or not through it
            if zone != "hand" and obj.owner != caster and not seam_rules().reaches_others_cards(ab):
                continue                    # only a linked permission reaches another player's card (607.2)
            if zone == "library" and state.obj(spell_id).zone == "library" and not seam_rules().library_top(
                    state, spell_id):
                continue                    # every printed library permission names the top card (601.2a
                                            # judged it there; once on the stack the card is past that)
            if ab.exiled_with and state.choices.get(src.id, {}).get("exiled") != spell_id:
                continue                    # 607.2: only the card linked to this permanent
            if limits and seam_rules().permission_limit(state, src, ab, caster) is not None:
                continue
            if matches(c, obj, ab.spells, src.controller, src.id):
                return src.id
    return None


def turn_permission(state: State, obj, c: Chars, caster: str, zone: str, permission: str | None,
                    free: bool) -> str | None:
    """601.3: a resolved spell's effect letting `caster` cast spells from their own graveyard until
    end of turn (Yawgmoth's Will); its source, if it covers this spell (never without paying)."""
    if zone != "graveyard" or free or obj.owner != caster:
        return None
    for e in state.effects:
        g = e.does
        if (isinstance(g, GraveyardTurn) and g.player == caster and permission in (None, g.source)
                and (g.spells is None or matches(c, obj, g.spells, caster, g.source))):
            return g.source
    return None


def flashback_named_elsewhere(state: State, spec: CastSpec, obj: Obj, view: Obj) -> str | None:
    """The object a flashback cast names as its `permission` when that object gave the card no
    flashback (702.34a) and lets it be cast from its zone no other way (Kess would): the cast
    announces a flashback cost the named object doesn't offer, refused at 601.2b as a prowl cast
    naming an object granting no prowl is (`choose_prowl`, 118.9). Judged before the card moves."""
    via = spec.permission
    if (_FLASHBACK not in spec.alternative or via in (None, spec.object)
            or granted_by(state, obj, via) == via):
        return None
    other_way = find_permission(state, spec.object, spec.player, obj.zone, via, False, view, paying=True)
    return via if other_way is None else None


def limited_out(state: State, src: Obj, ab: CastPermission, caster: str) -> str | None:
    """Why `src`'s permission, limited to its controller's own turns or to so many spells each turn
    (Lurrus of the Dream-Den, Karador, Kess), can't be used now; None if it can. A spell counts
    against it only if it was cast through it, by this object (400.7: a new object has a new one)."""
    if ab.during == "your_turn" and state.turn.active != caster:
        return f"{src.base.name}'s permission works only during {caster}'s own turns"
    used = sum(1 for r in state.cast_log if r.permission == (src.id, src.incarnation))
    if ab.per_turn is not None and used >= ab.per_turn:
        return f"{src.base.name}'s permission has already been used for {used} spell(s) this turn"
    return None


def _limited_elsewhere(state: State, spec: CastSpec, obj: Obj, view: Obj) -> tuple[str, tuple[str, ...]]:
    """A permission that would cover the spell but for its limits (its controller's turns, its
    spells each turn): why, for the refusal's message."""
    src = find_permission(state, spec.object, spec.player, obj.zone, spec.permission, False, view, limits=False)
    if src is None or src == spec.object:
        return "", ()
    ab = next(a for a in chars(state, state.obj(src)).abilities if isinstance(a, CastPermission) and not a.own)
    why = seam_rules().permission_limit(state, state.obj(src), ab, spec.player)
    return (f": {why}", ("601.3",)) if why else ("", ())


def prohibition_zone(ab: CastProhibition, from_zone: str) -> bool:
    """601.3: the prohibition covers a spell cast from `from_zone`: any zone, or one it names."""
    return not ab.from_zones or from_zone in ab.from_zones


def reaches_others_cards(ab: CastPermission) -> bool:
    """607.2: a permission linked to the cards its source exiled (Hostage Taker, Gonti) reaches
    them whoever owns them; a permission to cast from a zone other than the hand that names no
    such link reaches only its controller's own cards (the format's printed ones all say "your")."""
    return ab.exiled_with


def _linked_elsewhere(state: State, permission: str | None, spell_id: str) -> tuple[str, tuple[str, ...]]:
    """607.2, 707.7: the named permanent's permission is linked to the cards its own exiling ability
    exiled (a copy's to those the copy exiled), and this card is not one: why, and the rules."""
    src = state.objects.get(permission) if permission is not None else None
    if src is None or src.zone != "battlefield" or not any(
            isinstance(ab, CastPermission) and ab.exiled_with for ab in chars(state, src).abilities):
        return "", ()
    return (f": {permission}'s permission reaches only the card exiled with {permission} itself",
            ("607.2", "707.7") if src.copy_of is not None else ("607.2",))


def on_top(state: State, oid: str) -> bool:
    """A permission to cast from a library (Future Sight) reaches only the top card of it: the
    first of its owner's library objects, which a setup lists top first."""
    top = top_of_library(state, state.objects[oid].owner)
    return top is not None and top.id == oid


def own_permission(card, caster: str, zone: str, free: bool) -> bool:
    """601.3: a card's own "you may cast this card from <zone>" lets only its owner cast it from
    there; it says nothing about other cards. Face down in exile the card has no abilities (406.3a)."""
    return card.owner == caster and card.kind is CARD and not card.face.face_down and any(
        isinstance(ab, CastPermission) and ab.own and zone in ab.from_zones and (ab.without_paying_mana_cost or not free)
        for ab in card.base.abilities)


def conditional_flash(state: State, spell, caster: str) -> str | None:
    """601.3d: a card that has flash while its caster controls a permanent of some kind; the
    permanent found (the condition holds), else None."""
    for ab in spell.base.abilities:
        if not isinstance(ab, ConditionalFlash):
            continue
        for p in state.battlefield():
            if p.controller == caster and p.id != spell.id and matches(chars(state, p), p, ab.permanents, caster):
                return f"{chars(state, p).name} ({p.id})"
    return None


def proposal_views(state: State, spell, flt) -> list:
    """601.3a / 601.3b: the spell as the choices still to be made during its proposal could make
    it, for an effect with filter `flt`: cast prototyped or normally (718.3; each judged with the
    characteristics it would be cast with, 601.3e / 718.3a-b) and, for a filter on mana value,
    any value of an {X} in the mana cost (107.3a; 0..bound+2 reaches every parity and bound).
    Other proposal choices (modes, targets, kicker, alternative costs) change none of the
    qualities the oracle's filters look at."""
    shapes = [spell]
    if spell.base.prototype is not None:
        shapes.append(replace(spell, prototyped=not spell.prototyped))
    by_mv = isinstance(flt, Filter) and (flt.mana_value or flt.mana_value_min is not None
                                         or flt.mana_value_max is not None)
    top = max(flt.mana_value_min or 0, flt.mana_value_max or 0) + 2
    out = []
    for v in shapes:
        cost = chars(state, v).mana_cost
        if by_mv and cost is not None and cost.has_x:
            out.extend(v.with_x(n) for n in range(top + 1))
        else:
            out.append(v)
    return out


def flash_permissions(state: State, spell, caster: str, open_choices: bool) -> list:
    """Permanents `caster` controls whose effect lets them cast `spell` as though it had flash
    (their flash_permission abilities). open_choices (601.3b): the proposal is still to be made,
    so an effect applies if some choice of it (prototype, X: `proposal_views`) makes the spell
    qualify; extra or alternative costs the permission asks for are checked once the proposal is
    complete (601.3c)."""
    out = []
    for src in state.battlefield():
        if src.kind is not CARD or src.controller != caster:
            continue
        for ab in src.base.abilities:
            if not isinstance(ab, FlashPermission):
                continue
            views = proposal_views(state, spell, ab.spells) if open_choices else [spell]
            if any(matches(chars(state, v), v, ab.spells, caster, src.id) for v in views):
                out.append((src, ab))
    return out


def prohibited(state: State, spell, caster: str, open_choices: bool, from_zone: str) -> str | None:
    """A cast_prohibition that stops `caster` casting `spell` from `from_zone`. open_choices
    (601.3a): before the proposal, an effect prohibits only if no choice still to be made during
    the proposal (`proposal_views`: prototype, X) would make the spell escape it; each effect is
    judged on its own. One limited to some zones (`from`: Grafdigger's Cage) looks at the zone
    the card is cast from."""
    for src in state.battlefield():
        for ab in src.base.abilities if src.kind is CARD else ():
            if not isinstance(ab, CastProhibition):
                continue
            if not seam_rules().prohibition_zone(ab, from_zone):
                continue
            if ab.players == "opponents" and caster == src.controller:
                continue
            if ab.players == "you" and caster != src.controller:
                continue
            views = proposal_views(state, spell, ab.spells) if open_choices else [spell]
            if all(matches(chars(state, v), v, ab.spells, src.controller, src.id) for v in views):
                return f"{src.base.name} ({src.id})"
    return None
