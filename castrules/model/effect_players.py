"""The players an effect acts on (schema `effect_player`): `you`, `each_opponent`, `chooser`,
`tapper`, `target:N`, `target_controller:N`, each as its typed value (read by `read_player`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .errors import ModelError, excerpt


@dataclass(frozen=True)
class You:
    """The effect's controller (`you`, the default)."""


@dataclass(frozen=True)
class EachOpponent:
    """Each opponent of the effect's controller still in the game (`each_opponent`)."""


@dataclass(frozen=True)
class ModeChooser:
    """The opponent who chose the spell's mode (`chooser`; 601.6: the card's "that player")."""


@dataclass(frozen=True)
class Tapper:
    """The player who tapped a permanent for mana, for a trigger on that event (`tapper`; 106.12a)."""


@dataclass(frozen=True)
class TargetPlayer:
    """The player who is the effect's `index`-th target (`target:N`)."""

    index: int


@dataclass(frozen=True)
class TargetsController:
    """The controller of the object that is the effect's `index`-th target (`target_controller:N`)."""

    index: int


PlayerChoice = You | EachOpponent | ModeChooser | Tapper | TargetPlayer | TargetsController


@cache
def read_player(ref: str | None) -> PlayerChoice:
    """An effect's `player` string (schema `effect_player`) as its typed value."""
    if ref is None or ref == "you":
        return You()
    if ref == "each_opponent":
        return EachOpponent()
    if ref == "chooser":
        return ModeChooser()
    if ref == "tapper":
        return Tapper()
    kind, _, index = ref.partition(":")
    if index.isdigit() and kind in ("target", "target_controller"):
        return TargetPlayer(int(index)) if kind == "target" else TargetsController(int(index))
    raise ModelError("", f"unknown effect player {excerpt(ref)}: you, each_opponent, chooser, tapper, target:N or "
                         "target_controller:N")
