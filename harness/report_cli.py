"""``castrules report`` and ``castrules coverage``: arguments only; the work is in
``harness.rerender`` and ``harness.coverage``."""

from __future__ import annotations

import argparse
from pathlib import Path

from castrules.harness.coverage import print_coverage
from castrules.harness.rerender import rerender


def register(sub) -> None:
    rep = sub.add_parser("report", help="render a JSON-lines report as Markdown, HTML, badges or JUnit")
    rep.add_argument("report", type=Path, help="a report written by castrules run --report")
    rep.add_argument("--markdown", type=Path, metavar="FILE.md")
    rep.add_argument("--html", type=Path, metavar="FILE.html")
    rep.add_argument("--badges", type=Path, metavar="DIR")
    rep.add_argument("--junit", type=Path, metavar="FILE.xml")
    rep.set_defaults(handler=cmd_report)

    cov = sub.add_parser("coverage", help="which cases cite each rule in scope and cover each seed ruling")
    cov.add_argument("--json", action="store_true")
    cov.add_argument("--uncovered", action="store_true", help="list only what no case covers")
    cov.set_defaults(handler=cmd_coverage)


def cmd_report(args: argparse.Namespace) -> int:
    return rerender(args.report, args)


def cmd_coverage(args: argparse.Namespace) -> int:
    from castrules.harness.suite import load_suite

    return print_coverage(load_suite(), as_json=args.json, uncovered_only=args.uncovered)
