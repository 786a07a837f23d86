"""Answers the case whose id matches --on with a number JSON data cannot hold as an
observation: --mode nan (NaN), inf (Infinity) or huge (a 5,000-digit integer); also records
its pid in --pids when given."""

import os
import sys

from _fake import good_result, loop, matches, options


def extra(parser):
    parser.add_argument("--mode", choices=["nan", "inf", "huge"], default="nan")
    parser.add_argument("--pids")


args = options(extra)
if args.pids:
    with open(args.pids, "a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")
LITERAL = {"nan": "NaN", "inf": "Infinity", "huge": "1" + "0" * 5000}[args.mode]


def on_run(seq, request):
    if matches(args, request):
        sys.stdout.write('{"type": "result", "seq": %d, "result": {"status": "ok", "steps": [{"legal": true}], '
                         '"snapshots": {}, "life": %s}}\n' % (seq, LITERAL))
    else:
        import json
        sys.stdout.write(json.dumps({"type": "result", "seq": seq, "result": good_result(request)}) + "\n")
    sys.stdout.flush()


loop(args.name or "fake-wild-numbers", on_run)
