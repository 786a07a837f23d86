"""Summaries of a run: totals, and compliance by feature and by rule."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable

from castrules.harness.results import Result, Status

ORDER = [Status.PASS, Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.UNSUPPORTED, Status.SKIPPED,
         Status.KNOWN_FAILURE, Status.UNEXPECTED_PASS, Status.NOT_RUN]

# Statuses that say nothing about the engine's compliance: left out of pass rates.
NOT_JUDGED = frozenset({Status.UNSUPPORTED, Status.SKIPPED, Status.NOT_RUN})


def totals(results: Iterable[Result]) -> Counter:
    return Counter(r.status for r in results)


def by_key(results: Iterable[Result], key: str) -> dict[str, Counter]:
    table: dict[str, Counter] = defaultdict(Counter)
    for result in results:
        for value in getattr(result, key):
            table[value][result.status] += 1
    return dict(table)


def rule_sort_key(rule: str) -> tuple:
    head, _, tail = rule.partition(".")
    digits = "".join(ch for ch in tail if ch.isdigit())
    letters = "".join(ch for ch in tail if ch.isalpha())
    return (int(head), int(digits or -1), letters)


def format_totals(counts: Counter) -> str:
    parts = [f"{counts[s]} {s.value.replace('_', ' ')}" for s in ORDER if counts.get(s)]
    return ", ".join(parts) if parts else "no cases"


def format_table(title: str, table: dict[str, Counter], sort_key=None, titles: dict[str, str] | None = None) -> str:
    columns = [s for s in ORDER if any(c.get(s) for c in table.values())]
    head = [title, *[s.value.replace("_", " ") for s in columns], "pass %"]
    rows = []
    for key in sorted(table, key=sort_key) if sort_key else sorted(table):
        counts = table[key]
        ran = sum(counts[s] for s in columns if s not in NOT_JUDGED)
        good = counts[Status.PASS]
        pct = f"{100 * good / ran:.0f}" if ran else "-"
        label = key if not titles or not titles.get(key) else f"{key} {titles[key]}"
        rows.append([label[:60], *[str(counts.get(s, 0)) for s in columns], pct])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
             for row in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
