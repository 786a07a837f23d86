"""Coverage of the rules in scope and of the seed rulings: which cases cite each one.

A rule no case cites must say why in the rules index (schema/rules-index.json: `status` and
`why`): a heading, not testable through casting, or not modelled yet. `uncovered` is what is
left: rules nobody cited and nobody accounted for (tests/oracle/test_rules_accounted.py keeps
it empty). The coverage matrix is in `coverage_matrix`.
"""

from __future__ import annotations

import json
from typing import Mapping

from castrules.harness import matrix as cells
from castrules.harness.exits import EXIT_OK, EXIT_USAGE
from castrules.harness.summary import rule_sort_key

# A rule's status when no case cites it, with how `castrules coverage` names it.
STATUSES: Mapping[str, str] = {
    "heading": "headings (their content is in their subrules)",
    "not_testable": "not testable through casting",
}


def coverage(suite) -> dict:
    rules = {number: [] for number in suite.vocabulary.rules}
    rulings = {key: [] for key in suite.vocabulary.rulings}
    for case in suite.cases:
        for rule in case.rules:
            rules.setdefault(rule, []).append(case.id)
        for ruling in case.doc.get("rulings", []):
            rulings.setdefault(ruling["ref"], []).append(case.id)
    accounted = {number: {"status": entry["status"], "why": entry.get("why", "")}
                 for number, entry in suite.vocabulary.rules.items() if entry.get("status")}
    return {"rules": rules, "rulings": rulings, "accounted": accounted}


def uncovered(data: dict) -> list[str]:
    """Rules in scope that no case cites and the index does not account for."""
    return sorted((r for r, cases in data["rules"].items() if not cases and r not in data["accounted"]),
                  key=rule_sort_key)


def contradictions(data: dict) -> list[str]:
    """Rules marked not testable or not modelled that a case cites all the same (a stale mark)."""
    return sorted((r for r, entry in data["accounted"].items()
                   if entry["status"] != "heading" and data["rules"].get(r)), key=rule_sort_key)


def print_coverage(suite, as_json: bool = False, uncovered_only: bool = False) -> int:
    """Print the coverage (uncovered rulings and rules first); the exit status."""
    data = coverage(suite)
    if as_json:
        print(json.dumps({**data, "uncovered": uncovered(data)}, indent=1))
        return EXIT_OK
    vocab = suite.vocabulary
    rules = data["rules"]
    uncovered_rulings = [k for k, v in data["rulings"].items() if not v]
    left = uncovered(data)
    print(f"Seed rulings covered by no case ({len(uncovered_rulings)} of {len(data['rulings'])}):")
    for key in uncovered_rulings:
        entry = vocab.rulings[key]
        print(f"  {key} (seed {entry['seed']}{', ' + entry['card'] if entry.get('card') else ''})")
        if entry.get("note"):
            print(f"    note: {' '.join(str(entry['note']).split())}")
    cited = sum(1 for v in rules.values() if v)
    print(f"\nRules in scope: {len(rules)}; cited by cases: {cited}; accounted for without a case: "
          f"{sum(1 for r in data['accounted'] if not rules.get(r))}")
    print(f"\nRules in scope cited by no case and not accounted for ({len(left)} of {len(rules)}):")
    for rule in left:
        print(f"  {rule} {vocab.rule_title(rule)}")
    _print_accounted(data, vocab)
    if uncovered_only:
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


def _print_accounted(data: dict, vocab) -> None:
    """The rules no case cites, by status, each with its reason."""
    for status, label in STATUSES.items():
        numbers = sorted((r for r, e in data["accounted"].items() if e["status"] == status and not data["rules"].get(r)),
                         key=rule_sort_key)
        print(f"\nRules no case cites, {label} ({len(numbers)}):")
        for rule in numbers:
            print(f"  {rule} {vocab.rule_title(rule)}: {data['accounted'][rule]['why']}")


def print_matrix(suite, as_json: bool = False) -> int:
    """The coverage matrix (cases/coverage-matrix.yaml and the cases' `matrix:` tags); exit 2
    when the suite has no matrix file."""
    matrix = suite.vocabulary.matrix
    if matrix is None:
        print(f"no coverage matrix: {cells.MATRIX_FILE} is missing or invalid (castrules validate says why)")
        return EXIT_USAGE
    rows = cells.report(matrix, cells.cell_cases(suite))
    if as_json:
        dims = {name: {v.name: {"title": v.title, "rules": list(v.rules)}
                       for v in getattr(matrix, name).values()} for name in cells.DIMENSIONS}
        print(json.dumps({**dims, "cells": rows, "missing": cells.missing(rows)}, indent=1))
    else:
        print(cells.render_text(matrix, rows))
    return EXIT_OK
