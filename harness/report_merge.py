"""Several saved reports as one: the shards of a CI matrix merged, or two runs compared.

Merging refuses what would mislead: reports of different suite versions or engines, a case
reported twice (two copies of the same shard), and reports that were cut off. Comparing works
on what the engine did (the status before the expectations file was applied), so two versions
of an engine compare the same whether or not their expectations files differ.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from castrules.harness.report_jsonl import Report
from castrules.harness.results import Result, Status


class MergeError(ValueError):
    """Reports that cannot be merged; the message names the files and what differs."""


def _identity(report: Report) -> tuple:
    head = report.header or {}
    engine = head.get("engine", {})
    return head.get("suite_version"), engine.get("name"), engine.get("version")


def merge(reports: list[tuple[str, Report]]) -> Report:
    """One report from the shards' reports (``(file name, report)`` pairs), in the order given."""
    if not reports:
        raise MergeError("no reports to merge")
    first_name, first = reports[0]
    seen: dict[str, str] = {}
    cases: list[dict] = []
    for name, report in reports:
        if report.header is None:
            raise MergeError(f"{name}: no header line; is it a castrules report?")
        if report.truncated:
            raise MergeError(f"{name}: truncated (the run did not finish); merging it would hide the cases it lost")
        if _identity(report) != _identity(first):
            suite, engine, version = _identity(report)
            want = _identity(first)
            raise MergeError(f"{name}: suite {suite}, engine {engine} {version}; {first_name}: suite {want[0]}, "
                             f"engine {want[1]} {want[2]}; only shards of one run can be merged")
        for line in report.cases:
            if line["id"] in seen:
                raise MergeError(f"{name}: case {line['id']!r} is also in {seen[line['id']]}; "
                                 "is the same shard given twice?")
            seen[line["id"]] = name
            cases.append(line)
    _check_shards(reports)
    return Report(header=_merged_header([r for _, r in reports]), cases=cases,
                  footer=_merged_footer([r for _, r in reports]))


def _check_shards(reports: list[tuple[str, Report]]) -> None:
    """Shards K/N of one run must all be there: a shard that crashed before writing its report
    would otherwise vanish from the merged totals."""
    shards = {name: ((r.header or {}).get("selection") or {}).get("shard") for name, r in reports}
    given = {name: spec for name, spec in shards.items() if spec}
    if not given:
        return
    if len(given) != len(shards):
        whole = ", ".join(name for name, spec in shards.items() if not spec)
        raise MergeError(f"{whole}: not a shard, but {', '.join(given)} are; merge the shards of one run only")
    counts = {spec.split("/")[1] for spec in given.values()}
    if len(counts) > 1:
        raise MergeError(f"shards of different splits: {', '.join(f'{n} is {s}' for n, s in given.items())}")
    total = int(counts.pop())
    missing = sorted(set(range(1, total + 1)) - {int(spec.split("/")[0]) for spec in given.values()})
    if missing:
        raise MergeError(f"shard(s) {', '.join(f'{k}/{total}' for k in missing)} missing: the merged report "
                         f"would lack their cases (give every shard's report)")


def _merged_header(reports: list[Report]) -> dict:
    head = dict(reports[0].header or {})
    head["cases"] = sum((r.header or {}).get("cases", 0) for r in reports)
    head["started"] = min((r.header or {}).get("started", "") for r in reports)
    shards = [s for s in ((r.header or {}).get("selection", {}).get("shard") for r in reports) if s]
    if "selection" in head:
        selection = {k: v for k, v in head["selection"].items() if k != "shard"}
        if shards:
            selection["shards"] = shards
        head["selection"] = selection
    return head


def _merged_footer(reports: list[Report]) -> dict:
    totals: dict[str, int] = {}
    for report in reports:
        for status, count in (report.footer or {}).get("totals", {}).items():
            totals[status] = totals.get(status, 0) + count
    ends = {(r.footer or {}).get("ended", "completed") for r in reports}
    return {"type": "footer", "totals": totals, "unexpected": sum((r.footer or {}).get("unexpected", 0) for r in reports),
            "duration": round(sum((r.footer or {}).get("duration", 0.0) for r in reports), 3),
            "ended": "completed" if ends == {"completed"} else sorted(ends - {"completed"})[0]}


class Change(enum.Enum):
    """How one case moved between two runs, judged on what the engine did."""
    REGRESSION = "regression"        # passed before, fails now
    FIX = "fix"                      # failed before, passes now
    NEWLY_RUN = "newly_run"          # not run before (unsupported, skipped), runs now
    NO_LONGER_RUN = "no_longer_run"  # ran before, not now
    CHANGED = "changed"              # failed before and now, differently (fail -> error...)
    ADDED = "added"                  # only in the new run
    REMOVED = "removed"              # only in the old run


_GOOD = {Status.PASS}
_BAD = {Status.FAIL, Status.ERROR, Status.TIMEOUT}


def engine_status(result: Result) -> Status:
    """What the engine did, before the expectations file turned it into known failure or unexpected pass."""
    if result.raw_status is not None:
        return result.raw_status
    return {Status.KNOWN_FAILURE: Status.FAIL, Status.UNEXPECTED_PASS: Status.PASS}.get(result.status, result.status)


def _change(old: Status, new: Status) -> Change | None:
    if old is new:
        return None
    if old in _GOOD and new in _BAD:
        return Change.REGRESSION
    if old in _BAD and new in _GOOD:
        return Change.FIX
    if old in _BAD and new in _BAD:
        return Change.CHANGED
    if new in _GOOD | _BAD:
        return Change.NEWLY_RUN
    if old in _GOOD | _BAD:
        return Change.NO_LONGER_RUN
    return None   # unsupported <-> skipped: neither ran


@dataclass(frozen=True)
class Moved:
    case_id: str
    change: Change
    old: Status | None
    new: Status | None
    detail: str = ""                  # for a regression, what differs now

    def to_json(self) -> dict:
        return {"id": self.case_id, "change": self.change.value, "old": self.old.value if self.old else None,
                "new": self.new.value if self.new else None, "detail": self.detail}


@dataclass(frozen=True)
class Comparison:
    old: dict                         # the old report's header
    new: dict
    moved: tuple[Moved, ...] = ()
    unchanged: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    def of(self, change: Change) -> list[Moved]:
        return [m for m in self.moved if m.change is change]


def compare(old: Report, new: Report) -> Comparison:
    """Every case whose outcome moved between two runs; suite or engine differences are noted."""
    before = {r.case_id: r for r in old.results()}
    after = {r.case_id: r for r in new.results()}
    moved: list[Moved] = []
    unchanged = 0
    for case_id, result in after.items():
        if case_id not in before:
            moved.append(Moved(case_id, Change.ADDED, None, engine_status(result), _detail(result)))
            continue
        change = _change(engine_status(before[case_id]), engine_status(result))
        if change is None:
            unchanged += 1
        else:
            moved.append(Moved(case_id, change, engine_status(before[case_id]), engine_status(result), _detail(result)))
    moved.extend(Moved(i, Change.REMOVED, engine_status(r), None) for i, r in before.items() if i not in after)
    notes = []
    if (old.header or {}).get("suite_version") != (new.header or {}).get("suite_version"):
        notes.append("the two runs used different suite versions: some changes may come from the cases")
    for name, report in (("old", old), ("new", new)):
        if report.truncated:
            notes.append(f"the {name} report is truncated: cases it lost show as added or removed")
    return Comparison(old.header or {}, new.header or {}, tuple(sorted(moved, key=lambda m: m.case_id)), unchanged, tuple(notes))


def _detail(result: Result) -> str:
    if result.mismatches:
        return str(result.mismatches[0])
    return (result.message.strip().splitlines() or [""])[0]
