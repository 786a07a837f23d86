"""Mutants of the permissions to cast: face-down cards in exile (601.3f, 406.3)."""
from __future__ import annotations

from .base import Mutant, substitute


class FaceDownCastWithoutLooking(Mutant):
    description = ("any player with a permission to cast from exile may begin to cast a face-down exiled card, even one "
                   "they are not allowed to look at (601.3f)")
    seams = {"may_look": substitute(lambda obj, player: True)}
    witnesses = ("casting/face-down/owner-with-exile-permission-may-not-look",)
