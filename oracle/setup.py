"""Building the starting state from a case's `setup` (docs/case-format.md)."""
from __future__ import annotations

from typing import Any, Mapping

from .cards import CardDef
from .costs import ManaCostError, ManaPool
from .errors import RequestError
from .state import STEPS, ZONES, Obj, Player, State, Turn


def build_state(setup: Mapping[str, Any], catalog: Mapping[str, CardDef]) -> State:
    players_raw = setup.get("players") or {}
    if not players_raw:
        raise RequestError("setup.players must name at least one player")
    players = []
    for name, p in players_raw.items():
        p = p or {}
        try:
            pool = ManaPool.parse(p.get("mana_pool", "") or "")
        except ManaCostError as exc:
            raise RequestError(f"player {name}: bad mana_pool ({exc})") from exc
        players.append(Player(name=name, life=int(p.get("life", 20)), pool=pool))
    names = [p.name for p in players]
    turn_raw = setup.get("turn") or {}
    active = turn_raw.get("active", names[0])
    if active not in names:
        raise RequestError(f"turn.active {active!r} is not a player")
    step = turn_raw.get("step", "precombat_main")
    if step not in STEPS:
        raise RequestError(f"unknown step {step!r}")
    turn = Turn(active=active, step=step, number=int(turn_raw.get("number", 1)))
    objects: dict[str, Obj] = {}
    stack: list[str] = []
    clock = 1
    for raw in setup.get("objects") or []:
        oid = raw.get("id")
        if not oid or oid in objects:
            raise RequestError(f"object id missing or duplicated: {oid!r}")
        card_name = raw.get("card")
        if card_name not in catalog:
            raise RequestError(f"object {oid}: card {card_name!r} is not in the request's cards")
        zone = raw.get("zone")
        if zone not in ZONES:
            raise RequestError(f"object {oid}: unknown zone {zone!r}")
        owner = raw.get("owner") or raw.get("controller") or names[0]
        controller = raw.get("controller") or owner
        for who in (owner, controller):
            if who not in names:
                raise RequestError(f"object {oid}: {who!r} is not a player")
        transformed = bool(raw.get("transformed", False))
        if transformed and (zone != "battlefield" or catalog[card_name].back_face is None):
            raise RequestError(f"object {oid}: only a transforming double-faced card on the battlefield can be "
                               "set up transformed")
        melded_with = None
        if raw.get("melded_with") is not None:
            partner = catalog.get(raw["melded_with"])
            card = catalog[card_name]
            if (zone != "battlefield" or partner is None or card.meld_partner != partner.name
                    or partner.meld_partner != card.name or (card.melded_face or partner.melded_face) is None):
                raise RequestError(f"object {oid}: melded_with must name its meld partner card (in the request's "
                                   "cards), on the battlefield")
            melded_with = partner
        counters = tuple(sorted((str(k), int(v)) for k, v in (raw.get("counters") or {}).items() if v))
        objects[oid] = Obj(
            id=oid, card=catalog[card_name], zone=zone, owner=owner,
            controller=controller if zone in ("battlefield", "stack") else owner,
            timestamp=clock, token=bool(raw.get("token", False)),
            tapped=bool(raw.get("tapped", False)), summoning_sick=bool(raw.get("summoning_sick", False)),
            counters=counters, damage=int(raw.get("damage", 0)),
            prototyped=bool(raw.get("prototyped", False)), transformed=transformed, melded_with=melded_with)
        clock += 1
        if zone == "stack":
            stack.append(oid)
    choices = {}
    for oid, ch in (setup.get("choices") or {}).items():
        if oid not in objects:
            raise RequestError(f"choices: unknown object {oid!r}")
        choices[oid] = dict(ch)
    return State(players=tuple(players), objects=objects, turn=turn, stack=tuple(stack),
                 choices=choices, clock=clock)
