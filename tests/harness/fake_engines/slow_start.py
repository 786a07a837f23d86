"""Takes --delay seconds (default 1.5) to start, like a JVM loading a card database; then works."""

import sys
import time

from _fake import good_result, loop, options, send


def extra(parser):
    parser.add_argument("--delay", type=float, default=1.5)


args = options(extra)
sys.stderr.write("fake slow engine: loading 30000 cards...\n")
sys.stderr.flush()
time.sleep(args.delay)
loop(args.name or "fake-slow-start",
     lambda seq, request: send({"type": "result", "seq": seq, "result": good_result(request)}))
