"""Shared loop of the fake protocol engines (each fake is a script run with sys.executable).

Independent of the oracle: a fake answers every run with "ok", ``{"legal": true}`` per step
and a snapshot per observed point that echoes the setup (zones, life), unless its own behaviour says otherwise for the
cases whose id matches ``--on`` (an fnmatch pattern, default ``*bad*``). With ``--pipeline N`` its
hello declares that it takes N runs before answering the first (docs/protocol.md): the loop
reads one message at a time and answers in order, so nothing else changes.
"""

import argparse
import fnmatch
import json
import sys

FEATURES = ["casting", "timing", "total_cost", "mana_value", "color"]
PIPELINE = [None]   # --pipeline, once the options are read


def options(add=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--on", default="*bad*", help="misbehave on cases whose id matches this pattern")
    parser.add_argument("--name", default=None, help="engine name to announce")
    parser.add_argument("--pipeline", type=int, default=None, help="declare pipeline: N in the hello reply")
    if add:
        add(parser)
    args = parser.parse_args()
    PIPELINE[0] = args.pipeline
    return args


def matches(args, request):
    return fnmatch.fnmatchcase(request["case"]["id"], args.on)


def good_result(request, legal=True):
    """Every step legal (or not), and each snapshot echoes the setup: zones and life."""
    case = request["case"]
    setup = case["setup"]
    snapshot = {"players": {name: {"life": p.get("life", 20)} for name, p in setup["players"].items()},
                "objects": {o["id"]: {"zone": o["zone"]} for o in setup.get("objects", [])}, "stack": []}
    return {"status": "ok", "steps": [{"legal": legal} for _ in case["steps"]],
            "snapshots": {str(n): snapshot for n in request["observe"]}}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def hello(name, protocol=1):
    reply = {"type": "hello", "protocol": protocol, "engine": {"name": name, "version": "0.0.1"}, "features": FEATURES}
    if PIPELINE[0] is not None:
        reply["pipeline"] = PIPELINE[0]
    return reply


def loop(name, on_run, protocol=1, on_hello=None):
    """Read messages until stop / end of input; ``on_run(seq, request)`` writes the answer."""
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message["type"] == "hello":
            if on_hello:
                on_hello(message)
            else:
                send(hello(name, protocol))
        elif message["type"] == "run":
            on_run(message["seq"], message["request"])
        elif message["type"] == "stop":
            return
