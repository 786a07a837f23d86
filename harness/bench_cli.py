"""``castrules bench``: arguments only; the measurements are in ``harness.bench``."""

from __future__ import annotations

import argparse
import json
import sys

from castrules.harness.bench import PARTS, QUICK_CASES, collect_figures, failed_figures, print_figures


def register(sub) -> None:
    bench = sub.add_parser("bench", help="measure the suite's cost on this machine")
    bench.add_argument("--engine", default="oracle", help="engine for the in-process and protocol figures (default oracle)")
    bench.add_argument("--json", action="store_true", help="figures as JSON")
    bench.add_argument("--repeat", type=int, default=3, help="repetitions; the best is kept (default 3)")
    bench.add_argument("--isolate-sample", type=int, default=20, help="cases to run with --isolate (default 20)")
    bench.add_argument("--skip", type=lambda s: set(s.split(",")), default=set(), metavar="PART,..",
                       help="leave out parts: " + ", ".join(PARTS))
    bench.add_argument("--quick", action="store_true",
                       help=f"a short look: {QUICK_CASES} cases, one repetition, small fuzz, growth and solver runs (noisy)")
    bench.set_defaults(handler=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    figures = collect_figures(args.engine, args.repeat, args.isolate_sample, args.skip, args.quick)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print_figures(figures)
    failed = failed_figures(figures)
    if failed:
        print(f"castrules bench: no figure for {', '.join(failed)}: the run failed (see above)", file=sys.stderr)
        return 1
    return 0
