"""The closed vocabulary of reasons an action is illegal (schema/reasons.json).

Errors are data: every illegal action the oracle reports carries one of these codes and,
for casts, the 601.2 sub-step where it failed. A test keeps this enum equal to the JSON file.
"""
from __future__ import annotations

from enum import Enum


class Reason(str, Enum):
    """An illegal-action reason code; `.substeps` are the 601.2 sub-steps it can occur at."""

    OBJECT_NOT_FOUND = "object_not_found"
    NOT_IN_ZONE = "not_in_zone"
    NO_PERMISSION = "no_permission"
    PROHIBITED = "prohibited"
    WRONG_TIMING = "wrong_timing"
    MULTIPLE_ALTERNATIVE_COSTS = "multiple_alternative_costs"
    ALTERNATIVE_COST_UNAVAILABLE = "alternative_cost_unavailable"
    PROTOTYPE_UNAVAILABLE = "prototype_unavailable"
    ADDITIONAL_COST_UNAVAILABLE = "additional_cost_unavailable"
    INVALID_X = "invalid_x"
    INVALID_MODE = "invalid_mode"
    INVALID_SPLIT_CHOICE = "invalid_split_choice"
    INVALID_HYBRID_CHOICE = "invalid_hybrid_choice"
    INVALID_PHYREXIAN_CHOICE = "invalid_phyrexian_choice"
    INVALID_TARGET = "invalid_target"
    WRONG_NUMBER_OF_TARGETS = "wrong_number_of_targets"
    INVALID_DIVISION = "invalid_division"
    ILLEGAL_PROPOSAL = "illegal_proposal"
    MANA_ABILITY_UNAVAILABLE = "mana_ability_unavailable"
    SUMMONING_SICK = "summoning_sick"
    ALREADY_TAPPED = "already_tapped"
    ALREADY_UNTAPPED = "already_untapped"
    MANA_ABILITY_COST_UNPAYABLE = "mana_ability_cost_unpayable"
    INVALID_MANA_CHOICE = "invalid_mana_choice"
    INSUFFICIENT_MANA = "insufficient_mana"
    INVALID_PAYMENT_CHOICE = "invalid_payment_choice"
    INSUFFICIENT_LIFE = "insufficient_life"
    ADDITIONAL_COST_UNPAID = "additional_cost_unpaid"
    INVALID_OBJECT_PAYMENT = "invalid_object_payment"
    UNPAYABLE_COST = "unpayable_cost"
    INVALID_ATTACKER = "invalid_attacker"
    INVALID_BLOCKER = "invalid_blocker"
    CAST_REQUIRED = "cast_required"
    INVALID_ACTION = "invalid_action"

    @property
    def substeps(self) -> tuple[str, ...]:
        return _SUBSTEPS[self]


_SUBSTEPS: dict[Reason, tuple[str, ...]] = {
    Reason.OBJECT_NOT_FOUND: ("601.2a",),
    Reason.NOT_IN_ZONE: ("601.2a",),
    Reason.NO_PERMISSION: ("601.2a",),
    Reason.PROHIBITED: ("601.2a",),
    Reason.WRONG_TIMING: ("601.2a",),
    Reason.MULTIPLE_ALTERNATIVE_COSTS: ("601.2b",),
    Reason.ALTERNATIVE_COST_UNAVAILABLE: ("601.2b",),
    Reason.PROTOTYPE_UNAVAILABLE: ("601.2b",),
    Reason.ADDITIONAL_COST_UNAVAILABLE: ("601.2b",),
    Reason.INVALID_X: ("601.2b",),
    Reason.INVALID_MODE: ("601.2b",),
    Reason.INVALID_SPLIT_CHOICE: ("601.2a",),
    Reason.INVALID_HYBRID_CHOICE: ("601.2b",),
    Reason.INVALID_PHYREXIAN_CHOICE: ("601.2b",),
    Reason.INVALID_TARGET: ("601.2c",),
    Reason.WRONG_NUMBER_OF_TARGETS: ("601.2c",),
    Reason.INVALID_DIVISION: ("601.2d",),
    Reason.ILLEGAL_PROPOSAL: ("601.2e",),
    Reason.MANA_ABILITY_UNAVAILABLE: ("601.2g",),
    Reason.SUMMONING_SICK: ("601.2g",),
    Reason.ALREADY_TAPPED: ("601.2g", "601.2h"),
    Reason.ALREADY_UNTAPPED: ("601.2g", "601.2h"),
    Reason.MANA_ABILITY_COST_UNPAYABLE: ("601.2g",),
    Reason.INVALID_MANA_CHOICE: ("601.2g",),
    Reason.INSUFFICIENT_MANA: ("601.2h",),
    Reason.INVALID_PAYMENT_CHOICE: ("601.2h",),
    Reason.INSUFFICIENT_LIFE: ("601.2h",),
    Reason.ADDITIONAL_COST_UNPAID: ("601.2h",),
    Reason.INVALID_OBJECT_PAYMENT: ("601.2h",),
    Reason.UNPAYABLE_COST: ("601.2h",),
    Reason.INVALID_ATTACKER: (),
    Reason.INVALID_BLOCKER: (),
    Reason.CAST_REQUIRED: (),
    Reason.INVALID_ACTION: (),
}
