"""``castrules report`` (render a JSON-lines report for people) and ``castrules coverage``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from castrules.harness.summary import rule_sort_key


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
    from castrules.harness.cli import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, write_outputs
    from castrules.harness.report_jsonl import read_report
    from castrules.harness.suite import load_suite
    from castrules.harness.summary import format_totals, totals

    if not args.report.exists():
        print(f"castrules: no such report: {args.report}", file=sys.stderr)
        return EXIT_USAGE
    report = read_report(args.report)
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if report.header is None:
        return EXIT_USAGE
    results = report.results()
    engine = argparse.Namespace(name=report.header["engine"]["name"], version=report.header["engine"]["version"])
    write_outputs(args, results, engine, load_suite(), truncated=report.truncated)
    print(f"{engine.name} {engine.version}: {len(results)} of {report.header['cases']} cases: {format_totals(totals(results))}"
          + (" (TRUNCATED)" if report.truncated else ""))
    if report.truncated:
        return EXIT_USAGE
    return EXIT_UNEXPECTED if any(r.status.is_unexpected for r in results) else EXIT_OK


def coverage(suite) -> dict:
    rules = {number: [] for number in suite.vocabulary.rules}
    rulings = {key: [] for key in suite.vocabulary.rulings}
    for case in suite.cases:
        for rule in case.rules:
            rules.setdefault(rule, []).append(case.id)
        for ruling in case.doc.get("rulings", []):
            rulings.setdefault(ruling["ref"], []).append(case.id)
    return {"rules": rules, "rulings": rulings}


def cmd_coverage(args: argparse.Namespace) -> int:
    from castrules.harness.cli import EXIT_OK
    from castrules.harness.suite import load_suite

    suite = load_suite()
    data = coverage(suite)
    if args.json:
        print(json.dumps(data, indent=1))
        return EXIT_OK
    vocab = suite.vocabulary
    rules = data["rules"]
    uncovered_rulings = [k for k, v in data["rulings"].items() if not v]
    uncovered_rules = sorted((r for r, v in rules.items() if not v), key=rule_sort_key)
    print(f"Seed rulings covered by no case ({len(uncovered_rulings)} of {len(data['rulings'])}):")
    for key in uncovered_rulings:
        entry = vocab.rulings[key]
        print(f"  {key} (seed {entry['seed']}{', ' + entry['card'] if entry.get('card') else ''})")
        if entry.get("note"):
            print(f"    note: {' '.join(str(entry['note']).split())}")
    print(f"\nRules in scope cited by no case ({len(uncovered_rules)} of {len(rules)}):")
    for rule in uncovered_rules:
        print(f"  {rule} {vocab.rule_title(rule)}")
    if args.uncovered:
        return EXIT_OK
    print("\nSeed rulings and their cases:")
    for key, cases in data["rulings"].items():
        if cases:
            print(f"  {key}: {len(cases)}: {', '.join(cases[:6])}{' ...' if len(cases) > 6 else ''}")
            note = vocab.rulings.get(key, {}).get("note")
            if note:
                print(f"    note: {' '.join(str(note).split())}")
    print("\nRules and their cases:")
    for rule in sorted((r for r, v in rules.items() if v), key=rule_sort_key):
        cases = rules[rule]
        print(f"  {rule} {vocab.rule_title(rule)}: {len(cases)}: {', '.join(cases[:4])}{' ...' if len(cases) > 4 else ''}")
    return EXIT_OK
