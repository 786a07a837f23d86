"""What a resolved spell grants its controller for the rest of the turn, beyond one object
(Yawgmoth's Will): a permission to cast from their graveyard (601.3) and the replacement that
exiles the cards that would go there (614.1a). Kept apart from state.py, which holds it in a
TimedEffect on the spell's object."""
from __future__ import annotations

from dataclasses import dataclass

from castrules.model.parts import Filter


@dataclass(frozen=True)
class GraveyardTurn:
    """Until end of turn `player` may cast spells matching `spells` from their graveyard, through
    `source`'s effect; with `exile_instead`, a card that would be put into their graveyard from
    anywhere is exiled instead."""

    source: str
    player: str
    spells: Filter | None
    exile_instead: bool
