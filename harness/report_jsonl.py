"""The JSON-lines report: a header, one line per case as it finishes, a footer with totals.

Each line is flushed as it is written, so an interrupted run keeps every result it had. A run
that finishes — completed or ended early (engine gave up, interrupted, maxfail) — has a line
for every selected case (those it did not reach as ``not_run``) and a footer saying why it
ended; a report without its footer, or with fewer case lines than its header announces, is
read back as truncated: results were lost.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterable

from castrules.harness import __version__
from castrules.harness.contract import ReasonDetail
from castrules.harness.output_paths import OutputFailures, OutputPathError, describe_os_error
from castrules.harness.results import Result, Status
from castrules.harness.textsafe import json_line
from castrules.harness.summary import totals

REPORT_FORMAT = 1


def header(engine: Any, cases: int, protocol: int | None = None, selection: dict | None = None) -> dict:
    """The first line; ``selection`` (see run_details.selection_of) says which cases and shard."""
    detail = ReasonDetail.parse(getattr(engine, "reasons", None))
    head = {"type": "header", "format": REPORT_FORMAT, "suite_version": __version__, "cases": cases,
            "engine": {"name": engine.name, "version": engine.version, "features": sorted(engine.features),
                       "reasons": detail.value},
            "compared": {"illegal_steps": detail.describe()},
            "protocol": protocol if protocol is not None else getattr(engine, "protocol", None),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    if selection is not None:
        head["selection"] = selection
    return head


def case_line(result: Result) -> dict:
    return {"type": "case", **result.to_json()}


def footer(results: Iterable[Result], duration: float, ended: str = "completed", reason: str = "") -> dict:
    """The last line, written only by a run that finished: ``ended`` says why it finished
    (``harness.session.Ending``: completed, engine_gave_up, interrupted, maxfail)."""
    counts = totals(results)
    line = {"type": "footer", "totals": {s.value: counts.get(s, 0) for s in Status},
            "unexpected": sum(n for s, n in counts.items() if s.is_unexpected), "duration": round(duration, 3),
            "ended": ended}
    if reason:
        line["reason"] = reason
    return line


class ReportWriter:
    """Writes a report line by line, flushing each so nothing is lost on interruption.

    A path that cannot be opened is an ``OutputPathError`` (a usage error, before any case
    runs). A write failing later (a full disk) is recorded in ``failures`` once and the
    report is given up; the run and its other outputs go on.
    """

    def __init__(self, path: Path, head: dict, failures: OutputFailures | None = None,
                 option: str = "--report") -> None:
        self.label = f"{option} {path}"
        self.failures = failures if failures is not None else OutputFailures()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file: IO[str] | None = path.open("w", encoding="utf-8")
        except OSError as exc:
            raise OutputPathError(f"{self.label}: {describe_os_error(exc)}") from None
        self._started = time.perf_counter()
        self._results: list[Result] = []
        self._emit(head)

    @property
    def failed(self) -> bool:
        return self._file is None

    def _emit(self, line: dict) -> None:
        if self._file is None:
            return
        try:
            self._file.write(json_line(line) + "\n")   # whatever an engine sent, one valid line
            self._file.flush()
        except OSError as exc:
            self.failures.record(self.label, exc)
            self._abandon()

    def _abandon(self) -> None:
        handle, self._file = self._file, None
        try:
            if handle is not None:
                handle.close()
        except OSError:   # the buffered rest cannot be written either; already reported
            pass

    def add(self, result: Result) -> None:
        self._results.append(result)
        self._emit(case_line(result))

    def close(self, complete: bool = True, ended: str = "completed", reason: str = "") -> None:
        """End the report; ``complete`` is False when the run did not finish (no footer then)."""
        if complete:
            self._emit(footer(self._results, time.perf_counter() - self._started, ended, reason))
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.failures.record(self.label, exc)
            self._file = None


@dataclass
class Report:
    header: dict | None
    cases: list[dict] = field(default_factory=list)
    footer: dict | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def truncated(self) -> bool:
        """Results were lost: no footer, or fewer case lines than the header announced."""
        return self.footer is None or (self.header is not None and len(self.cases) < self.header["cases"])

    @property
    def ended(self) -> str:
        """Why the run ended, as its footer says ("completed" for reports older than the field)."""
        return "truncated" if self.footer is None else self.footer.get("ended", "completed")

    def results(self) -> list[Result]:
        return [result_from_json(c) for c in self.cases]

    def details(self):
        from castrules.harness.run_details import RunDetails

        return RunDetails.from_report(self.header or {}, self.footer)


def write_report(path: Path, report: Report) -> None:
    """Write a report (a merged one) back as JSON lines; a truncated one stays without footer."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [report.header, *report.cases]
    if report.footer is not None:
        lines.append(report.footer)
    path.write_text("".join(json.dumps(line, ensure_ascii=False, default=str) + "\n" for line in lines), encoding="utf-8")


def read_report(path: Path) -> Report:
    """Read a report back; a missing footer or a bad line is recorded, not raised."""
    from castrules.harness import schemas
    from castrules.harness.documents import DocumentError, json_lines

    report = Report(header=None)
    try:
        lines = list(json_lines(path))
    except DocumentError as exc:
        report.problems.append(str(exc))
        lines = []
    for number, line in lines:
        if isinstance(line, DocumentError):
            report.problems.append(f"{line}; the report may have been cut off or damaged")
            continue
        errors = list(schemas.errors("report", line))
        if errors:
            pointer, message = errors[0]
            report.problems.append(f"{path}:{number}: at {pointer or '/'}: {message}")
            continue
        kind = line["type"]
        if kind == "header":
            report.header = line
        elif kind == "case":
            report.cases.append(line)
        else:
            report.footer = line
    if report.header is None:
        report.problems.append(f"{path}: no header line")
    if report.footer is None:
        report.problems.append(f"{path}: truncated: no footer line after {len(report.cases)} case(s); the run did not finish")
    if report.header is not None:
        report.problems.extend(_count_problems(path, report))
    return report


def _count_problems(path: Path, report: Report) -> list[str]:
    """The case lines against the header: one line per selected case, each case once."""
    found = []
    expected, seen = report.header["cases"], len(report.cases)
    if seen != expected:
        found.append(f"{path}: the header announces {expected} case(s) but the report has {seen} case line(s)"
                     + ("; results were lost" if seen < expected else ""))
    ids = [c["id"] for c in report.cases]
    if len(set(ids)) != len(ids):
        found.append(f"{path}: {len(ids) - len(set(ids))} case line(s) repeat an id already reported")
    return found


def result_from_json(line: dict) -> Result:
    from castrules.harness.results import Mismatch

    return Result(case_id=line["id"], status=Status(line["status"]), file=line.get("file", ""),
                  rules=tuple(line.get("rules", ())), features=tuple(line.get("features", ())),
                  mismatches=tuple(Mismatch(m["where"], m["path"], m["expected"], m["observed"]) for m in line.get("mismatches", ())),
                  message=line.get("message", ""), duration=line.get("duration", 0.0), trace=tuple(line.get("trace", ())),
                  oracle_trace=tuple(line.get("oracle_trace", ())),
                  diagnostics=line.get("diagnostics", ""), issue_url=line.get("issue_url"),
                  raw_status=Status(line["raw_status"]) if "raw_status" in line else None)
