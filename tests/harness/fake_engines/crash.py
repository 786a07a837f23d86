"""Exits (status 3) in the middle of the case whose id matches --on; optionally exits at start."""

import os
import sys

from _fake import good_result, loop, matches, options, send


def extra(parser):
    parser.add_argument("--exit-at-start", action="store_true", help="exit before the hello (every launch)")
    parser.add_argument("--launches", help="file counting launches (one line each)")
    parser.add_argument("--exit-at-launch", default="", help="comma-separated launch numbers that exit at start")


args = options(extra)
launch = 1
if args.launches:
    with open(args.launches, "a+", encoding="utf-8") as counter:
        counter.seek(0)
        launch = len(counter.read().splitlines()) + 1
        counter.write("launch\n")
if args.exit_at_start or str(launch) in args.exit_at_launch.split(","):
    sys.stderr.write(f"fake crash engine: cannot find engine.jar (launch {launch})\n")
    sys.stderr.flush()
    sys.exit(4)


def on_run(seq, request):
    if matches(args, request):
        sys.stderr.write(f"fake crash engine: NullPointerException in {request['case']['id']}\n")
        sys.stderr.flush()
        os._exit(3)
    send({"type": "result", "seq": seq, "result": good_result(request)})


loop(args.name or "fake-crash", on_run)
