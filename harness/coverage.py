"""Coverage of the rules in scope and of the seed rulings: which cases cite each one."""

from __future__ import annotations

import json

from castrules.harness.exits import EXIT_OK
from castrules.harness.summary import rule_sort_key


def coverage(suite) -> dict:
    rules = {number: [] for number in suite.vocabulary.rules}
    rulings = {key: [] for key in suite.vocabulary.rulings}
    for case in suite.cases:
        for rule in case.rules:
            rules.setdefault(rule, []).append(case.id)
        for ruling in case.doc.get("rulings", []):
            rulings.setdefault(ruling["ref"], []).append(case.id)
    return {"rules": rules, "rulings": rulings}


def print_coverage(suite, as_json: bool = False, uncovered_only: bool = False) -> int:
    """Print the coverage (uncovered rulings and rules first); the exit status."""
    data = coverage(suite)
    if as_json:
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
