"""The real rules table: every seam of `oracle.seams` bound to the oracle's own rule.

Imported by the oracle package itself (`oracle/__init__.py`), so the table is in place before
any rule runs; it sits at the top of the oracle's imports and nothing below imports it.
"""
from __future__ import annotations

from . import (activation_costs, announcements, awaken, cast_permissions, casting, characteristics, copy_exceptions,
               copying, costs, damage, discard_costs, effects, face_down, free_casts, granted_flashback, keyword_costs,
               keyword_payment, mana_abilities, mode_chooser, payer, prowl, resolution, scenario, snapshot, spending,
               targets, total_cost, turns, unless, zones)
from .seams import Rules, install_real

REAL_RULES = Rules(
    total_cost=total_cost.determine, cost_modifiers=total_cost.modifiers,
    modifier_applies=total_cost.modifier_applies, modifier_matches=characteristics.matches,
    modifier_count=total_cost.modifier_count, order_reductions=total_cost.order_reductions,
    cost_floor=costs.apply_floor, cost_set=costs.set_total, reduce_generic=costs.reduce_generic,
    reduce_typed=costs.reduce_typed,
    one_alternative_cost=casting.one_alternative_cost, mode_chooser=mode_chooser.choose, pay_spell=casting.pay,
    one_target_word=targets.check_one_word_once,
    library_top=cast_permissions.on_top, free_cast_card=free_casts.check_card,
    object_payment=keyword_payment.object_payment, life_payable=payer.life_payable,
    check_discard=discard_costs.check_discard, unless_cost=unless.offered_cost,
    may_look=face_down.may_look, own_permission=cast_permissions.own_permission,
    reaches_others_cards=cast_permissions.reaches_others_cards,
    permission_limit=cast_permissions.limited_out, prohibition_zone=cast_permissions.prohibition_zone,
    flashback_of=granted_flashback.flashback_of,
    prowl_enabler=prowl.prowl_enabler, leave_stack_zone=zones.leave_stack_zone, dash_return=resolution.dash_return,
    awaken_land=awaken.awaken_land,
    keyword_costs=keyword_costs.optional_costs, escalate_count=keyword_costs.escalate_count,
    keyword_object_costs=keyword_costs.keyword_object_costs, emerge_quality=announcements.emerge_quality,
    characteristics=characteristics.compute_characteristics, cost_mana_value=characteristics.cost_mana_value,
    object_view=snapshot.object_view,
    activation_increases=activation_costs.increases, activation_reductions=activation_costs.reductions,
    activation_any_colour=activation_costs.any_colour,
    check_tap_cost=payer.check_tap, mana_ability_units=mana_abilities.base_units,
    spend_restriction=spending.may_pay, auto_supplies=mana_abilities.supplies,
    copy_spell=copying.copy_spell, copy_permanent=copying.copy_permanent, copy_for_each=copying.copy_for_each,
    copy_ability=copying.copy_ability,
    copy_target_legal=copying.legal_for_each_target, copy_additional_effects=copy_exceptions.additional_effects,
    copy_linked_triggers=copy_exceptions.linked_triggers,
    run_step=scenario.run_step, next_turn=turns.next_turn, empty_pools=turns.empty_pools,
    combat_damage_object=damage.damage_object, count_permanents=effects.count_permanents,
)

install_real(REAL_RULES)
