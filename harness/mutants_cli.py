"""``castrules mutants``: mutation testing of the suite (issue 7).

Each mutant is an engine: the oracle with one realistic bug injected (``oracle/mutants.py``,
loaded by spec string like any other engine, ``castrules.oracle.mutants:<Name>``). The suite runs
against each; a mutant is *killed* when a case the unmutated oracle passes fails (or errors)
on it. A mutant no case kills is a hole in the suite: write a case that catches its bug.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import close, load_engine
from castrules.harness.results import Status
from castrules.harness.runner import run_case

MUTANTS_MODULE = "castrules.oracle.mutants"
EXIT_OK, EXIT_SURVIVORS, EXIT_USAGE = 0, 1, 2


@dataclass
class MutantReport:
    name: str
    description: str
    killed_by: list[str] = field(default_factory=list)      # cases that fail on the mutant
    errored_on: list[str] = field(default_factory=list)     # cases on which the mutant raised or broke its contract
    cases_run: int = 0
    seconds: float = 0.0

    @property
    def killed(self) -> bool:
        return bool(self.killed_by or self.errored_on)

    def to_json(self) -> dict:
        return {"name": self.name, "description": self.description,
                "status": "killed" if self.killed else "survived", "killed_by": self.killed_by,
                "errored_on": self.errored_on, "cases_run": self.cases_run, "seconds": round(self.seconds, 3)}


def registry(module: str = MUTANTS_MODULE) -> dict[str, str]:
    """Mutant name -> description, from the mutants module's ``MUTANTS``."""
    try:
        found = importlib.import_module(module).MUTANTS
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot read the mutants of {module!r}: {exc}") from exc
    return dict(found)


def baseline(cases: Iterable[Case], catalog: Catalog, reference: str = "oracle") -> list[Case]:
    """The cases the unmutated reference engine passes: only these can kill a mutant."""
    engine = load_engine(reference)
    try:
        return [c for c in cases if run_case(engine, c, catalog).status is Status.PASS]
    finally:
        close(engine)


def run_mutant(name: str, description: str, cases: Sequence[Case], catalog: Catalog,
               module: str = MUTANTS_MODULE, max_kills: int = 3) -> MutantReport:
    """Run the cases (those the reference passes) on one mutant; stop after `max_kills`
    killing cases (0: run them all)."""
    report = MutantReport(name, description)
    started = time.perf_counter()
    engine = load_engine(f"{module}:{name}")
    try:
        for case in cases:
            result = run_case(engine, case, catalog)
            report.cases_run += 1
            if result.status is Status.FAIL:
                report.killed_by.append(case.id)
            elif result.status.is_unexpected or result.status is Status.SKIPPED:
                report.errored_on.append(case.id)
            if max_kills and len(report.killed_by) + len(report.errored_on) >= max_kills:
                break
    finally:
        close(engine)
    report.seconds = time.perf_counter() - started
    return report


def run_all(names: Sequence[str] | None = None, module: str = MUTANTS_MODULE, max_kills: int = 3,
            suite=None) -> list[MutantReport]:
    from castrules.harness.suite import load_suite

    suite = suite or load_suite()
    known = registry(module)
    chosen = list(names) if names else list(known)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"unknown mutant(s): {', '.join(unknown)}; known: {', '.join(known)}")
    cases = baseline(suite.cases, suite.catalog)
    return [run_mutant(n, known[n], cases, suite.catalog, module, max_kills) for n in chosen]


def register(subparsers) -> None:
    p = subparsers.add_parser("mutants", help="run the suite against deliberately wrong engines (mutation testing)")
    p.add_argument("--only", type=lambda t: [s.strip() for s in t.split(",") if s.strip()], default=[],
                   metavar="NAME,..", help="only these mutants")
    p.add_argument("--max-kills", type=int, default=3, metavar="N",
                   help="stop a mutant's run after N killing cases (default 3; 0 runs every case)")
    p.add_argument("--module", default=MUTANTS_MODULE, help=f"module holding the mutants (default {MUTANTS_MODULE})")
    p.add_argument("--list", action="store_true", help="list the mutants and their bugs, run nothing")
    p.add_argument("--json", action="store_true", help="the reports as one JSON document")
    p.set_defaults(handler=cmd_mutants)


def cmd_mutants(args: argparse.Namespace) -> int:
    if args.list:
        for name, description in registry(args.module).items():
            print(f"{name:40} {description}")
        return EXIT_OK
    started = time.perf_counter()
    reports = run_all(args.only, args.module, args.max_kills)
    survivors = [r for r in reports if not r.killed]
    if args.json:
        print(json.dumps({"mutants": [r.to_json() for r in reports], "survived": [r.name for r in survivors],
                          "seconds": round(time.perf_counter() - started, 3)}, indent=2))
    else:
        for r in reports:
            if r.killed:
                ids = r.killed_by + [f"{i} (error)" for i in r.errored_on]
                print(f"killed    {r.name}: {', '.join(ids)}")
            else:
                print(f"SURVIVED  {r.name}: {r.description} ({r.cases_run} cases)")
        print(f"\n{len(reports)} mutants: {len(reports) - len(survivors)} killed, {len(survivors)} survived "
              f"({time.perf_counter() - started:.1f}s)")
        if survivors:
            print("A surviving mutant is a hole in the suite: write a case its bug fails.", file=sys.stderr)
    return EXIT_SURVIVORS if survivors else EXIT_OK
