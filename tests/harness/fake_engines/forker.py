"""On the case whose id matches --on, forks a child that keeps stdout open and sleeps, then
exits (--then exit) or hangs (--then hang). Every process writes its pid to --pids, one a line,
so a test can check that none is left running."""

import os
import sys
import time

from _fake import good_result, loop, matches, options, send


def extra(parser):
    parser.add_argument("--then", choices=["exit", "hang"], default="exit")
    parser.add_argument("--pids", required=True)


args = options(extra)


def note_pid():
    with open(args.pids, "a", encoding="utf-8") as out:
        out.write(f"{os.getpid()}\n")


note_pid()


def on_run(seq, request):
    if matches(args, request):
        if os.fork() == 0:          # the child inherits stdout and keeps it open
            note_pid()
            time.sleep(3600)
            os._exit(0)
        if args.then == "hang":
            time.sleep(3600)
        os._exit(5)
    send({"type": "result", "seq": seq, "result": good_result(request)})


loop(args.name or "fake-forker", on_run)
