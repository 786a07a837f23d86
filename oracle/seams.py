"""The oracle's seams: the rule functions a variant of the oracle may replace.

The oracle reaches each of these rules through `rules()` at the point where it applies the
rule, never by a direct call, so a variant (a mutant in mutation testing, ``castrules.mutation``)
can run the very same oracle with one rule swapped, without patching any module. The table in
effect is a `ContextVar`: `using(table)` sets it for the calling context only, so concurrent
runs (threads, asyncio tasks) each see their own table and no lock is needed. Outside
`using`, `rules()` is the real table, which `oracle.rulebook` builds and installs when the
oracle package is imported.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterator

Rule = Callable[..., Any]


@dataclass(frozen=True)
class Rules:
    """One entry per seam, named for the rule it applies; the comment names where it is read."""

    # 601.2f: the total cost and its parts (casting.pay, total_cost.determine / modifiers)
    total_cost: Rule                # total_cost.determine
    cost_modifiers: Rule            # total_cost.modifiers
    modifier_applies: Rule          # total_cost.modifier_applies (tapped, whose spells)
    modifier_matches: Rule          # the spell filter of a cost modifier (characteristics.matches)
    modifier_count: Rule            # total_cost.modifier_count ("for each", affinity)
    order_reductions: Rule          # total_cost.order_reductions (601.2f, 118.7e)
    cost_floor: Rule                # costs.apply_floor (Trinisphere)
    cost_set: Rule                  # costs.set_total (an invented effect setting the total's mana, 601.2f)
    reduce_generic: Rule            # costs.reduce, 118.7a
    reduce_typed: Rule              # costs.reduce, 118.7b-d
    # 601.2b-i: announcing and paying
    one_alternative_cost: Rule      # casting.one_alternative_cost (118.9a)
    mode_chooser: Rule              # mode_chooser.choose: who chooses the modes, an opponent's choice checked (601.6)
    one_target_word: Rule           # targets.check_one_word_once: one word "target", never the same object twice (601.2c)
    library_top: Rule               # cast_permissions.on_top: a library permission reaches its top card only (601.3)
    free_cast_card: Rule            # free_casts.check_card: the cards a resolving effect's free cast reaches (608.2g)
    pay_spell: Rule                 # casting.pay (601.2f-i)
    object_payment: Rule            # keyword_payment.object_payment (delve, improvise: 702.66a, 702.126a)
    life_payable: Rule              # payer.life_payable (119.4), the check of every life payment
    check_discard: Rule             # discard_costs.check_discard: the cards a discard cost names (118.8, 601.2h)
    unless_cost: Rule               # unless.offered_cost: the cost an "unless" effect offers (118.12a, 107.3a, 608.2h)
    prowl_enabler: Rule             # prowl.prowl_enabler (702.76a)
    reaches_others_cards: Rule      # cast_permissions.reaches_others_cards: a linked permission, any owner's card (607.2)
    permission_limit: Rule          # cast_permissions.limited_out: a permission's turns and spells each turn (601.3)
    prohibition_zone: Rule          # cast_permissions.prohibition_zone: the zones a prohibition covers (601.3)
    flashback_of: Rule              # granted_flashback.flashback_of: the flashback a card is cast with (702.34a)
    own_permission: Rule            # cast_permissions.own_permission: a card's own permission to be cast from a zone (601.3, 406.3a)
    may_look: Rule                  # face_down.may_look: who may look at a face-down exiled card (406.3, 601.3f)
    leave_stack_zone: Rule          # zones.leave_stack_zone: where a card leaving the stack goes (702.34a)
    dash_return: Rule               # resolution.dash_return: a dashed permanent's return at the next end step (702.109a)
    awaken_land: Rule               # effects.awaken_land: the awakened land's counters and lasting animation (702.113a)
    keyword_costs: Rule             # keyword_costs.optional_costs: buyback and entwine costs (702.27a, 702.42a)
    escalate_count: Rule            # keyword_costs.escalate_count: modes that pay escalate (702.120a)
    emerge_quality: Rule            # announcements.emerge_quality: what emerge sacrifices (702.119a-b)
    keyword_object_costs: Rule      # keyword_costs.keyword_object_costs: entwine / escalate paid with objects
    # characteristics and what an engine observes
    characteristics: Rule           # characteristics.compute_characteristics
    cost_mana_value: Rule           # characteristics.cost_mana_value (202.3)
    object_view: Rule               # snapshot.object_view
    # mana abilities (605, 106.7, 302.6, 107.5-6)
    activation_increases: Rule      # activation_costs.increases: activation cost increases (602.2b, 601.2f)
    activation_reductions: Rule     # activation_costs.reductions: activation cost reductions, not below one mana (601.2f)
    activation_any_colour: Rule     # activation_costs.any_colour: mana of any colour for a permanent's activation costs (602.1e)
    check_tap_cost: Rule            # payer.check_tap (107.5, 107.6, 302.6), the check of every {T} / {Q}
    spend_restriction: Rule         # spending.may_pay (106.6): what restricted mana may be spent on
    auto_supplies: Rule             # mana_abilities.supplies: the mana abilities pay: auto may activate (601.2g, 605.3a)
    mana_ability_units: Rule        # mana_abilities.base_units
    # copies (707.10, 707.9)
    copy_spell: Rule                # copying.copy_spell
    copy_permanent: Rule            # copying.copy_permanent
    copy_for_each: Rule             # copying.copy_for_each
    copy_ability: Rule              # copying.copy_ability: a copy of an ability on the stack, its source (707.10b)
    copy_target_legal: Rule         # copying.legal_for_each_target
    copy_additional_effects: Rule   # copy_exceptions.additional_effects: which copy effects' extra counters happen (707.9e)
    copy_linked_triggers: Rule      # copy_exceptions.linked_triggers: which copy effects' linked triggers trigger (707.9g)
    # game flow
    run_step: Rule                  # scenario.run_step (rewinding an illegal action, 730)
    next_turn: Rule                 # turns.next_turn
    empty_pools: Rule               # turns.empty_pools (106.4)
    combat_damage_object: Rule      # damage.damage_object, as combat damage is dealt (510.2)
    count_permanents: Rule          # effects.count_permanents: an effect's "for each" count (608.2h)


SEAMS: tuple[str, ...] = tuple(f.name for f in fields(Rules))


_REAL: list[Rules] = []          # the real table, installed once by oracle.rulebook


def install_real(table: Rules) -> None:
    """Record the real table (oracle.rulebook does, as the oracle package is imported: this
    module imports no rule module, so the rule modules may all read it)."""
    if _REAL and _REAL[0] is not table:
        raise RuntimeError("the oracle's real rules table is installed once")
    _REAL[:] = [table]


def real_rules() -> Rules:
    """The table of the real rules."""
    if not _REAL:
        raise RuntimeError("the oracle's rules table is not installed: import castrules.oracle first")
    return _REAL[0]


_CURRENT: ContextVar[Rules | None] = ContextVar("castrules_oracle_rules", default=None)


def rules() -> Rules:
    """The table in effect in this context (the real rules unless a variant is running)."""
    table = _CURRENT.get()
    if table is not None:
        return table
    if not _REAL:       # what real_rules() says (not called here: rules() runs ~50,000 times a suite run)
        raise RuntimeError("the oracle's rules table is not installed: import castrules.oracle first")
    return _REAL[0]


@contextmanager
def using(table: Rules) -> Iterator[Rules]:
    """Run the oracle with `table` for the duration of the block, in this context only."""
    if not isinstance(table, Rules):
        raise TypeError(f"using() needs a Rules table, not {type(table).__name__}")
    token = _CURRENT.set(table)
    try:
        yield table
    finally:
        _CURRENT.reset(token)
