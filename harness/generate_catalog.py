"""What the catalog offers the case generator: each card's facts (``CardInfo``) and the
catalog sorted by role (``Pools``), read from the catalog's data, never from the rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from castrules.harness.catalog import Catalog

_SYMBOL = re.compile(r"\{([^{}]*)\}")


def _abilities(card: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [a for a in card.get("abilities") or () if isinstance(a, Mapping)]


def _cost_parts(cost: Any) -> set[str]:
    """{"tap", "untap", "mana", "sacrifice"...} for a mana ability's cost, string or mapping."""
    if isinstance(cost, str):
        out = set()
        for sym in _SYMBOL.findall(cost):
            out.add({"T": "tap", "Q": "untap"}.get(sym, "mana"))
        return out
    if isinstance(cost, Mapping):
        return {k for k, v in cost.items() if v}
    return set()


def symbols(cost: str | None) -> list[str]:
    return _SYMBOL.findall(cost or "")


def hybrid_halves(sym: str) -> tuple[str, ...]:
    """The 601.2b halves of a hybrid symbol ('W/U' -> W, U; '2/W' -> 2, W); () otherwise."""
    parts = sym.split("/")
    if parts[-1] == "P":
        parts = parts[:-1]
    return tuple(parts) if len(parts) == 2 else ()


def is_phyrexian(sym: str) -> bool:
    return sym.endswith("/P")


@dataclass(frozen=True)
class CardInfo:
    name: str
    types: frozenset[str]
    mana_cost: str | None
    prototype_cost: str | None
    prowl: str | None
    kicker: str | None
    targets: tuple[str, ...]             # per target: player / opponent / creature / permanent / any / spell
    sacrifices: int
    mana_abilities: tuple[frozenset[str], ...] = ()   # per mana ability: cost parts (+ "choice" if it needs a produce)
    abilities: frozenset[str] = frozenset()           # kinds of its abilities
    keywords: frozenset[str] = frozenset()
    alternative_costs: tuple[str, ...] = ()
    divide: int = 0                                   # the amount a spell divides among its targets (601.2d)
    linked_copy_trigger: bool = False                 # a copy effect with a linked trigger (603.11; Superior Spider-Man)

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def castable(self) -> bool:
        return "Land" not in self.types and (self.mana_cost is not None or self.prototype_cost is not None)


def card_info(card: Mapping[str, Any]) -> CardInfo:
    type_line = str(card.get("type_line", ""))
    types = frozenset(type_line.split("—")[0].split())
    proto = card.get("prototype")
    targets = tuple(str(t.get("what", "any")) for t in card.get("targets") or () if isinstance(t, Mapping))
    sacrifices = sum(int(a.get("count", 1)) if isinstance(a, Mapping) else 1 for a in card.get("additional_costs") or ())
    mana: list[frozenset[str]] = []
    for ab in _abilities(card):
        if ab.get("kind") != "mana":
            continue
        parts = _cost_parts(ab.get("cost"))
        add = ab.get("add")
        if not isinstance(add, str) or "/" in add:
            parts.add("choice")
        mana.append(frozenset(parts))
    alternatives = card.get("alternative_costs") or {}
    return CardInfo(
        name=str(card["name"]), types=types, mana_cost=card.get("mana_cost"),
        prototype_cost=proto.get("mana_cost") if isinstance(proto, Mapping) else None,
        prowl=card.get("prowl"), kicker=card.get("kicker"), targets=targets, sacrifices=sacrifices,
        mana_abilities=tuple(mana), abilities=frozenset(str(a.get("kind")) for a in _abilities(card)),
        keywords=frozenset(str(k).lower() for k in card.get("keywords") or ()),
        alternative_costs=tuple(alternatives) if isinstance(alternatives, Mapping) else (),
        divide=card.get("divide") if isinstance(card.get("divide"), int) else 0,
        linked_copy_trigger=any(bool(a.get("exile_copied")) for a in _abilities(card)))


_SYMBOL_YZ = re.compile(r"\{[YZ]\}")   # 107.3p variables: the generator announces only x
                                         # (cards with text_x, 107.3c/f, are left out too)

_MULTI_FACE = frozenset({"halves", "back_face", "meld"})   # cards with several faces (202.3b-d) and
_GRANTS_OR_DELAYS = re.compile(r"'(grant_ability|grant_flashback|delayed|suspend|reveal|discard|cast_if_able"
                               r"|flash_permission|conditional_flash|abilities_of|activation_any_color"
                               r"|activation_cost_increase|activation_cost_reduction|enchant)'")  # gained abilities / delayed
# triggers are left out, and cards needing steps or choices the generator doesn't make (suspend, a
# special action; reveal and discard costs; effects that instruct a cast on resolution; flash
# permissions, whose extra cost (601.3c) the generator doesn't announce; flashback granted to a
# card in a graveyard, which the generator never casts from there; borrowed abilities and
# activation cost changes, whose features validate requires of any case setting such a card up;
# Auras, whose copy choice as they enter the generator doesn't make)

_POOLS: dict[int, tuple[Catalog, "Pools"]] = {}


@dataclass(frozen=True)
class Pools:
    """The catalog sorted by role."""

    cards: Mapping[str, CardInfo]
    spells: tuple[str, ...]
    modifiers: tuple[str, ...]         # static abilities that change costs, types, mana, permissions
    sources: tuple[str, ...]           # permanents with mana abilities
    creatures: tuple[str, ...]
    rogues: tuple[str, ...]            # creatures of a type prowl cards care about, and changelings

    @classmethod
    def of(cls, catalog: Catalog) -> "Pools":
        cached = _POOLS.get(id(catalog))
        if cached is not None and cached[0] is catalog:
            return cached[1]
        pools = cls._build(catalog)
        _POOLS[id(catalog)] = (catalog, pools)
        return pools

    @classmethod
    def _build(cls, catalog: Catalog) -> "Pools":
        infos = {name: card_info(card) for name, card in sorted(catalog.cards.items())
                 if isinstance(card, Mapping) and "modes" not in card and "text_x" not in card
                 and not _SYMBOL_YZ.search(str(card.get("mana_cost") or ""))
                 and not _MULTI_FACE.intersection(card) and not _GRANTS_OR_DELAYS.search(str(card))}
        static = {"cost_modifier", "cost_floor", "cost_set", "cast_permission", "type_change", "grant_prowl",
                  "mana_replacement", "keyword_grant", "cast_prohibition"}
        spells = tuple(n for n, i in infos.items() if i.castable)
        modifiers = tuple(n for n, i in infos.items() if i.abilities & static and not i.is_creature)
        sources = tuple(n for n, i in infos.items() if i.mana_abilities)
        creatures = tuple(n for n, i in infos.items() if i.is_creature and i.mana_cost is not None)
        prowl_types = {"Rogue", "Dinosaur"}
        rogues = tuple(n for n in creatures
                       if prowl_types & set(str(catalog.cards[n].get("type_line", "")).split())
                       or "changeling" in infos[n].keywords)
        return cls(infos, spells, modifiers, sources, creatures, rogues or creatures)
