"""``python -m castrules`` is the same as the ``castrules`` command (whose entry point this is).

``castrules serve`` is an engine's command line (``--engine "castrules serve"``, every bench
and ``--isolate`` start), so its plain forms, ``serve`` and ``serve --engine SPEC``, start the
server without building the whole command line: the command modules and what they import
(fuzzing, mutants, reports, bench) were about a third of the server's start-up. Any other form
(``--help``, an abbreviation, an unknown option) goes through the full parser, as before.
"""

from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    spec = plain_serve(args)
    if spec is None:
        from castrules.harness.cli import main as command_line

        return command_line(args)
    from castrules.harness.protocol_server import main as serve

    try:
        return serve(spec)
    except KeyboardInterrupt as exc:   # as the full command line reports it
        from castrules.harness.session import interrupt_status

        print("castrules: interrupted", file=sys.stderr)
        return interrupt_status(exc)


def plain_serve(args: Sequence[str]) -> str | None:
    """The engine of ``serve`` or ``serve --engine SPEC`` (``--engine=SPEC``), None for anything else."""
    if list(args[:1]) != ["serve"]:
        return None
    rest = list(args[1:])
    if not rest:
        return "oracle"
    if len(rest) == 2 and rest[0] == "--engine" and not rest[1].startswith("-"):
        return rest[1]
    if len(rest) == 1 and rest[0].startswith("--engine=") and len(rest[0]) > len("--engine="):
        return rest[0][len("--engine="):]
    return None


if __name__ == "__main__":
    raise SystemExit(main())
