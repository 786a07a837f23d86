"""The request an engine receives for one case (docs/case-format.md, "What an engine receives")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .build import Model
from .case import STATE_FIELDS, PublicCase, public_document
from .cards import Card


@dataclass(frozen=True)
class Request(Model):
    """The case without its expectations, the catalog entries of the cards it uses (by name),
    and the step numbers after which a snapshot is wanted (0 = before the first step)."""

    case: PublicCase
    cards: Mapping[str, Card]
    observe: tuple[int, ...]


def request_document(case_doc: Mapping[str, Any], cards: Mapping[str, Any], observe: Any) -> dict:
    """The one request builder: what an engine receives for the case document `case_doc`
    (its hidden fields removed), given the catalog entries of its cards and what to observe."""
    return {"case": public_document(case_doc), "cards": dict(cards), "observe": [int(n) for n in observe]}


def card_names(case_doc: Mapping[str, Any]) -> set[str]:
    """The catalog cards a case document uses: each object's card and a melded permanent's
    partner (202.3c), so a request always carries both."""
    objects = (case_doc.get("setup") or {}).get("objects") or ()
    return {o["card"] for o in objects} | {o["melded_with"] for o in objects if o.get("melded_with")}


def observe_points(case_doc: Mapping[str, Any]) -> tuple[int, ...]:
    """The step numbers after which a schema-valid case document's expectations look at the
    state: ``Case.observe_points`` read from the document, without building the typed case
    (the harness asks it for every case it runs; a test keeps the two equal on the suite)."""
    last = len(case_doc.get("steps") or ())
    return tuple(sorted({last if e["after"] == "final" else int(e["after"])
                         for e in case_doc.get("expect") or () if any(e.get(f) is not None for f in STATE_FIELDS)}))
