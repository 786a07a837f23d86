"""``castrules mutants``: arguments only; the mutation runs are in ``harness.mutation``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from castrules.harness.mutation import MUTANTS_MODULE, MutantReport, baseline, registry, run_all, run_mutant

EXIT_OK, EXIT_SURVIVORS, EXIT_USAGE = 0, 1, 2

__all__ = ["MUTANTS_MODULE", "MutantReport", "baseline", "registry", "run_all", "run_mutant", "register", "cmd_mutants"]


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
    survivors = [r for r in reports if r.status == "survived"]
    broken = [r for r in reports if r.status == "broken"]
    if args.json:
        print(json.dumps({"mutants": [r.to_json() for r in reports], "survived": [r.name for r in survivors],
                          "broken": [r.name for r in broken],
                          "seconds": round(time.perf_counter() - started, 3)}, indent=2))
    else:
        for r in reports:
            if r.status == "broken":
                print(f"BROKEN    {r.name}: {r.broken}")
            elif r.killed:
                ids = r.killed_by + [f"{i} (error)" for i in r.errored_on]
                print(f"killed    {r.name}: {', '.join(ids)}")
            else:
                print(f"SURVIVED  {r.name}: {r.description} ({r.cases_run} cases)")
        killed = len(reports) - len(survivors) - len(broken)
        print(f"\n{len(reports)} mutants: {killed} killed, {len(survivors)} survived, {len(broken)} broken "
              f"({time.perf_counter() - started:.1f}s)")
        if survivors:
            print("A surviving mutant is a hole in the suite: write a case its bug fails.", file=sys.stderr)
        if broken:
            print("A broken mutant no longer injects its bug: fix the mutant (its seams, its witness cases), "
                  "not the suite.", file=sys.stderr)
    return EXIT_SURVIVORS if survivors or broken else EXIT_OK
