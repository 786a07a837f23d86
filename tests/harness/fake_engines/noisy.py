"""Works, and writes lots of stderr (--bytes per case, default 300 kB): diagnostics, not a crash."""

import sys

from _fake import good_result, loop, options, send


def extra(parser):
    parser.add_argument("--bytes", type=int, default=300_000)


args = options(extra)
sys.stderr.write("fake noisy engine: starting\n" * 1000)


def on_run(seq, request):
    line = f"DEBUG {request['case']['id']}: " + "x" * 90 + "\n"
    sys.stderr.write(line * (args.bytes // len(line) + 1))
    sys.stderr.write("no newline at the end of this one, and a very long line: " + "y" * 10000)
    sys.stderr.flush()
    send({"type": "result", "seq": seq, "result": good_result(request)})


loop(args.name or "fake-noisy", on_run)
