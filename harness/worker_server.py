"""The worker process of an in-process engine: the engine runs here, and each case is judged here.

``harness.worker_engine`` starts ``python -m castrules.harness.worker_server py:TARGET`` for an
in-process engine that must be contained (any but castrules' own, and every ``-j`` lane). It
answers protocol v1 as ``castrules serve`` does (hello, run, stop: it is an engine like any
other) and two messages of castrules' own, which no external engine is ever sent:

- ``{"type": "catalog", "cards": {...}}``: the run's card catalog, sent to each worker process
  once, before its first case (no answer);
- ``{"type": "case", "seq": N, "case": {"id", "title", "path", "file", "rules", "features",
  "doc"}}``: run the case on the engine and judge it here, as a run in process does
  (``runner.run_case``: fresh request, the engine's prints captured, reply checks, comparison),
  answered by ``{"type": "result", "seq": N, "result": <the finished result>}``
  (``worker_engine.result_to_wire``).

Why: a worker answering ``run`` messages left the reply's parsing, checks and comparison to
the one harness process, which under ``-j`` served every lane and was the bottleneck (``-j 2``
slower than serial). Judged here, the harness only sends a case and reads back a short result,
and keeps what makes the worker a container: it times each case, kills the worker's process
group on a timeout, a crash or a garbled line and restarts it (``harness.subprocess_engine``).
Nothing the engine writes can reach the protocol stream: file descriptor 1 is pointed at
stderr, and the protocol is written on a private copy of the original.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.collector import settle
from castrules.harness.engine import Engine, load_engine
from castrules.harness.protocol_server import serve
from castrules.harness.results import Result, Status
from castrules.harness.runner import run_case
from castrules.harness.worker_engine import result_to_wire

Send = Callable[[dict], None]


class Judge:
    """The worker's own messages: the catalog to keep, a case to run and judge."""

    def __init__(self, engine: Engine, inherited: Any = None) -> None:
        self.engine = engine
        self.inherited = inherited      # a forked worker's (worker_engine.Inherited): cases sent by position
        self.catalog = inherited.catalog if inherited is not None else Catalog({})

    def handlers(self) -> dict[str, Callable[[dict, Send], None]]:
        return {"catalog": self.take_catalog, "case": self.judge}

    def take_catalog(self, message: dict, send: Send) -> None:
        cards = message.get("cards")
        self.catalog = Catalog(cards if isinstance(cards, dict) else {})
        # kept for the whole run: out of the collector's sight, as the harness's own suite is
        # (harness.collector); walking it at every collection cost a sixth of a case
        settle()

    def judge(self, message: dict, send: Send) -> None:
        seq, data = message.get("seq"), message.get("case")
        try:
            case = self.held(message["ref"]) if "ref" in message else case_from_wire(data)
        except (KeyError, TypeError, ValueError) as exc:
            send({"type": "result", "seq": seq, "result": {"status": "error", "message": f"not a case: {exc}"}})
            return
        try:
            result = run_case(self.engine, case, self.catalog)
        except BaseException as exc:  # noqa: B036 - the worker has a session of its own: only the engine raises these
            result = Result(case.id, Status.ERROR, message=f"{type(exc).__name__}: {exc}")
        try:
            send({"type": "result", "seq": seq, "result": result_to_wire(result, message.get("trace") is True)})
        except (TypeError, ValueError) as exc:
            send({"type": "result", "seq": seq,
                  "result": {"status": "error", "message": f"the case's result could not be written: {exc}"}})


    def held(self, ref: Any) -> Case:
        """The inherited case at position ``ref``."""
        cases = self.inherited.cases if self.inherited is not None else ()
        if type(ref) is not int or not 0 <= ref < len(cases):
            raise ValueError(f"no case at position {ref!r} in this worker")
        return cases[ref]


def case_from_wire(data: Any) -> Case:
    """A case sent by the harness (``worker_engine.case_to_wire``)."""
    if not isinstance(data, dict) or not isinstance(data.get("doc"), dict):
        raise ValueError("expected an object with a case document")
    return Case(str(data["id"]), str(data["title"]), Path(data["path"]), str(data["file"]),
                tuple(data["rules"]), tuple(data["features"]), data["doc"])


def main(engine_spec: str | None = None, inherited: Any = None) -> int:
    sys.stdout.flush()
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)   # the engine's writes to fd 1 (a C library, os.write) land on stderr, never on the protocol
    requests = os.fdopen(0, "rb", closefd=False) if inherited is not None else None
    try:
        engine = load_engine(engine_spec or "oracle")
    except Exception as exc:  # exit at start, with the reason on stderr for the harness to show
        print(f"castrules worker: cannot load engine {engine_spec or 'oracle'!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 2
    try:
        return serve(engine, stdin=requests, stdout=protocol, handlers=Judge(engine, inherited).handlers())
    finally:
        closer = getattr(engine, "close", None)
        if callable(closer):
            closer()


def serve_inherited(engine_spec: str, inherited: Any) -> int:
    """A forked worker's main (``harness.forked_workers``): ``main``, with the run's cases and
    catalog held from the fork (``worker_engine.Inherited``)."""
    return main(engine_spec, inherited)


if __name__ == "__main__":  # started by harness.worker_engine
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else None))
