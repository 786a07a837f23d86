"""The oracle as an engine: the same contract an external engine implements."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .scenario import run_case
from .trace import explain_lines

VERSION = "0.1.0"

# Every feature of cases/features.yaml the oracle supports (hard-coded: the oracle does no I/O).
FEATURES: frozenset[str] = frozenset({
    "casting", "timing", "cast_prohibitions", "targets", "modes", "total_cost", "affinity_instances", "cost_increase", "cost_reduction", "cost_floor", "cost_set",
    "lock_in", "alternative_cost", "additional_cost", "x", "hybrid", "phyrexian", "mana_value", "color",
    "mana_cost_parse", "mana_abilities", "mana_pool", "payment", "summoning_sickness", "untap_symbol",
    "could_produce", "mana_replacement", "mana_trigger", "illegal_rewind", "prowl", "prototype", "flashback", "granted_flashback", "flashback_choice",
    "color_change",
    "defined_power", "base_power", "animated_artifacts", "noncreature_pt_effects", "copy_exceptions", "copy_exception_counters", "copy_chains", "copy_linked_triggers", "ability_copies",
    "cast_copy",
    "ability_mana", "predefined_tokens", "cast_triggers", "unless_payments", "life_for_mana", "snow_mana", "any_type_mana", "any_type_permission", "permission_limits", "cast_from_library",   # 106.6 restrictions naming abilities; 111.10 (issue 14 point 3)
    "face_down_exile", "borrowed_abilities", "activation_cost_increase", "activation_cost_reduction",
    "activation_any_colour",   # 406.3, 601.3f, 602.1e (issue 14 point 5)
    "multikicker", "kicked_modes", "opponent_chosen_modes", "buyback", "entwine", "escalate", "keyword_object_costs", "discard_costs", "counted_effects",
    "changeling", "type_change", "combat", "zone_change", "copy", "control_change", "lki", "resolution",
    "multiplayer", "state_based_actions", "variable_y", "text_x", "ability_x", "pay_mana_cost",
    "split_cards", "double_faced", "meld", "gained_abilities", "delayed_triggers", "dies_triggers", "become_copy",
    "auras", "aura_copy", "copied_linked_abilities",
    "special_actions", "cast_free", "cast_from_opponents_library", "graveyard_casting", "cast_if_able", "flash_permission", "replacement_order", "auto_payment", "auto_payment_choices",
    "invented_cards", "counted_cost_modifiers", "coloured_only_reductions", "chosen_creature_type_reductions", "linked_type_reductions",
    "undaunted", "undaunted_instances", "delve", "improvise", "granted_improvise", "emerge", "emerge_from", "surge", "return_costs",
    "dash", "dash_return", "awaken", "exile_instead_of_graveyard", "drain_mana",
})


class OracleEngine:
    """The reference engine: pure, deterministic, no I/O."""

    name = "castrules-oracle"
    version = VERSION
    features = FEATURES

    @property
    def reference(self) -> bool:
        """The harness's way to recognise the reference oracle (for its explanations and its
        known-failures file): true for this class only, so a subclass that changes a rule
        (a mutant) is an engine like any other."""
        return type(self) is OracleEngine

    def run(self, request: Mapping[str, Any]) -> dict:
        """Run one case request: {"case": {...}, "cards": {...}, "observe": [...]}."""
        from .errors import RequestError
        if not isinstance(request, Mapping) or "case" not in request:
            raise RequestError("a request needs a 'case'")
        return run_case(request["case"], request.get("cards") or {}, request.get("observe") or ())

    def explain(self, request: Mapping[str, Any]) -> list[str]:
        """A human-readable trace of the run, one decision per line with its rule."""
        result = self.run(request)
        lines = explain_lines(result["trace"])
        for n, step in enumerate(result["steps"], start=1):
            verdict = "legal" if step.get("legal") else f"ILLEGAL ({step.get('reason')} at {step.get('substep', '-')})"
            extra = f", total {step['total_cost']}" if "total_cost" in step else ""
            lines.append(f"step {n}: {verdict}{extra}")
        return lines
