"""Speaks the protocol perfectly and is wrong about everything: every step is illegal."""

from _fake import good_result, loop, options, send

args = options()
loop(args.name or "fake-always-wrong",
     lambda seq, request: send({"type": "result", "seq": seq, "result": good_result(request, legal=False)}))
