"""The explanation trace: every decision with the rule behind it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TraceLine:
    step: int
    rule: str
    note: str

    def as_dict(self) -> dict:
        return {"step": self.step, "rule": self.rule, "note": self.note}


@dataclass
class Trace:
    """Collects trace lines for the step being run (`step` is 0 for the setup)."""

    step: int = 0
    lines: list[TraceLine] = field(default_factory=list)

    def add(self, rule: str, note: str) -> None:
        self.lines.append(TraceLine(self.step, rule, note))


def explain_lines(trace: list[dict]) -> list[str]:
    """A human trace, one line per decision, grouped by step."""
    out: list[str] = []
    current = None
    for line in trace:
        if line["step"] != current:
            current = line["step"]
            out.append("setup:" if current == 0 else f"step {current}:")
        out.append(f"  [{line['rule']}] {line['note']}")
    return out
