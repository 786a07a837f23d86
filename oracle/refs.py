"""References a step makes to the game: a player or an object that must exist (else the
request is malformed), and the model's enum values as the oracle's plain strings."""
from __future__ import annotations

from typing import Any

from castrules.model import is_player

from .errors import RequestError
from .state import State

__all__ = ["is_player", "object_of", "plain", "player_of"]


def object_of(state: State, oid: Any) -> str:
    """The id of an object of the game, or a request error."""
    if oid not in state.objects:
        raise RequestError(f"unknown object {oid!r}")
    return oid


def player_of(state: State, name: Any) -> str:
    """The name of a player of the game, or a request error."""
    if not isinstance(name, str) or not state.has_player(name):
        raise RequestError(f"unknown player {name!r}")
    return name


def plain(value: Any) -> Any:
    """A model enum member as its plain string (None stays None)."""
    return getattr(value, "value", value)
