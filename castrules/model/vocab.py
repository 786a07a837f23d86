"""The closed vocabularies of the format (enums) and the reading of a reference.

The enums are `StrEnum`s: a member equals its document spelling, so code that compares with
the plain strings keeps working while new code gets a closed, typed set.
"""
from __future__ import annotations

import re
from enum import StrEnum

PLAYER_PATTERN = re.compile(r"^[A-Z][A-Za-z0-9]*$")
OBJECT_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


def is_player(ref: object) -> bool:
    """A reference naming a player rather than an object: players are capitalised, object ids
    are lower case (the case schema's `ref`). The one place this convention is coded."""
    return isinstance(ref, str) and ref[:1].isupper()


class Zone(StrEnum):
    """Zones a case may place or expect an object in (400.1)."""

    BATTLEFIELD = "battlefield"
    HAND = "hand"
    GRAVEYARD = "graveyard"
    LIBRARY = "library"
    EXILE = "exile"
    STACK = "stack"
    COMMAND = "command"


class TurnStep(StrEnum):
    """Steps and main phases of a turn (500.1), as a case names them."""

    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    PRECOMBAT_MAIN = "precombat_main"
    BEGINNING_OF_COMBAT = "beginning_of_combat"
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    COMBAT_DAMAGE = "combat_damage"
    END_OF_COMBAT = "end_of_combat"
    POSTCOMBAT_MAIN = "postcombat_main"
    END = "end"
    CLEANUP = "cleanup"


class ManaType(StrEnum):
    """The six types of mana (106.1)."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"
    C = "C"


class Color(StrEnum):
    """The five colours (105.1)."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"


class CardTypeChoice(StrEnum):
    """The card types Cloud Key lets its controller choose as it enters."""

    ARTIFACT = "Artifact"
    CREATURE = "Creature"
    ENCHANTMENT = "Enchantment"
    INSTANT = "Instant"
    SORCERY = "Sorcery"


class Substep(StrEnum):
    """The sub-steps of casting a spell (601.2a-i)."""

    A = "601.2a"
    B = "601.2b"
    C = "601.2c"
    D = "601.2d"
    E = "601.2e"
    F = "601.2f"
    G = "601.2g"
    H = "601.2h"
    I = "601.2i"  # noqa: E741 - the rule's own letter


class AlternativeCostName(StrEnum):
    """Alternative costs a cast may choose (118.9)."""

    PROWL = "prowl"
    WITHOUT_PAYING_MANA_COST = "without_paying_mana_cost"
    EVOKE = "evoke"
    FLASHBACK = "flashback"                  # 702.34a: from its owner's graveyard
    EMERGE = "emerge"
    DASH = "dash"
    AWAKEN = "awaken"                        # 702.113a: and a land target, only then (702.113b)
    SURGE = "surge"
    RETURN_PERMANENT = "return_permanent"    # return a permanent you control to its owner's hand (Daze)
    TEST_ALTERNATIVE = "test_alternative"


class PayMode(StrEnum):
    """How costs are paid: the engine finds a payment (auto) or only what is listed."""

    AUTO = "auto"
    LISTED = "listed"


class PhyrexianChoice(StrEnum):
    """How one Phyrexian symbol is paid (107.4f)."""

    MANA = "mana"
    LIFE = "life"


class TypeChangeMode(StrEnum):
    """How a change_types step changes creature types."""

    SET = "set"
    ADD = "add"
    REMOVE_ALL = "remove_all"


class SpecialActionName(StrEnum):
    """Special actions a case may take (116); only suspend is modelled."""

    SUSPEND = "suspend"
