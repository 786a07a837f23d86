"""A pin of the oracle's own outputs for refactors and speed work (issue 16 asks for "a test that
compares whole reports"): every case's whole report on the oracle (status, message, the full reply
with every snapshot, the trace's rule numbers) against tests/oracle/golden/suite-report.tsv.

This is NOT a case expectation (those are worked out by hand in cases/); it only proves that a
change meant to alter nothing the oracle reports really alters nothing."""

from __future__ import annotations

import warnings

from report_pin import GOLDEN, OBSERVED, current, differences, read

HOW_TO_REGENERATE = (
    "Regenerate (python scripts/pin_oracle_report.py --ids ID,...) ONLY if you changed those cases on "
    "purpose, or changed what the oracle reports on purpose (say so in the commit). If your change was a "
    "refactor or speed work meant to change nothing, this is a bug in your change: fix it, do not regenerate.")


def test_the_oracle_reports_what_the_pin_says():
    pinned = read(GOLDEN)
    now = current()
    unpinned = sorted(set(now) - set(pinned))
    gone = sorted(set(pinned) - set(now))
    if unpinned or gone:  # cases added or retired by others: a hint, never a failure of their change
        warnings.warn(f"the report pin does not cover {len(unpinned)} case(s) {unpinned[:5]} and pins "
                      f"{len(gone)} the suite no longer has {gone[:5]}: python scripts/pin_oracle_report.py "
                      f"--ids {','.join((unpinned + gone)[:20])}", stacklevel=1)
    changed = {case_id: differences(pinned[case_id], now[case_id]) for case_id in sorted(set(pinned) & set(now))
               if pinned[case_id] != now[case_id]}
    assert not changed, _message(changed, pinned, now)


def test_the_pin_covers_the_suite_it_was_written_for():
    """The pin holds real reports: hundreds of cases, each with a status and a reply from the oracle."""
    pinned = read(GOLDEN)
    assert len(pinned) >= 500
    assert all(set(OBSERVED) | {"trace"} == set(record) and record["reply"].get("status") for record in pinned.values())


def _message(changed: dict[str, list[str]], pinned: dict, now: dict) -> str:
    lines = [f"the oracle's report changed on {len(changed)} case(s) (first differences below)."]
    for case_id, diffs in list(changed.items())[:10]:
        judged = [k for k in OBSERVED if pinned[case_id][k] != now[case_id][k]]
        what = f"observations/status changed ({', '.join(judged)})" if judged else "only the trace's rule numbers changed"
        lines.append(f"- {case_id}: {what}")
        lines += [f"    {d}" for d in diffs[:6]]
    lines.append(HOW_TO_REGENERATE)
    return "\n".join(lines)
