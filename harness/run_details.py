"""The facts about a run that a reader of its report needs first: when, how long, which
engine and suite versions, which cases were selected and which shard of the matrix it was."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

_SELECTION_FLAGS = (("keyword", "-k"), ("features_include", "--features-include"),
                    ("features_exclude", "--features-exclude"), ("ids", "--id"), ("cases", "--cases"))


def selection_of(keyword: str | None = None, features_include=(), features_exclude=(), ids=(),
                 shard: str | None = None, cases=()) -> dict:
    """The selection as the report's header records it (only what was given)."""
    given = {"keyword": keyword, "features_include": list(features_include), "features_exclude": list(features_exclude),
             "ids": list(ids), "shard": shard, "cases": [str(c) for c in cases]}
    return {k: v for k, v in given.items() if v}


def selection_text(selection: Mapping) -> str:
    """The selection as the options that made it, e.g. ``-k prowl --features-exclude combat``."""
    parts = []
    for key, flag in _SELECTION_FLAGS:
        value = selection.get(key)
        if isinstance(value, list):
            parts.extend(f"{flag} {v}" for v in value) if key in ("ids", "cases") else parts.append(f"{flag} {','.join(value)}")
        elif value:
            parts.append(f"{flag} {value}")
    return " ".join(parts) or "every case"


@dataclass(frozen=True)
class RunDetails:
    engine_name: str
    engine_version: str
    suite_version: str
    started: str                 # UTC, ISO 8601
    duration: float | None       # seconds, None when the run did not finish
    selected: int
    selection: str
    shard: str | None            # "1/2", or "1/2, 2/2" for merged shards
    ended: str | None            # "completed", "maxfail", ...; None when cut off

    @classmethod
    def from_report(cls, header: Mapping, footer: Mapping | None) -> "RunDetails":
        selection = header.get("selection", {})
        shard = selection.get("shard") or ", ".join(selection.get("shards", ())) or None
        engine = header.get("engine", {})
        return cls(engine.get("name", "?"), engine.get("version", "?"), header.get("suite_version", "?"),
                   header.get("started", "?"), footer.get("duration") if footer else None, header.get("cases", 0),
                   selection_text(selection), shard, (footer or {}).get("ended", "completed") if footer else None)

    def rows(self) -> list[tuple[str, str]]:
        duration = f"{self.duration:.1f} s" if self.duration is not None else "unknown (the run did not finish)"
        return [("engine", f"{self.engine_name} {self.engine_version}"), ("suite", self.suite_version),
                ("started", self.started), ("duration", duration), ("selection", f"{self.selection} ({self.selected} cases)"),
                ("shard", self.shard or "none (the whole selection)"), ("ended", self.ended or "cut off")]
