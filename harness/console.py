"""What a run prints at its end: the unexpected results in full, the tables, the last line.

(What it prints while cases run is ``harness.progress``.)
"""

from __future__ import annotations

import sys

from castrules.harness.contract import ReasonDetail
from castrules.harness.progress import last_line
from castrules.harness.results import Result, Status, trace_line
from castrules.harness.suite import Suite
from castrules.harness.textsafe import safe_text
from castrules.harness.summary import by_key, format_table, rule_sort_key


def print_report(results: list[Result], engine, suite: Suite, quiet: bool = False, tables: bool = True,
                 selected: int | None = None) -> None:
    """Full descriptions of the unexpected results and the tables; with ``quiet`` only the last
    line (the one-line descriptions were printed as the results came)."""
    out = sys.stdout
    unexpected = [r for r in results if r.status.is_unexpected]
    for result in unexpected if not quiet else ():
        if result.status is not Status.NOT_RUN:  # not-run cases are summed up by the last line
            print(describe_result(result), file=out)
    if not quiet and tables and results:
        print("\nBy feature:", file=out)
        print(format_table("feature", by_key(results, "features")), file=out)
        print("\nBy rule:", file=out)
        titles = {n: suite.vocabulary.rule_title(n) for n in {r for res in results for r in res.rules}}
        print(format_table("rule", by_key(results, "rules"), sort_key=rule_sort_key, titles=titles), file=out)
    print(("\n" if not quiet else "") + safe_text(last_line(results, engine.name, engine.version, selected)), file=out)
    detail = ReasonDetail.parse(getattr(engine, "reasons", None))
    if detail is not ReasonDetail.EXACT:
        print(f"illegal steps compared: {detail.describe()}", file=out)


def describe_result(result: Result, explain: bool = True) -> str:
    lines = [f"\n{result.status.value.upper()}: {result.case_id}  ({result.file}; rules {', '.join(result.rules)})"]
    for mismatch in result.mismatches:
        lines.append(f"  {mismatch}")
    if result.message:
        lines.extend("  " + line for line in result.message.splitlines())
    if result.diagnostics:
        lines.append("  engine diagnostics:")
        lines.extend("    " + line for line in result.diagnostics.splitlines()[-15:])
    if explain and result.trace and result.status is Status.FAIL:
        lines.append("  engine trace:")
        lines.extend("    " + trace_line(t) for t in result.trace)
    if explain and result.oracle_trace:
        lines.append("  the oracle's explanation of the case:")
        lines.extend("    " + trace_line(t) for t in result.oracle_trace)
    return safe_text("\n".join(lines))   # the terminal shows an engine's control characters, never obeys them
