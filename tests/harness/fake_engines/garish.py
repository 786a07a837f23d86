"""The garish in-process engine's answers over the protocol, plus control bytes on stderr and a
crash on the case whose id ends in "raises" (its stderr tail becomes the case's diagnostics)."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fake_inprocess"))

from _fake import hello, loop, options, send  # noqa: E402
from garish import NASTY, answer  # noqa: E402

args = options()


def on_hello(message):
    reply = hello(f"garish {NASTY}")
    reply["engine"]["version"] = f"1 {NASTY}"
    reply["features"] = ["casting"]
    send(reply)


def on_run(seq, request):
    if request["case"]["id"].endswith("raises"):
        sys.stderr.buffer.write(b"stderr \x1b[1;31mboom\x1b[0m nul\x00 bad utf-8 \xff\xfe c1 \xc2\x85\n")
        sys.stderr.flush()
        os._exit(3)
    send({"type": "result", "seq": seq, "result": answer(request)})


loop("garish", on_run, on_hello=on_hello)
