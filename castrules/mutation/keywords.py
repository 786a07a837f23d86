"""Mutants of the supplement's cost keywords: flashback (702.34a), entwine (702.42a)."""
from __future__ import annotations

from .base import Mutant


def _never_exiled(real, ctx):
    def leave_stack_zone(obj, zone):
        return zone
    return leave_stack_zone


class FlashbackNotExiled(Mutant):
    description = "a spell whose flashback cost was paid goes where it would have gone, not to exile (702.34a)"
    seams = {"leave_stack_zone": _never_exiled}
    witnesses = ("flashback/cast/think-twice-from-graveyard-then-exiled",
                 "flashback/resolve/flashback-spell-with-an-illegal-target-is-exiled")
