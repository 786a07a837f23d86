"""The card catalog: every ``cases/catalog/*.yaml`` file, each a list of cards, indexed by name."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from castrules.harness import paths, schemas
from castrules.harness.documents import DocumentError, load_document, line_of
from castrules.harness.problems import Problem
from castrules.harness.excerpts import quoted


@dataclass(frozen=True)
class Catalog:
    cards: Mapping[str, Mapping[str, Any]]
    files: Mapping[str, str] = field(default_factory=dict)   # card name -> file it came from

    def __contains__(self, name: object) -> bool:
        return name in self.cards

    def subset(self, names) -> dict[str, Mapping[str, Any]]:
        return {n: self.cards[n] for n in sorted(set(names)) if n in self.cards}


def load_catalog(catalog_dir: Path, root: Path, validate: bool = True,
                 schema_root: Path | None = None) -> tuple[Catalog, list[Problem]]:
    """Load every catalog file; schema-check each card when ``validate``; report duplicates.
    ``root`` names the files and keeps them inside it; ``schema_root`` (default ``root``) holds
    schema/ (an engine project's local catalog is checked with the suite's schemas)."""
    cards: dict[str, Mapping[str, Any]] = {}
    files: dict[str, str] = {}
    problems: list[Problem] = []
    have_schema = validate and ((schema_root or root) / "schema" / "card.schema.json").exists()
    for path in sorted(catalog_dir.glob("*.y*ml")) + sorted(catalog_dir.glob("*.json")):
        rel = paths.relative(path, root)
        try:
            doc = load_document(path, fast=True, root=root)
        except DocumentError as exc:
            problems.append(Problem(rel, exc.pointer, exc.message, exc.line, "syntax"))
            continue
        if not isinstance(doc, list):
            problems.append(Problem(rel, "", "expected a list of cards", 1, "schema"))
            continue
        for index, card in enumerate(doc):
            pointer = f"/{index}"
            if have_schema:
                bad = list(schemas.errors("card", card))
                for sub, message in bad:
                    problems.append(Problem(rel, pointer + sub, message, line_of(path, pointer + sub), "schema"))
                if bad:
                    continue
            name = card.get("name") if isinstance(card, dict) else None
            if not isinstance(name, str):
                problems.append(Problem(rel, pointer, "expected a card with a 'name'", line_of(path, pointer), "schema"))
                continue
            if name in cards:
                problems.append(Problem(rel, pointer + "/name",
                                        f"card {quoted(name)} is already defined in {files[name]}; each card appears once",
                                        line_of(path, pointer + "/name"), "duplicate_card"))
                continue
            problems += [Problem(rel, pointer + "/modes", message, line_of(path, pointer), "chooser_without_opponent")
                         for message in _chooser_problems(card)]
            problems += [Problem(rel, pointer, message, line_of(path, pointer), "tapper_outside_mana_trigger")
                         for message in _tapper_problems(card)]
            cards[name] = card
            files[name] = rel
    return Catalog(cards, files), problems


def _chooser_problems(card: Mapping[str, Any]) -> list[str]:
    """A card whose effects or targets refer to the opponent who chose its mode ("that player",
    601.6) must be one whose mode an opponent chooses: anywhere else nobody is that player."""
    text, modes = json.dumps(card), card.get("modes")
    if (isinstance(modes, Mapping) and modes.get("chooser") == "opponent") or not (
            '"player": "chooser"' in text or '"chooser_controls": true' in text):
        return []
    return [f"{card['name']} refers to the opponent who chose its mode (player: chooser, chooser_controls), but "
            "no opponent chooses its modes (modes.chooser: opponent)"]



def _tapper_problems(card: Mapping[str, Any]) -> list[str]:
    """`player: tapper` is the player who tapped a permanent for mana (106.12a, Manabarbs's "that
    player"): only the stack effect of a mana_trigger has one; anywhere else the effect would
    quietly reach nobody."""
    def stray(node: Any, inside: bool) -> bool:
        if isinstance(node, Mapping):
            if node.get("player") == "tapper" and not inside:
                return True
            trigger = node.get("kind") == "mana_trigger"
            return any(stray(v, inside or (trigger and k == "effect")) for k, v in node.items())
        return isinstance(node, list) and any(stray(v, inside) for v in node)
    if not stray(card, False):
        return []
    return [f"{card['name']} has an effect on `player: tapper` outside a mana_trigger's effect, where nobody "
            "tapped a permanent for mana"]
