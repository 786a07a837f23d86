"""Who chooses a modal spell's modes (601.2b, 601.6, 601.6a).

Usually the caster. A spell whose card says "an opponent chooses one" (`modes.chooser:
opponent`: Misfortune, Fatal Lore, Library of Lat-Nam) has one of the caster's opponents make
that choice at the moment the caster would have (601.6), the caster deciding which opponent
when there are several (601.6a). The cast names that opponent (`mode_chooser`) and gives the
modes as that opponent chose them; the caster still chooses the targets the chosen mode needs
(601.2c), and the spell's effects refer to the chooser as "that player". The choice is checked
here, as the modes are announced: a cast that names the caster or a player out of the game, or
names a chooser for a spell whose caster chooses, is illegal at 601.2b (`invalid_mode`); one
that names no chooser for such a spell is an incomplete request.
"""
from __future__ import annotations

from .cast_spec import CastSpec
from .errors import Illegal, RequestError
from .reasons import Reason
from .state import Obj, State
from .trace import Trace


def choose(state: State, spell: Obj, spec: CastSpec, name: str, trace: Trace) -> str | None:
    """The player who chose the spell's modes when not its caster (601.6, 601.6a), checked; None
    when the caster chooses them (or the spell is not modal). Raises Illegal (invalid_mode)."""
    modes = spell.base.modes
    opponent_chooses = modes is not None and modes.chooser == "opponent"
    named = spec.mode_chooser
    if not opponent_chooses:
        if named is not None:
            raise Illegal(Reason.INVALID_MODE, f"{named} can't choose {name}'s modes: its caster chooses them"
                          if modes is not None else f"{name} is not modal: nobody chooses modes for it",
                          rules=("601.2b", "700.2"))
        return None
    opponents = state.opponents(spec.player)
    if named is None:
        raise RequestError(f"cast: an opponent of {spec.player} chooses {name}'s mode; name them in mode_chooser")
    if not state.has_player(named):
        raise RequestError(f"cast: unknown mode_chooser player {named!r}")
    if named not in opponents:
        who = "its caster" if named == spec.player else "not in the game"
        raise Illegal(Reason.INVALID_MODE, f"{named} can't choose {name}'s mode: {who}, not one of {spec.player}'s "
                                           f"opponents ({', '.join(opponents) or 'none'})", rules=("601.6", "601.6a"))
    if len(opponents) > 1:
        trace.add("601.6a", f"{spec.player} decides which opponent chooses {name}'s mode: {named} (of "
                            f"{', '.join(opponents)})")
    trace.add(("601.6", "601.2b"), f"{named}, an opponent of {spec.player}, chooses {name}'s mode where "
                                   f"{spec.player} would have")
    return named
