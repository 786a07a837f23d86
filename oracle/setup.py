"""Building the starting state from a case's `setup` (docs/case-format.md), read as the typed
model's `Setup` (castrules.model.case): the model checks the shape, this module what only the
game can (players named, cards in the request, faces that exist)."""
from __future__ import annotations

from operator import is_
from typing import Any, Mapping

from castrules.model import ModelError
from castrules.model.case import Setup, SetupChoice, SetupObject

from .by_content import by_content
from .cards import CardDef
from .costs import ManaCostError, ManaPool
from .errors import RequestError
from .frozen import make, replace
from .start_chars import carry
from .state import PLAIN_FACE, FaceUp, Obj, Objects, Player, State, Turn


def build_state(setup: Setup | Mapping[str, Any], catalog: Mapping[str, CardDef]) -> State:
    """The game at the start of a case: its players, turn, objects (in setup order, each with the
    next timestamp) and the choices made before it starts."""
    if not isinstance(setup, Setup):
        try:
            setup = _read_setup(setup, "/case/setup")
        except ModelError as exc:
            raise RequestError(f"the setup is malformed: {exc}") from exc
    if not _read_setup.kept(setup):     # a setup read once (or given typed): its state is not kept either
        return _start(setup, catalog)
    hit = _STARTS.get(id(setup))
    if hit is not None and hit[0] is setup:
        names = hit[1]
    else:
        names, hit = tuple(name for o in setup.objects for name in (o.card, o.melded_with)), None
    cards = tuple(map(catalog.get, names))
    if hit is None or not all(map(is_, hit[2], cards)):
        if len(_STARTS) >= _BOUND:
            _STARTS.clear()
        start = _start(setup, catalog)
        start.watches_nothing()     # its index of watching abilities, built once (state._watching_index)
        hit = _STARTS[id(setup)] = (setup, names, cards, start, [None])
    start = hit[3]
    # a state of its own: a new map of the (frozen) objects and new caches; choices copied; the
    # index of watching abilities, a pure function of the very same objects, carried over, and so
    # are the objects' characteristics (oracle.start_chars, kept in the entry's slot)
    objects = Objects(start.objects)
    objects.watching = start.objects.watching
    choices = {oid: dict(ch) for oid, ch in start.choices.items()}
    return replace(start, objects=objects, choices=choices, chars_cache=carry(hit[4], start, objects, choices))


# The starting state of a typed setup (shared by the runs of a case: oracle.by_content) with the
# names of the cards its objects are made of and the card definitions they were, by the setup's
# identity (a setup the reader keeps): the state is a pure function of both, all frozen (an
# entry holds its setup, so the id is not reused while it lives); and the slot of its objects'
# characteristics (oracle.start_chars).
_STARTS: dict[int, tuple[Setup, tuple[str | None, ...], tuple[CardDef | None, ...], State, list]] = {}
_BOUND = 4096


def _start(setup: Setup, catalog: Mapping[str, CardDef]) -> State:
    players = _players(setup)
    names = [p.name for p in players]
    objects: dict[str, Obj] = {}
    for clock, raw in enumerate(setup.objects, start=1):
        if raw.id in objects:
            raise RequestError(f"object id duplicated: {raw.id!r}")
        objects[raw.id] = _object(raw, catalog, names, clock)
    stack = tuple(o.id for o in objects.values() if o.zone == "stack")
    return make(State, players=players, objects=Objects(objects), turn=_turn(setup, names), stack=stack,
                choices=_choices(setup.choices or {}, objects), clock=len(objects) + 1)


_read_setup = by_content(Setup.from_document)     # every run of a case sends the same setup


def _players(setup: Setup) -> tuple[Player, ...]:
    if not setup.players:
        raise RequestError("setup.players must name at least one player")
    players = []
    for name, p in setup.players.items():
        try:
            pool = ManaPool.parse(p.mana_pool) if p.mana_pool else _EMPTY_POOL   # most players start with none
        except ManaCostError as exc:
            raise RequestError(f"player {name}: bad mana_pool ({exc})") from exc
        players.append(make(Player, name=name, life=p.life, pool=pool))
    return tuple(players)


_EMPTY_POOL = ManaPool()    # what ManaPool.parse("") builds; frozen, so one value serves every state


def _turn(setup: Setup, names: list[str]) -> Turn:
    active = setup.turn.active if setup.turn.active is not None else names[0]
    if active not in names:
        raise RequestError(f"turn.active {active!r} is not a player")
    return Turn(active=active, step=str(setup.turn.step), number=setup.turn.number)


def _object(raw: SetupObject, catalog: Mapping[str, CardDef], names: list[str], timestamp: int) -> Obj:
    oid, zone = raw.id, str(raw.zone)
    card = catalog.get(raw.card)
    if card is None:
        raise RequestError(f"object {oid}: card {raw.card!r} is not in the request's cards")
    owner = raw.owner or raw.controller or names[0]
    controller = raw.controller or owner
    for who in (owner, controller):
        if who not in names:
            raise RequestError(f"object {oid}: {who!r} is not a player")
    if raw.transformed and (zone != "battlefield" or card.back_face is None):
        raise RequestError(f"object {oid}: only a transforming double-faced card on the battlefield can be "
                           "set up transformed")
    counters = tuple(sorted((str(k), int(v)) for k, v in raw.counters.items() if v)) if raw.counters else ()
    partner = _meld_partner(raw, card, catalog, zone)
    if (raw.face_down and zone != "exile") or (raw.may_look and not raw.face_down):
        raise RequestError(f"object {oid}: only a card in exile can be set up face_down, and may_look needs face_down")
    for who in raw.may_look:
        if who not in names:
            raise RequestError(f"object {oid}: may_look: {who!r} is not a player")
    face = (make(FaceUp, transformed=raw.transformed, melded_with=partner, face_down=raw.face_down,
                 may_look=tuple(raw.may_look)) if raw.transformed or partner is not None or raw.face_down
            else PLAIN_FACE)
    return make(Obj, id=oid, card=card, zone=zone, owner=owner,
                controller=controller if zone in ("battlefield", "stack") else owner,
                timestamp=timestamp, token=raw.token, tapped=raw.tapped, summoning_sick=raw.summoning_sick,
                counters=counters, damage=raw.damage, prototyped=raw.prototyped, face=face)




def _meld_partner(raw: SetupObject, card: CardDef, catalog: Mapping[str, CardDef], zone: str) -> CardDef | None:
    """202.3c: a melded permanent is represented by both cards of the pair."""
    if raw.melded_with is None:
        return None
    partner = catalog.get(raw.melded_with)
    if (zone != "battlefield" or partner is None or card.meld_partner != partner.name
            or partner.meld_partner != card.name or (card.melded_face or partner.melded_face) is None):
        raise RequestError(f"object {raw.id}: melded_with must name its meld partner card (in the request's "
                           "cards), on the battlefield")
    return partner


def _choices(choices: Mapping[str, SetupChoice], objects: Mapping[str, Obj]) -> dict[str, dict[str, str]]:
    """The choices made for objects before the case starts, by object id (plain names)."""
    out = {}
    for oid, ch in choices.items():
        if oid not in objects:
            raise RequestError(f"choices: unknown object {oid!r}")
        pairs = (("creature_type", ch.creature_type), ("card_type", ch.card_type), ("color", ch.color),
                 ("imprinted", ch.imprinted), ("exiled", ch.exiled))
        out[oid] = {k: str(v) for k, v in pairs if v is not None}
    return out
