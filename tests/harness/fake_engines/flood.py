"""On the case whose id matches --on: --mode blank writes --count blank lines before a good
answer (blank lines are no answer: the case passes); --mode long writes one line of --count
bytes (longer than the harness's line limit in the test: that case's error)."""

import json
import sys

from _fake import good_result, loop, matches, options


def extra(parser):
    parser.add_argument("--mode", choices=["blank", "long"], default="blank")
    parser.add_argument("--count", type=int, default=100_000)


args = options(extra)


def on_run(seq, request):
    if matches(args, request):
        if args.mode == "blank":
            sys.stdout.write("\n" * args.count)
        else:
            sys.stdout.write("x" * args.count + "\n")
            sys.stdout.flush()
            return
    sys.stdout.write(json.dumps({"type": "result", "seq": seq, "result": good_result(request)}) + "\n")
    sys.stdout.flush()


loop(args.name or "fake-flood", on_run)
