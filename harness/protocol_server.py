"""``castrules serve``: any in-process engine (the oracle by default) as a protocol v1 engine.

Reads JSON lines on stdin, answers on stdout (see docs/protocol.md). Anything the engine
itself prints goes to stderr, so stdout carries protocol messages only. An exception raised
by the engine — ``SystemExit`` and ``KeyboardInterrupt`` included: the server runs in a session
of its own, so they can only come from the engine — becomes an ``errored`` result for that
case, as does a result that is not plain bounded JSON data (``harness.replies``); the server
keeps going. ``castrules run`` runs in-process engines other than the oracle this way, in a
worker process, so that a timeout can stop them.
"""

from __future__ import annotations

import json
import sys
import traceback
from typing import IO, Any, Callable, Mapping

from castrules.harness import replies
from castrules.harness.collector import settle
from castrules.harness.engine import Engine, load_engine

from castrules.model.protocol import PROTOCOL_VERSION  # defined once, in the model


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


# runs it takes before answering the first: it reads one message at a time and answers in
# order, so any number waiting on stdin is fine (the harness sends a few at most)
PIPELINE = 16


def hello_reply(engine: Engine) -> dict:
    info = {"name": str(engine.name), "version": str(engine.version)}
    homepage = getattr(engine, "homepage", None)
    if homepage:
        info["homepage"] = str(homepage)
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": info, "features": sorted(engine.features),
            "reasons": getattr(engine, "reasons", "exact"), "pipeline": PIPELINE}


def run_one(engine: Engine, request: Mapping[str, Any]) -> Any:
    try:
        result = engine.run(request)
    except SystemExit as exc:  # the engine's own sys.exit: that case's error, the server goes on
        return {"status": "errored", "message": f"the engine called sys.exit({exc.code!r}) while running the case"}
    except BaseException as exc:  # the engine's bug is that case's answer, not the server's end
        return {"status": "errored", "message": f"{type(exc).__name__}: {exc}",
                "context": "".join(traceback.format_exception(exc)[-3:]).strip()}
    found = replies.problems(result, sets_as_arrays=True)  # the encoder writes sets as arrays
    if found:
        return {"status": "errored", "message": "the engine's result is not plain JSON data: " + "; ".join(found)}
    return result


Handler = Callable[[dict, Callable[[dict], None]], None]


def serve(engine: Engine, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None,
          log: IO[str] | None = None, handlers: Mapping[str, Handler] | None = None) -> int:
    """Answer protocol messages until ``stop`` or the end of input; ``handlers`` answer further
    message types (castrules' own worker: ``harness.worker_server``), each given ``send``."""
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    log = log if log is not None else sys.stderr
    saved_stdout = sys.stdout
    sys.stdout = sys.stderr  # keep the engine's own prints off the protocol stream
    dumps = json.JSONEncoder(separators=(",", ":"), default=_jsonable, allow_nan=False).encode

    def send(message: dict) -> None:
        out.write(dumps(message).encode("utf-8") + b"\n")
        out.flush()

    try:
        for raw in inp:
            if not raw.strip():
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                print(f"castrules serve: ignoring a line that is not JSON: {raw[:100]!r}", file=log)
                continue
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "run":
                seq = message.get("seq")
                request = message.get("request")
                if not isinstance(request, Mapping):
                    result: Any = {"status": "errored", "message": "run message without a request object"}
                else:
                    result = run_one(engine, request)
                try:
                    send({"type": "result", "seq": seq, "result": result})
                except (TypeError, ValueError) as exc:
                    send({"type": "result", "seq": seq,
                          "result": {"status": "errored", "message": f"the engine's result is not JSON: {exc}"}})
            elif kind == "hello":
                if message.get("protocol") != PROTOCOL_VERSION:
                    send({"type": "refuse", "protocol": PROTOCOL_VERSION,
                          "reason": f"castrules serve speaks protocol {PROTOCOL_VERSION}, "
                                    f"not {message.get('protocol')!r}"})
                    return 1
                send(hello_reply(engine))
            elif kind == "stop":
                break
            elif handlers and kind in handlers:
                handlers[kind](message, send)
            else:
                print(f"castrules serve: ignoring a message of type {kind!r}", file=log)
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout = saved_stdout
    return 0


def main(engine_spec: str | None = None) -> int:
    try:
        engine = load_engine(engine_spec or "oracle")
    except Exception as exc:  # exit at start, with the reason on stderr for the harness to show
        print(f"castrules serve: cannot load engine {engine_spec or 'oracle'!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 2
    settle()    # the engine's code and what it keeps between requests last as long as this process
    try:
        return serve(engine)
    finally:
        closer = getattr(engine, "close", None)
        if callable(closer):
            closer()


if __name__ == "__main__":  # the worker process of an in-process engine (harness.worker_engine)
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else None))
