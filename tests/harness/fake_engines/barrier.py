"""Answers hello only once --count processes of it have started (each leaves a file in --dir),
exiting with status 5 if they have not within --wait seconds: engines started one after the
other never get there, engines started together do. Then it answers every run."""

import os
import sys
import time

from _fake import good_result, loop, options, send


def extra(parser):
    parser.add_argument("--dir", required=True)
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--wait", type=float, default=20.0)


args = options(extra)
open(os.path.join(args.dir, f"started-{os.getpid()}"), "w").close()
give_up_at = time.monotonic() + args.wait
while len(os.listdir(args.dir)) < args.count:
    if time.monotonic() > give_up_at:
        sys.stderr.write(f"fake barrier engine: only {len(os.listdir(args.dir))} of {args.count} started\n")
        sys.exit(5)
    time.sleep(0.02)
loop(args.name or "fake-barrier", lambda seq, request: send({"type": "result", "seq": seq, "result": good_result(request)}))
