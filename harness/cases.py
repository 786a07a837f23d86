"""A loaded case and the request an engine receives for it (expectations removed).

The format itself (hidden fields, observe points, the cards a case needs, the request) is in
`castrules.model`; this is the suite's view of one case file: where it lives and its document.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping

from castrules import model
from castrules.model import HIDDEN_FIELDS, STATE_FIELDS, STEP_FIELDS  # noqa: F401 - re-exported

__all__ = ["Case", "HIDDEN_FIELDS", "STATE_FIELDS", "STEP_FIELDS", "after_index"]


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    path: Path
    file: str                       # path relative to the suite root
    rules: tuple[str, ...]
    features: tuple[str, ...]
    doc: Mapping[str, Any]

    @cached_property
    def model(self) -> model.Case:
        """The case as typed values (built once, from the schema-valid document)."""
        return model.Case.from_document(self.doc, self.file)

    @property
    def steps(self) -> list:
        return self.doc.get("steps", [])

    @property
    def expectations(self) -> list:
        return self.doc.get("expect", [])

    @property
    def area(self) -> str:
        return self.id.split("/", 1)[0]

    def card_names(self) -> set[str]:
        """The catalog cards the case uses (a melded permanent's partner too, 202.3c), read from
        the document: running a case needs no typed model of it."""
        return model.card_names(self.doc)

    def observe_points(self) -> list[int]:
        """Step numbers after which the expectations look at the state (a new list each time)."""
        return list(self._observe_points)

    @cached_property
    def _observe_points(self) -> tuple[int, ...]:
        """Read once from the document (loaded once and never changed, as for ``model``): every
        run of the case asks twice, for its request and to check the reply's snapshots."""
        return model.observe_points(self.doc)

    def request(self, cards: Mapping[str, Any]) -> dict:
        """What the engine receives: the case without expectations, its cards, what to observe."""
        return model.request_document(self.doc, cards, self.observe_points())


def after_index(after: int | str, last: int) -> int:
    return last if after == "final" else int(after)
