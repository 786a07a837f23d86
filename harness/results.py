"""Statuses and results of running one case on one engine."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, replace
from typing import Any

from castrules.harness.textsafe import safe_text


class Status(enum.Enum):
    PASS = "pass"
    FAIL = "fail"                       # observations differ from the expectations
    ERROR = "error"                     # the engine raised, crashed, hung or broke its contract
    TIMEOUT = "timeout"                 # the engine did not answer in time
    UNSUPPORTED = "unsupported"         # the case needs a feature the engine does not declare
    SKIPPED = "skipped"                 # the engine chose to skip the case, with a reason
    KNOWN_FAILURE = "known_failure"     # failed as listed in the expectations file
    UNEXPECTED_PASS = "unexpected_pass" # listed as failing, but passed: update the file
    NOT_RUN = "not_run"                 # the run ended before this case (engine gave up, interrupt, maxfail)

    @property
    def is_unexpected(self) -> bool:
        """Results that turn a run red (a case not run is never a success)."""
        return self in (Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.UNEXPECTED_PASS, Status.NOT_RUN)


@dataclass(frozen=True)
class Mismatch:
    where: str           # "after step 5" / "after the setup"
    path: str            # "total_cost", "objects.theft.zone"
    expected: Any
    observed: Any

    def __str__(self) -> str:
        return f"{self.where}: {self.path}: expected {_show(self.expected)}, observed {_show(self.observed)}"

    def to_json(self) -> dict:
        return {"where": self.where, "path": self.path, "expected": self.expected, "observed": self.observed}


MISSING = "<missing>"


def _show(value: Any) -> str:
    if value is MISSING or value == MISSING:
        return "nothing"
    if isinstance(value, str):
        return value if value.startswith("{") else repr(value)
    return repr(value)


@dataclass(frozen=True)
class Result:
    case_id: str
    status: Status
    file: str = ""
    rules: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    mismatches: tuple[Mismatch, ...] = ()
    message: str = ""                   # error text, skip reason, unsupported features, known-failure reason
    duration: float = 0.0
    trace: tuple = ()
    oracle_trace: tuple = ()            # the oracle's explanation of the case, for a failure on another engine
    diagnostics: str = ""               # e.g. the tail of an external engine's stderr
    issue_url: str | None = None
    raw_status: Status | None = None    # the status before the expectations file was applied
    engine_lost: bool = False           # the engine process was lost on this case (crash, hang, protocol break)
    extra: dict = field(default_factory=dict)

    @classmethod
    def passing(cls, case_id: str, file: str, rules: tuple, features: tuple, duration: float,
                diagnostics: str) -> "Result":
        """``Result(case_id, Status.PASS, file, rules, features, duration=duration,
        diagnostics=diagnostics)`` without the frozen ``__init__``'s setting of every field
        (every answered case's result starts so): the defaults from the class's own fields."""
        new = object.__new__(Result)
        fields = new.__dict__
        fields.update(_DEFAULTS)
        fields.update(case_id=case_id, status=_PASS, file=file, rules=rules, features=features,
                      duration=duration, diagnostics=diagnostics, extra={})
        return new

    def with_trace(self, trace: tuple) -> "Result":
        """``dataclasses.replace(self, trace=trace)`` without the frozen ``__init__``'s setting
        of every field (every passing case's result is made so): its fields copied, as
        ``replace`` would pass them, the same ``extra`` map included."""
        if type(self) is not Result:
            return replace(self, trace=trace)
        new = object.__new__(Result)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields["trace"] = trace
        return new

    def to_json(self) -> dict:
        data = {"id": self.case_id, "status": self.status.value, "file": self.file,
                "duration": round(self.duration, 6), "rules": list(self.rules), "features": list(self.features)}
        if self.mismatches:
            data["mismatches"] = [m.to_json() for m in self.mismatches]
        if self.message:
            data["message"] = self.message
        if self.diagnostics:
            data["diagnostics"] = self.diagnostics
        if self.issue_url:
            data["issue_url"] = self.issue_url
        if self.raw_status is not None and self.raw_status is not self.status:
            data["raw_status"] = self.raw_status.value
        if self.trace and self.status in (Status.FAIL, Status.KNOWN_FAILURE):
            data["trace"] = list(self.trace)
        if self.oracle_trace:
            data["oracle_trace"] = list(self.oracle_trace)
        return data


_PASS = Status.PASS    # a module global: an Enum class's attribute goes through EnumType's __getattr__ hook
# Result's fields in order with their defaults (Result.passing; extra's factory is called there)
_DEFAULTS = {f.name: f.default for f in fields(Result)}


def trace_line(entry: Any) -> str:
    """One line of an engine's explanation trace, for people."""
    if isinstance(entry, dict):
        step = f"step {entry['step']}: " if entry.get("step") is not None else ""
        cited = entry.get("rules") if isinstance(entry.get("rules"), list) else [entry["rule"]] if entry.get("rule") else []
        rule = f"[{', '.join(map(str, cited))}] " if cited else ""
        return safe_text(f"{step}{rule}{entry.get('note', '')}")
    return safe_text(entry)
