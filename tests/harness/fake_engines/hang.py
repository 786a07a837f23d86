"""Never answers the case whose id matches --on (sleeps); answers the others."""

import sys
import time

from _fake import good_result, loop, matches, options, send

args = options()


def on_run(seq, request):
    if matches(args, request):
        sys.stderr.write(f"fake hang engine: thinking forever about {request['case']['id']}\n")
        sys.stderr.flush()
        time.sleep(3600)
    send({"type": "result", "seq": seq, "result": good_result(request)})


loop(args.name or "fake-hang", on_run)
