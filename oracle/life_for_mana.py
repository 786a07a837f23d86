"""Life paid rather than coloured mana once the total is locked (K'rrik, Son of Yawgmoth: 2 life
for each {B} in a cost its controller pays).

The effect changes how a cost may be paid, not the cost: the total locked at 601.2f keeps its
coloured symbols (and is what `total_cost` reports); at 601.2h the caster pays, for as many of
those symbols as the cast's `life_for_mana` names, the effect's life instead of the mana (119.4:
life can be paid only up to the life total). Asking for it without such an effect, or for more
symbols than the total holds, is refused (`invalid_payment_choice`)."""
from __future__ import annotations

from typing import Sequence

from castrules.model.abilities import LifeForMana

from .characteristics import chars
from .costs import ConcreteCost, ManaType, concrete_text
from .errors import Illegal
from .reasons import Reason
from .state import State
from .trace import Trace


def _life_per_symbol(state: State, player: str, colour: str) -> int | None:
    """The life a permanent `player` controls lets them pay for one {colour}, if any (the least)."""
    offers = [ab.life for obj in state.battlefield() if obj.controller == player
              for ab in chars(state, obj).abilities if isinstance(ab, LifeForMana) and ab.color == colour]
    return min(offers) if offers else None


def life_instead(state: State, player: str, total: ConcreteCost, asked: Sequence[tuple[str, int]],
                 trace: Trace | None) -> tuple[ConcreteCost, int]:
    """The mana still to pay and the life paid instead, for the symbols `asked` (601.2h)."""
    if not asked:
        return total, 0
    colored = {t: total.colored[t] for t in ManaType}
    life = 0
    for colour, n in asked:
        per = _life_per_symbol(state, player, colour)
        if per is None:
            raise Illegal(Reason.INVALID_PAYMENT_CHOICE, f"no effect {player} controls lets them pay life rather "
                                                         f"than {{{colour}}}", substep="601.2h", rules=("601.2h",))
        have = colored[ManaType(colour)]
        if have < n:
            raise Illegal(Reason.INVALID_PAYMENT_CHOICE, f"the mana left to pay of the locked total, {concrete_text(total)}, has {have} "
                          f"{{{colour}}}, not {n}", substep="601.2h", rules=("601.2f", "601.2h"))
        colored[ManaType(colour)] = have - n
        life += per * n
        if trace is not None:
            trace.add(("601.2h", "119.4"), f"{player} will pay {per * n} life rather than {{{colour}}} x{n}")
    return ConcreteCost(colored, total.generic, total.life, total.snow), life
