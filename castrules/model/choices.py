"""Choices a player makes while a spell resolves (the `resolve` step's `choices`), for the ones
with a structure of their own."""
from __future__ import annotations

from dataclasses import dataclass

from .build import Model
from .step_base import ManaActivation
from .vocab import PayMode


@dataclass(frozen=True)
class PayUnless(Model):
    """`resolve: {choices: {pay_unless: ...}}`: the player pays the cost an "unless" effect
    offers (118.12a) with these mana abilities, then (pay: auto) whatever the engine finds."""

    mana_abilities: tuple[ManaActivation, ...] = ()
    pay: PayMode | None = None

    @property
    def auto_pay(self) -> bool:
        """As for a cast: listed when mana abilities are listed, auto otherwise."""
        mode = self.pay or (PayMode.LISTED if self.mana_abilities else PayMode.AUTO)
        return mode is PayMode.AUTO
