"""Answers the case whose id matches --on with the wrong sequence number (seq + 1)."""

from _fake import good_result, loop, matches, options, send

args = options()


def on_run(seq, request):
    send({"type": "result", "seq": seq + 1 if matches(args, request) else seq, "result": good_result(request)})


loop(args.name or "fake-wrong-seq", on_run)
