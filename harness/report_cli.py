"""``castrules report`` and ``castrules coverage``: arguments only; the work is in
``harness.rerender`` and ``harness.coverage``."""

from __future__ import annotations

import argparse
from pathlib import Path

from castrules.harness.coverage import print_coverage, print_matrix
from castrules.harness.output_paths import REPORT_OUTPUTS, check_output_paths, outputs_of
from castrules.harness.rerender import compare_files, rerender


def register(sub) -> None:
    rep = sub.add_parser("report", help="render saved reports (merging a CI matrix's shards) or compare two runs")
    rep.add_argument("reports", nargs="*", type=Path, metavar="REPORT.jsonl",
                     help="reports written by castrules run --report; several (the shards of one run) are merged")
    rep.add_argument("--compare", nargs=2, type=Path, metavar=("OLD.jsonl", "NEW.jsonl"),
                     help="list the regressions and fixes between two runs (exit 1 on a regression)")
    rep.add_argument("--markdown", type=Path, metavar="FILE.md")
    rep.add_argument("--html", type=Path, metavar="FILE.html")
    rep.add_argument("--badges", type=Path, metavar="DIR")
    rep.add_argument("--junit", type=Path, metavar="FILE.xml")
    rep.add_argument("--json", type=Path, metavar="FILE.json", help="with --compare: the comparison as JSON")
    rep.add_argument("--jsonl", type=Path, metavar="FILE.jsonl", help="the (merged) report as JSON lines")
    rep.set_defaults(handler=cmd_report)

    cov = sub.add_parser("coverage", help="which cases cite each rule in scope and cover each seed ruling")
    cov.add_argument("--json", action="store_true")
    cov.add_argument("--uncovered", action="store_true", help="list only what no case covers")
    cov.add_argument("--matrix", action="store_true",
                     help="the coverage matrix: cost modifiers x base costs x zones, with the cases in each cell")
    cov.set_defaults(handler=cmd_coverage)


def cmd_report(args: argparse.Namespace) -> int:
    check_output_paths(outputs_of(args, REPORT_OUTPUTS))
    if args.compare:
        if args.reports:
            raise ValueError("give either reports to render or --compare OLD.jsonl NEW.jsonl, not both")
        if args.badges or args.junit or args.jsonl:
            raise ValueError("--compare writes --markdown, --html and --json (badges, JUnit and JSON lines are for one run)")
        return compare_files(*args.compare, args)
    if not args.reports:
        raise ValueError("give a report to render (several to merge shards), or --compare OLD.jsonl NEW.jsonl")
    if args.json:
        raise ValueError("--json is for --compare; a run's report is JSON lines already (--jsonl writes a merged one)")
    return rerender(args.reports, args)


def cmd_coverage(args: argparse.Namespace) -> int:
    from castrules.harness.suite import load_suite

    if args.matrix:
        if args.uncovered:
            raise ValueError("--matrix prints every cell, MISSING ones included; --uncovered is for the rules")
        return print_matrix(load_suite(), as_json=args.json)
    return print_coverage(load_suite(), as_json=args.json, uncovered_only=args.uncovered)
