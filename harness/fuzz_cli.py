"""``castrules fuzz``: arguments only; the fuzzing is in ``harness.fuzzing``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from castrules.harness.fuzzing import fuzz, write_finding
from castrules.harness.output_paths import OutputFailures, OutputKind, OutputPath, check_output_paths

EXIT_OK, EXIT_FOUND, EXIT_NOT_WRITTEN = 0, 1, 2


def register(subparsers) -> None:
    p = subparsers.add_parser("fuzz", help="differential fuzzing: generated cases on an engine and on the oracle")
    p.add_argument("--engine", required=True, help="the engine to test: oracle, module:Class or a command line")
    p.add_argument("--examples", type=int, default=200, metavar="N", help="generated cases to try (default 200)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed: same seed, same cases (default 0)")
    p.add_argument("--out", type=Path, default=Path("castrules-fuzz"), metavar="DIR",
                   help="where the minimal failing case is written (default ./castrules-fuzz/)")
    p.add_argument("--shrink-runs", type=int, default=1000, metavar="N",
                   help="smaller cases tried while shrinking a failing one (default 1000)")
    p.add_argument("--reference", default="oracle", help=argparse.SUPPRESS)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress")
    p.set_defaults(handler=cmd_fuzz)


def cmd_fuzz(args: argparse.Namespace) -> int:
    def progress(n: int) -> None:
        print(f"  {n} cases...", file=sys.stderr, flush=True)

    check_output_paths([OutputPath("--out", args.out, OutputKind.FOLDER)])   # before the search, not after it
    report = fuzz(args.engine, args.examples, args.seed, None, args.reference,
                  progress=None if args.quiet else progress, shrink_runs=args.shrink_runs)
    print(f"{report.tried} examples, {report.examples} distinct generated cases ({report.compared} compared, "
          f"{report.unsupported} unsupported by the engine) in {report.seconds:.1f}s, seed {args.seed}")
    if report.finding is None:
        print("no disagreement with the oracle")
        return EXIT_OK
    verdict = report.verdict
    failures = OutputFailures()
    if failures.attempt(f"--out {args.out}", lambda: setattr(report, "path", write_finding(report.finding, args.out))):
        print(f"FOUND ({verdict.kind}) after {report.examples} cases; minimal case written to {report.path}")
    else:   # not lost: the case goes to stdout instead
        import yaml

        print(f"FOUND ({verdict.kind}) after {report.examples} cases; the minimal case could not be written, here it is:")
        print(yaml.safe_dump(dict(report.finding), sort_keys=False, allow_unicode=True, width=110), end="")
    if verdict.message:
        print("  " + verdict.message)
    for n, mismatch in verdict.mismatches[:10]:
        print(f"  {mismatch}")
    print("Its expectations are the oracle's: check each against the rules before adding it to the suite.")
    return EXIT_NOT_WRITTEN if failures else EXIT_FOUND
