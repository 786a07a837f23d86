"""Rendering saved JSON-lines reports again (``castrules report``): the same files a run
writes, from the results it recorded, for one run or the merged shards of one; and comparing
two runs (``castrules report --compare``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from castrules.harness.exits import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE
from castrules.harness.output_paths import OutputFailures
from castrules.harness.outputs import write_outputs
from castrules.harness.report_jsonl import Report, read_report, write_report
from castrules.harness.report_merge import Change, compare, merge
from castrules.harness.summary import format_totals, totals
from castrules.harness.textsafe import safe_text


@dataclass(frozen=True)
class RecordedEngine:
    """The engine a report names: enough of the interface for the report writers."""

    name: str
    version: str


def read(path: Path) -> Report:
    """A saved report, its problems printed; a missing file is a usage error."""
    if not path.is_file():
        raise ValueError(f"no such report: {path}")
    report = read_report(path)
    for problem in report.problems:
        print(safe_text(problem), file=sys.stderr)
    return report


def rerender(paths: Sequence[Path], targets: Any, suite=None) -> int:
    """Write the outputs ``targets`` asks for from the reports at ``paths`` (several are the
    shards of one run, merged first; ``targets.jsonl`` receives the merged report); print the
    totals. The exit status follows the recorded results (2 for a missing or truncated report)."""
    loaded = [(str(path), read(path)) for path in paths]
    if any(report.header is None for _, report in loaded):
        return EXIT_USAGE
    report = loaded[0][1] if len(loaded) == 1 else merge(loaded)
    results = report.results()
    engine = RecordedEngine(report.header["engine"]["name"], report.header["engine"]["version"])
    failures = OutputFailures()
    if getattr(targets, "jsonl", None):
        failures.attempt(f"--jsonl {targets.jsonl}", lambda: write_report(targets.jsonl, report))
    if suite is None:
        from castrules.harness.suite import load_suite

        suite = load_suite()
    write_outputs(targets, results, engine, suite, truncated=report.truncated, details=report.details(), failures=failures)
    merged = f" (merged from {len(loaded)} reports)" if len(loaded) > 1 else ""
    print(safe_text(f"{engine.name} {engine.version}: {len(results)} of {report.header['cases']} cases{merged}: "
                    f"{format_totals(totals(results))}" + (" (TRUNCATED)" if report.truncated else "")))
    if report.truncated or failures:
        return EXIT_USAGE
    return EXIT_UNEXPECTED if any(r.status.is_unexpected for r in results) else EXIT_OK


def compare_files(old_path: Path, new_path: Path, targets: Any) -> int:
    """Compare two saved runs: the text on stdout, ``targets.markdown/html/json`` written;
    exit 1 on a regression."""
    from castrules.harness import report_compare

    old, new = read(old_path), read(new_path)
    if old.header is None or new.header is None:
        return EXIT_USAGE
    comparison = compare(old, new)
    failures = OutputFailures()
    for option, render in (("--markdown", report_compare.render_markdown), ("--html", report_compare.render_html),
                           ("--json", report_compare.render_json)):
        path = getattr(targets, option[2:], None)
        if path:
            failures.attempt(f"{option} {path}", lambda: _write_text(path, render(comparison)))
    sys.stdout.write(report_compare.render_text(comparison))
    if failures:
        return EXIT_USAGE
    return EXIT_UNEXPECTED if comparison.of(Change.REGRESSION) else EXIT_OK


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
