"""Export bundles: every case and the catalog as one JSON document, and checking one."""

from __future__ import annotations

from pathlib import Path

from castrules.harness import __version__, schemas
from castrules.harness.documents import LARGE, DocumentError, load_document


def build_bundle(suite) -> dict:
    """The bundle of a loaded suite (schema ``bundle``)."""
    return {
        "format": 1,
        "suite_version": __version__,
        "cases": [dict(c.doc) for c in suite.cases],
        "catalog": [dict(card) for _, card in sorted(suite.catalog.cards.items())],
        "features": suite.vocabulary.features,
        "reasons": suite.vocabulary.reasons,
    }


def bundle_problems(path: Path) -> list[str]:
    """Schema-check an export bundle, and check that its ids are unique and its cards complete;
    one line per problem, naming the file and the JSON pointer."""
    try:
        bundle = load_document(path, limits=LARGE)
    except DocumentError as exc:
        return [str(exc)]
    problems = [f"{path}: at {pointer or '/'}: {message}" for pointer, message in schemas.errors("bundle", bundle)]
    if problems:
        return problems
    names = {card["name"] for card in bundle["catalog"]}
    seen: set[str] = set()
    for index, case in enumerate(bundle["cases"]):
        if case["id"] in seen:
            problems.append(f"{path}: at /cases/{index}/id: duplicate id {case['id']!r}")
        seen.add(case["id"])
        for o, obj in enumerate(case["setup"].get("objects", [])):
            if obj["card"] not in names:
                problems.append(f"{path}: at /cases/{index}/setup/objects/{o}/card: {obj['card']!r} is not in the bundle's catalog")
    return problems
