"""Face-down cards in exile (406.3): who may begin to cast one (601.3f).

A card exiled face down has no characteristics for anyone who can't see it; only the players
the effect that exiled it let look at it (and who stay allowed for as long as it stays exiled,
406.3) know what it is, so only they may begin to cast it, whatever permission they or others
have (601.3f). Cast, it is turned face up as it moves to the stack (406.3a, 601.2a): the spell
has the card's own characteristics and costs (oracle.zones turns it face up).
"""
from __future__ import annotations

from .errors import Illegal
from .reasons import Reason
from .seams import rules
from .state import Obj
from .trace import Trace


def may_look(obj: Obj, player: str) -> bool:
    """406.3: `player` is allowed to look at the face-down exiled card `obj`."""
    return player in obj.face.may_look


def check_look(obj: Obj, caster: str, trace: Trace) -> None:
    """601.3f: a face-down card in exile may be begun to be cast only by a player allowed to look
    at it; an illegal cast otherwise (no_permission, 601.2a). A face-up card passes untouched."""
    if obj.zone != "exile" or not obj.face.face_down:
        return
    if not rules().may_look(obj, caster):
        raise Illegal(Reason.NO_PERMISSION, f"{obj.id} is face down in exile and {caster} is not allowed to look at "
                                            "it, so they can't begin to cast it, whatever lets them cast from exile",
                      rules=("601.3", "601.3f", "406.3"))
    trace.add(("601.3f", "406.3", "406.3a"), f"{caster} may look at the face-down {obj.id}, so may begin to cast it; "
                                             "it is turned face up as it is cast")
