"""Writes something that is not a protocol answer for the case whose id matches --on.

--mode text: a line that is not JSON; shape: a result whose body has the wrong shape;
envelope: a JSON object that is not a result message; hello: garbage instead of the hello.
"""

import sys

from _fake import good_result, hello, loop, matches, options, send


def extra(parser):
    parser.add_argument("--mode", choices=["text", "shape", "envelope", "hello"], default="text")


args = options(extra)


def on_hello(message):
    if args.mode == "hello":
        sys.stdout.write("Picked up JAVA_TOOL_OPTIONS: -Xmx2g\n")
        sys.stdout.flush()
    else:
        send(hello(args.name or "fake-garbage"))


def on_run(seq, request):
    if not matches(args, request):
        send({"type": "result", "seq": seq, "result": good_result(request)})
    elif args.mode == "text":
        sys.stdout.write("DEBUG casting spell... {not json\n")
        sys.stdout.flush()
    elif args.mode == "shape":
        send({"type": "result", "seq": seq, "result": {"status": "great", "steps": "all legal"}})
    else:
        send({"answer": 42})


loop(args.name or "fake-garbage", on_run, on_hello=on_hello)
