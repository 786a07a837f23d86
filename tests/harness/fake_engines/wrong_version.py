"""Speaks protocol 2 only: answers hello with protocol 2, or with a refuse (--refuse)."""

from _fake import good_result, hello, loop, options, send


def extra(parser):
    parser.add_argument("--refuse", action="store_true")


args = options(extra)


def on_hello(message):
    if args.refuse:
        send({"type": "refuse", "protocol": 2, "reason": "this engine speaks protocol 2 only"})
    else:
        send(hello(args.name or "fake-protocol-2", protocol=2))


loop(args.name or "fake-protocol-2",
     lambda seq, request: send({"type": "result", "seq": seq, "result": good_result(request)}), on_hello=on_hello)
