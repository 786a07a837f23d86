"""Invented cards and the feature ``invented_cards``.

Real engines (XMage, Forge and most others) implement printed cards by name and cannot build a
card from the catalog's structured data, so a case that uses an invented card (``real: false``)
must say so by listing the feature ``invented_cards``: an engine that knows only printed cards
leaves the feature undeclared and gets the case as ``unsupported``, never as a false failure.
A case listing the feature without using such a card would be withheld from those engines for
nothing, so that is a problem too.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from castrules.harness.catalog import Catalog
from castrules.harness.problems import Problem

FEATURE = "invented_cards"


def card_uses(doc: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(JSON pointer, card name) for every catalog card a case document names: each set-up
    object's card and a melded permanent's partner (202.3c). Tokens and copies are made from
    objects already set up or from characteristics written in a card, so they name no card."""
    for i, obj in enumerate((doc.get("setup") or {}).get("objects") or ()):
        if isinstance(obj.get("card"), str):
            yield f"/setup/objects/{i}/card", obj["card"]
        if isinstance(obj.get("melded_with"), str):
            yield f"/setup/objects/{i}/melded_with", obj["melded_with"]


def is_invented(name: str, catalog: Catalog) -> bool:
    """A catalog card with ``real: false`` (an unknown card is another check's problem)."""
    return (catalog.cards.get(name) or {}).get("real") is False


def invented_uses(doc: Mapping[str, Any], catalog: Catalog) -> list[tuple[str, str]]:
    """The uses of invented cards in a case document, in document order."""
    return [(pointer, name) for pointer, name in card_uses(doc) if is_invented(name, catalog)]


def check_invented(file: str, doc: Mapping[str, Any], catalog: Catalog) -> Iterator[Problem]:
    """A case using an invented card lists ``invented_cards``; a case listing it uses one."""
    features = list(doc.get("features") or ())
    uses = invented_uses(doc, catalog)
    if uses and FEATURE not in features:
        pointer, name = uses[0]
        others = f" (and {len(uses) - 1} more use(s))" if len(uses) > 1 else ""
        where = catalog.files.get(name, "cases/catalog/")
        yield Problem(file, pointer, f"card {name!r} is invented (real: false in {where}){others}: the case must "
                      f"list feature {FEATURE!r} in /features, so an engine that knows only printed cards "
                      f"gets it as unsupported", None, "unlisted_feature")
    elif not uses and FEATURE in features:
        yield Problem(file, f"/features/{features.index(FEATURE)}",
                      f"feature {FEATURE!r} is listed but the case uses no invented card (real: false): "
                      f"remove it, or engines that know only printed cards lose the case for nothing",
                      None, "needless_feature")
