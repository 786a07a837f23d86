"""Helpers for the oracle's tests: the catalog and a compact way to run a case."""
from __future__ import annotations

import functools
from pathlib import Path

import yaml

from castrules.oracle import OracleEngine

ROOT = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=None)
def catalog() -> dict:
    cards = {}
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
