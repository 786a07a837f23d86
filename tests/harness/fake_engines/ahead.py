"""Declares ``pipeline: 2`` and, before answering a run, waits up to --wait seconds for the next
message; it says on stderr, for each run it answers, whether the next run was already there
(``ahead``) or not (``alone``). It reads stdin unbuffered, so it sees exactly what was sent."""

import json
import os
import select
import sys

from _fake import PIPELINE, good_result, hello, options, send


def extra(parser):
    parser.add_argument("--wait", type=float, default=1.0)


args = options(extra)
PIPELINE[0] = 2 if PIPELINE[0] is None else PIPELINE[0]
buffer = b""


def next_line(wait):
    """The next line of stdin within ``wait`` seconds (None: end of input or nothing came)."""
    global buffer
    while b"\n" not in buffer:
        if wait is not None and not select.select([0], [], [], wait)[0]:
            return None
        data = os.read(0, 65536)
        if not data:
            return None
        buffer += data
    line, buffer = buffer.split(b"\n", 1)
    return line


waiting = next_line(None)
while waiting is not None:
    message = json.loads(waiting)
    waiting = None
    if message["type"] == "hello":
        send(hello(args.name or "fake-ahead"))
    elif message["type"] == "run":
        waiting = next_line(args.wait)
        sys.stderr.write(f"seq {message['seq']}: {'ahead' if waiting is not None else 'alone'}\n")
        sys.stderr.flush()
        send({"type": "result", "seq": message["seq"], "result": good_result(message["request"])})
    elif message["type"] == "stop":
        break
    if waiting is None:
        waiting = next_line(None)
