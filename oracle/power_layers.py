"""Power and toughness beyond the printed values (208.2a, 613.4a-b): characteristic-defining
abilities counting graveyards, and permanents animated by another permanent's static ability."""
from __future__ import annotations

from castrules.model.abilities import Ability, AnimateAll, DefinePT

from .state import CARD, Obj, State

CARD_TYPE_NAMES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker",
                   "Sorcery")


def defined_pt(state: State, abilities: tuple[Ability, ...], power: int | None,
                toughness: int | None) -> tuple[int | None, int | None]:
    """Layer 7a (613.4a): a characteristic-defining ability sets power and toughness in every zone
    (604.3, 208.2a). Graveyard cards are counted by their printed card types, which no effect in
    the format changes there (and which keeps a Tarmogoyf in a graveyard from counting itself)."""
    for ab in abilities:
        if isinstance(ab, DefinePT):
            cards = [o for o in state.in_zone("graveyard") if o.kind is CARD]
            if ab.count == "card_types_in_graveyards":
                n = len({t for o in cards for t in o.base.types if t in CARD_TYPE_NAMES})
            else:
                n = sum(1 for o in cards if "Creature" in o.base.types)
            return n + ab.power_plus, n + ab.toughness_plus
    return power, toughness


def animate_all(state: State, obj: Obj, types: list[str], mv: int) -> list[tuple[int, int, int]]:
    """March of the Machines: a noncreature permanent of the card type also becomes a creature
    (613.1d; "Creature" is added to `types`), with power and toughness each its mana value `mv`,
    returned as (timestamp, power, toughness) setters for layer 7b (613.4b). Spells are untouched."""
    if obj.zone != "battlefield" or "Creature" in types:
        return []
    found = [(src.timestamp, mv, mv) for src, ab in state.watching_abilities(AnimateAll) if ab.card_type in types]
    if found:
        types.append("Creature")
    return found
