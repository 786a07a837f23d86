"""Sub-commands for protocol engines: ``castrules serve`` and ``castrules smoke``."""

from __future__ import annotations

import argparse

from castrules.harness.values import seconds


def register(subparsers) -> None:
    serve = subparsers.add_parser(
        "serve", help="run an in-process engine (the oracle by default) as a protocol v1 engine on stdin/stdout",
        description="Speak protocol v1 (docs/protocol.md) on stdin/stdout for an in-process engine.")
    serve.add_argument("--engine", default="oracle", help="oracle (default) or module:Class")
    serve.set_defaults(handler=cmd_serve)

    smoke = subparsers.add_parser(
        "smoke", help="check an engine's side of the protocol: handshake, sequence echo, answer shapes, one case",
        description="Start a protocol engine and check its side of protocol v1; PASS/FAIL per check, exit 0/1.")
    smoke.add_argument("--engine", required=True, help="the engine's command line (run as an argument vector, no shell)")
    smoke.add_argument("--timeout", type=seconds, default=10.0, help="seconds per answer (default 10)")
    smoke.add_argument("--startup-timeout", type=seconds, default=30.0, help="seconds to the hello reply (default 30)")
    smoke.set_defaults(handler=cmd_smoke)


def cmd_serve(args: argparse.Namespace) -> int:
    from castrules.harness.protocol_server import main

    return main(args.engine)


def cmd_smoke(args: argparse.Namespace) -> int:
    from castrules.harness.smoke import smoke

    return smoke(args.engine, timeout=args.timeout, startup_timeout=args.startup_timeout)
