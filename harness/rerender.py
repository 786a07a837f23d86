"""Rendering a saved JSON-lines report again (``castrules report``): the same files a run
writes, from the results it recorded."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from castrules.harness.exits import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE
from castrules.harness.outputs import write_outputs
from castrules.harness.report_jsonl import read_report
from castrules.harness.summary import format_totals, totals


@dataclass(frozen=True)
class RecordedEngine:
    """The engine a report names: enough of the interface for the report writers."""

    name: str
    version: str


def rerender(path: Path, targets: Any, suite=None) -> int:
    """Write the outputs ``targets`` asks for from the report at ``path``; print its totals.
    The exit status follows the recorded results (2 for a missing or truncated report)."""
    if not path.exists():
        print(f"castrules: no such report: {path}", file=sys.stderr)
        return EXIT_USAGE
    report = read_report(path)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if report.header is None:
        return EXIT_USAGE
    results = report.results()
    engine = RecordedEngine(report.header["engine"]["name"], report.header["engine"]["version"])
    if suite is None:
        from castrules.harness.suite import load_suite

        suite = load_suite()
    write_outputs(targets, results, engine, suite, truncated=report.truncated)
    print(f"{engine.name} {engine.version}: {len(results)} of {report.header['cases']} cases: {format_totals(totals(results))}"
          + (" (TRUNCATED)" if report.truncated else ""))
    if report.truncated:
        return EXIT_USAGE
    return EXIT_UNEXPECTED if any(r.status.is_unexpected for r in results) else EXIT_OK
