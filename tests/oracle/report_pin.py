"""The whole suite's report on the oracle, one compact JSON line per case: a pin of the oracle's
own outputs for refactors and speed work (issue 16: "a test that compares whole reports").

It is NOT a case expectation: cases hold the expectations, worked out by hand from the rules.
The pin only says that the oracle answers today exactly what it answered when the golden file
was written, so a refactor that changes nothing a case checks, but changes what the oracle
reports (a snapshot field of an object no case looks at, a reason code, a trace's rule numbers),
is seen at once. Used by tests/oracle/test_report_pin.py and scripts/pin_oracle_report.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

from castrules.harness.engine import load_engine
from castrules.harness.expectations import default_expectations
from castrules.harness.runner import fresh_request, run_case
from castrules.harness.suite import load_suite

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "oracle" / "golden" / "suite-report.tsv"

# the parts of one case's pinned record; "trace" is the explanation, the others what an engine is judged on
OBSERVED = ("status", "message", "mismatches", "reply")


def canonical(value: object) -> str:
    """One spelling of a JSON value: sorted keys, no spaces, so equal records are equal lines."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def record(engine, case, catalog, expectations) -> dict:
    """What the oracle reports for one case: the harness's status, message and mismatches, the
    oracle's whole reply without its trace, and the trace as (step, rule numbers) pairs (the note
    texts are prose and may be reworded freely)."""
    result = run_case(engine, case, catalog, expectations)
    reply = engine.run(fresh_request(case, catalog))
    trace = [[entry.get("step"), list(entry.get("rules") or ())] for entry in reply.pop("trace", ())]
    return {"status": result.status.value, "message": result.message,
            "mismatches": [m.to_json() for m in result.mismatches], "reply": reply, "trace": trace}


def current(ids: Iterable[str] | None = None) -> dict[str, dict]:
    """The records of the suite's cases (only ``ids`` when given), keyed by case id."""
    suite = load_suite()
    engine = load_engine("oracle")
    expectations = default_expectations(engine, None)
    wanted = set(ids) if ids is not None else None
    return {case.id: record(engine, case, suite.catalog, expectations)
            for case in suite.cases if wanted is None or case.id in wanted}


def read(path: Path = GOLDEN) -> dict[str, dict]:
    """The golden file: ``<case id>\\t<canonical JSON>`` per line."""
    pinned = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            case_id, _, data = line.partition("\t")
            pinned[case_id] = json.loads(data)
    return pinned


def write(records: dict[str, dict], path: Path = GOLDEN) -> None:
    """One line per case sorted by id, so engineers regenerating different cases merge cleanly."""
    lines = [f"{case_id}\t{canonical(records[case_id])}\n" for case_id in sorted(records)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")


def differences(pinned: object, observed: object, path: str = "") -> list[str]:
    """Where two records differ, as ``path: pinned X, now Y`` lines (the first few are enough)."""
    if isinstance(pinned, dict) and isinstance(observed, dict):
        found = []
        for key in sorted(set(pinned) | set(observed)):
            where = f"{path}.{key}" if path else str(key)
            if key not in pinned or key not in observed:
                found.append(f"{where}: pinned {_short(pinned.get(key, '<absent>'))}, now {_short(observed.get(key, '<absent>'))}")
            else:
                found += differences(pinned[key], observed[key], where)
        return found
    if isinstance(pinned, list) and isinstance(observed, list) and len(pinned) == len(observed):
        return [d for i, (a, b) in enumerate(zip(pinned, observed)) for d in differences(a, b, f"{path}[{i}]")]
    return [] if pinned == observed else [f"{path}: pinned {_short(pinned)}, now {_short(observed)}"]


def _short(value: object) -> str:
    text = canonical(value)
    return text if len(text) <= 160 else text[:157] + "..."
