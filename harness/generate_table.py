"""The table a generated case is laid out on: its objects, steps, choices and the features
they need (``Builder``), and the small draws every part of the generator shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from castrules.harness import generate_strategies as st

from castrules.harness.generate_catalog import CardInfo, Pools

PLAYERS = ("A", "B", "C")
MANA_LETTERS = ("W", "U", "B", "R", "G", "C")


@dataclass
class Builder:
    """The case being drawn: objects in setup order, steps, setup choices, needed features."""

    pools: Pools
    players: list[str]
    objects: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    choices: dict = field(default_factory=dict)
    features: set[str] = field(default_factory=set)
    counter: int = 0

    def new_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def add(self, card: str, zone: str, player: str, prefix: str, **state: Any) -> str:
        oid = self.new_id(prefix)
        obj = {"id": oid, "card": card, "zone": zone}
        obj["controller" if zone == "battlefield" else "owner"] = player
        obj.update({k: v for k, v in state.items() if v})
        self.objects.append(obj)
        return oid

    def on_battlefield(self, player: str | None = None, creatures: bool | None = None) -> list[str]:
        out = []
        for o in self.objects:
            if o["zone"] != "battlefield" or (player and o.get("controller") != player):
                continue
            if creatures is not None and self.pools.cards[o["card"]].is_creature != creatures:
                continue
            out.append(o["id"])
        return out

    def card(self, oid: str) -> CardInfo:
        return self.pools.cards[next(o["card"] for o in self.objects if o["id"] == oid)]


def chance(draw, n: int) -> bool:
    """True with probability 1/n; shrinks to False (the common, simpler path)."""
    return draw(st.integers(0, n - 1)) == 1


def pool_text(draw, max_size: int) -> str:
    letters = draw(st.lists(st.sampled_from(MANA_LETTERS), max_size=max_size))
    return "".join("{%s}" % t for t in sorted(letters, key=MANA_LETTERS.index))


def activation(draw, b: Builder, oid: str, player: str | None = None) -> dict:
    info = b.card(oid)
    index = draw(st.integers(0, len(info.mana_abilities) - 1)) if info.mana_abilities else 0
    out: dict[str, Any] = {"object": oid}
    if player:
        out = {"player": player, **out}
    if index or chance(draw, 5):
        out["ability"] = index
    parts = info.mana_abilities[index] if info.mana_abilities else frozenset()
    if "choice" in parts and not chance(draw, 4) or chance(draw, 16):
        out["produce"] = draw(st.sampled_from(MANA_LETTERS))
    if "untap" in parts:
        b.features.add("untap_symbol")
    return out



def target(draw, b: Builder, what: str, me: str) -> str | None:
    creatures = b.on_battlefield(creatures=True)
    permanents = b.on_battlefield()
    if what == "opponent":
        options = [p for p in b.players if p != me] + [me]
    elif what == "player":
        options = list(b.players)
    elif what == "creature":
        options = creatures or permanents
    elif what == "permanent":
        options = permanents
    else:
        options = list(b.players) + creatures
    return draw(st.sampled_from(options)) if options else None
