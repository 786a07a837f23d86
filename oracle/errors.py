"""Two kinds of failure: an illegal game action (data, reported as a step result) and a bad
request (an engine error the harness reports)."""
from __future__ import annotations

from .reasons import Reason


class RequestError(ValueError):
    """The request itself is malformed: unknown step kind, unknown card, bad reference."""


class Illegal(Exception):
    """An illegal action (730): the step is rejected and the game rewinds to before it.

    `total_cost` / `life_paid` are set when the cast failed after the total was locked
    (601.2g/601.2h), so the result can still report the locked total. `rules`: the rule
    numbers behind the refusal, cited by the trace line that reports it (not in `note`).
    `substep`, for a cast, defaults to the reason's sub-step when the reason has only one
    (schema/reasons.json); a reason possible at several sub-steps names it where it is raised."""

    def __init__(self, reason: Reason, note: str, substep: str | None = None,
                 total_cost: str | None = None, life_paid: int | None = None,
                 rules: tuple[str, ...] = ()) -> None:
        super().__init__(f"{reason.value}: {note}")
        self.reason = reason
        self.note = note
        self.rules = tuple(rules)
        self.substep = substep if substep is not None or len(reason.substeps) != 1 else reason.substeps[0]
        self.total_cost = total_cost
        self.life_paid = life_paid
