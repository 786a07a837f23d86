"""A loaded case and the request an engine receives for it (expectations removed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

# Fields an engine must never see: the answers, and the prose that gives them away.
HIDDEN_FIELDS = ("expect", "why", "rulings", "title", "notes")


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    path: Path
    file: str                       # path relative to the suite root
    rules: tuple[str, ...]
    features: tuple[str, ...]
    doc: Mapping[str, Any]

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
        objects = self.doc.get("setup", {}).get("objects", [])
        # a melded permanent is represented by its card and its partner's (202.3c)
        return {o["card"] for o in objects} | {o["melded_with"] for o in objects if "melded_with" in o}

    def observe_points(self) -> list[int]:
        """Step numbers after which the expectations look at the state."""
        last = len(self.steps)
        points = {after_index(e["after"], last) for e in self.expectations if _has_state(e)}
        return sorted(points)

    def request(self, cards: Mapping[str, Any]) -> dict:
        """What the engine receives: the case without expectations, its cards, what to observe."""
        public = {k: v for k, v in self.doc.items() if k not in HIDDEN_FIELDS}
        return {"case": public, "cards": dict(cards), "observe": self.observe_points()}


STATE_FIELDS = ("players", "objects", "stack")
STEP_FIELDS = ("legal", "reason", "substep", "total_cost", "life_paid")


def _has_state(expectation: Mapping[str, Any]) -> bool:
    return any(k in expectation for k in STATE_FIELDS)


def after_index(after: int | str, last: int) -> int:
    return last if after == "final" else int(after)
