"""Helpers for the oracle's tests: the catalog and a compact way to run a case."""
from __future__ import annotations

import functools
from pathlib import Path

import yaml

from castrules.oracle import OracleEngine

ROOT = Path(__file__).resolve().parents[2]


# Invented cards these unit tests were written with, kept here since the suite's cases moved to
# printed cards (issue 14 point 1) and the catalog dropped them: each has exactly the one ability
# its tests probe (X = 0 in a suspend cost, a red-spells flash permission, a bare {Q} mana ability,
# an X counting the lands you control, a prohibition by power, a red-spells graveyard permission).
UNIT_TEST_CARDS = [
    {"name": "Test Slow Blast", "real": False, "mana_cost": "{4}{R}{R}", "type_line": "Sorcery", "text": "t",
     "suspend": {"time_counters": "X", "cost": "{X}{R}"}, "targets": [{"what": "any"}],
     "spell": [{"damage": {"amount": 5, "target": 0}}]},
    {"name": "Test Red Haste-Caster", "real": False, "mana_cost": "{1}{R}", "type_line": "Creature — Human Wizard",
     "power": "1", "toughness": "1", "text": "t", "abilities": [{"kind": "flash_permission", "spells": {"colors": ["R"]}}]},
    {"name": "Test Untap Battery", "real": False, "mana_cost": "{2}", "type_line": "Artifact", "text": "t",
     "abilities": [{"kind": "mana", "cost": "{Q}", "add": "{C}"}]},
    {"name": "Test Land Count Bolt", "real": False, "mana_cost": "{1}{R}", "type_line": "Instant", "text": "t",
     "targets": [{"what": "any"}], "text_x": {"count": {"types": ["Land"], "controller": "you"}},
     "spell": [{"damage": {"amount": "X", "target": 0}}]},
    {"name": "Test Power Gate", "real": False, "mana_cost": "{2}", "type_line": "Enchantment", "text": "t",
     "abilities": [{"kind": "cast_prohibition", "players": "opponents",
                    "spells": {"types": ["Creature"], "power_min": 3}}]},
    {"name": "Test Red Recaller", "real": False, "mana_cost": "{2}", "type_line": "Artifact", "text": "t",
     "abilities": [{"kind": "cast_permission", "from": ["graveyard"], "spells": {"colors": ["R"]}}]},
]


@functools.lru_cache(maxsize=None)
def catalog() -> dict:
    cards = {c["name"]: c for c in UNIT_TEST_CARDS}
    for path in sorted((ROOT / "cases" / "catalog").glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            cards[entry["name"]] = entry
    return cards


def run(setup: dict, steps: list, observe=None, extra_cards: list | None = None) -> dict:
    cards = dict(catalog())
    for c in extra_cards or []:
        cards[c["name"]] = c
    names = {o["card"] for o in setup.get("objects", [])}
    names |= {c["name"] for c in extra_cards or []}
    request = {"case": {"id": "test/x", "features": ["casting"], "setup": setup, "steps": steps},
               "cards": {n: cards[n] for n in names if n in cards},
               "observe": list(range(len(steps) + 1)) if observe is None else observe}
    return OracleEngine().run(request)


def obj(result: dict, n: int, oid: str) -> dict:
    return result["snapshots"][str(n)]["objects"][oid]


def player(result: dict, n: int, name: str) -> dict:
    return result["snapshots"][str(n)]["players"][name]
