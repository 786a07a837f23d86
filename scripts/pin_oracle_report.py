"""Regenerate the oracle's pinned whole-suite report (tests/oracle/golden/suite-report.tsv).

The pin is the oracle's own outputs, not an expectation of any case (see tests/oracle/report_pin.py).
Regenerate only when a case was added or changed on purpose, or when you changed what the oracle
reports on purpose (and say so in the commit message); never to make a refactor's test pass.

    python scripts/pin_oracle_report.py                 # every case of the suite (rewrites the file)
    python scripts/pin_oracle_report.py --ids a,b       # only these lines (added, replaced, or
                                                        # removed when the suite no longer has the id)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "oracle"))

import report_pin  # noqa: E402  (the pin's one definition, shared with its test)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", help="comma-separated case ids: regenerate only their lines")
    args = parser.parse_args(argv)
    if args.ids is None:
        records = report_pin.current()
    else:
        ids = [i.strip() for i in args.ids.split(",") if i.strip()]
        if not ids:
            parser.error("--ids names no case")
        records = report_pin.read() if report_pin.GOLDEN.exists() else {}
        fresh = report_pin.current(ids)
        for case_id in ids:
            records.pop(case_id, None)
        records.update(fresh)
        gone = sorted(set(ids) - set(fresh))
        if gone:
            print(f"not in the suite, line removed: {', '.join(gone)}")
    report_pin.write(records)
    print(f"{report_pin.GOLDEN.relative_to(report_pin.ROOT)}: {len(records)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
