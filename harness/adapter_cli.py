"""The adapter kit's commands: ``castrules request``, ``castrules plan``, ``castrules new-adapter``
(thin wrappers over ``adapter_kit`` and ``skeletons``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from castrules.harness.exits import EXIT_OK, EXIT_USAGE


def register(subparsers) -> None:
    req = subparsers.add_parser("request", help="print exactly what an engine receives for a case",
                                description="The request an engine's run() (or a protocol run message) gets for a case: "
                                            "the case without its expectations, its cards, the points to observe.")
    req.add_argument("case_id")
    req.add_argument("--json", action="store_true", help="one compact line, as it travels in a protocol run message")
    req.set_defaults(handler=cmd_request)

    plan = subparsers.add_parser("plan", help="how many cases a declared set of features unlocks, and what would unlock more",
                                 description="Count the cases a set of declared features unlocks, by feature, and the "
                                             "missing features that would unlock the most.")
    source = plan.add_mutually_exclusive_group(required=True)
    source.add_argument("--features", metavar="F,..", help="the features an engine would declare")
    source.add_argument("--engine", help="take the features an engine declares (module:Class or a command line)")
    plan.add_argument("--top", type=int, default=10, help="how many missing features to list (default 10)")
    plan.add_argument("--json", action="store_true", help="the plan as JSON")
    plan.set_defaults(handler=cmd_plan)

    new = subparsers.add_parser("new-adapter", help="write a runnable adapter skeleton (python, node or java)",
                                description="Write an adapter skeleton that passes castrules smoke as written, with every "
                                            "step kind's dispatch stubbed and commented.")
    new.add_argument("directory", type=Path)
    new.add_argument("--lang", choices=("python", "node", "java"), required=True)
    new.add_argument("--name", default="my-engine", help="the engine name the adapter reports (default my-engine)")
    new.add_argument("--force", action="store_true", help="write into a directory that is not empty")
    new.set_defaults(handler=cmd_new_adapter)


def cmd_request(args: argparse.Namespace) -> int:
    from castrules.harness.adapter_kit import render_request, request_for
    from castrules.harness.names import describe_unknown
    from castrules.harness.suite import shared_suite

    suite = shared_suite()
    case = suite.by_id().get(args.case_id)
    if case is None:
        print(f"castrules: error: {describe_unknown('case id', [args.case_id], suite.by_id())}", file=sys.stderr)
        return EXIT_USAGE
    print(render_request(request_for(case, suite.catalog), compact=args.json))
    return EXIT_OK


def cmd_plan(args: argparse.Namespace) -> int:
    from castrules.harness.adapter_kit import format_plan, plan
    from castrules.harness.contract import ReasonDetail
    from castrules.harness.suite import shared_suite

    suite = shared_suite()
    reasons = ReasonDetail.EXACT
    if args.engine is not None:
        from castrules.harness.engine import close, load_engine

        engine = load_engine(args.engine)
        try:
            declared = sorted(engine.features)
            reasons = ReasonDetail.parse(getattr(engine, "reasons", None))
        finally:
            close(engine)
    else:
        declared = [f.strip() for f in args.features.split(",") if f.strip()]
    result = plan(suite, declared, top=args.top, reasons=reasons)
    print(json.dumps(result.to_json(), indent=2) if args.json else format_plan(result))
    return EXIT_OK


def cmd_new_adapter(args: argparse.Namespace) -> int:
    from castrules.harness.skeletons import SkeletonError, write_skeleton

    try:
        written = write_skeleton(args.lang, args.directory, args.name, force=args.force)
    except SkeletonError as exc:
        print(f"castrules: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for path in written.files:
        print(f"wrote {path}")
    print("\nnext:")
    for line in written.next_steps:
        print(f"  {line}")
    return EXIT_OK
