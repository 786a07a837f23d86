"""An engine in another process, spoken to with protocol v1 (JSON lines on stdin/stdout).

``SubprocessEngine`` is an in-process engine (``name``, ``version``, ``features``, ``run``,
``close``) that forwards each request to a child process (see docs/protocol.md). The command
line is split with ``shlex`` and run as an argument vector, never through a shell.

A broken engine never takes the run down: a crash, a hang, a line that is not JSON, a wrong
sequence number or a wrong shape becomes an exception for that case (the runner turns it into
an ERROR or TIMEOUT result, with the tail of the engine's stderr as diagnostics) and the
engine is restarted, handshake replayed, for the next case. Such an error carries
``engine_lost = True``: the run (``harness.session``) gives up after that many cases in a row.
With ``max_restarts`` set, the engine itself gives up after that many restarts in a row with
no answered case between them, raising ``TooManyRestarts`` (an ``EngineGaveUp``).

The child process and its pipes (a session of its own, bounded lines, the stderr ring buffer,
killing the whole process group) are ``harness.engine_process``; this module is the protocol
conversation over it: the handshake, one ``run`` per case, the checks of each reply, restarts.
"""

from __future__ import annotations

import os
import shlex
import sys
import threading
import time
from typing import Any, Mapping, Sequence

from castrules.harness import __version__, replies, schemas
from castrules.harness.engine_errors import (EngineCrashed, EngineFailure, EngineLoadError, EngineProtocolError,
                                            EngineStartError, EngineTimeout, TooManyRestarts)
from castrules.harness.engine_process import (STDERR_LINES, STOP_GRACE, EndOfOutput, EngineProcess, ReadTimeout,
                                              decode_line, preview)
from castrules.model.protocol import PROTOCOL_VERSION  # defined once, in the model

DEFAULT_TIMEOUT = 10.0           # seconds per case
DEFAULT_STARTUP_TIMEOUT = 30.0   # seconds from launch to the hello reply (a JVM may be slow)
DEFAULT_MAX_RESTARTS = None      # restarts in a row before the engine gives up itself (None: the run decides)


class SubprocessEngine:
    """An engine speaking protocol v1 in a child process; see the module docstring."""

    out_of_process = True   # it cannot print in the harness's process (harness.runner captures nothing)

    def __init__(self, argv: Sequence[str], *, timeout: float | None = None, isolate: bool = False,
                 startup_timeout: float | None = None, max_restarts: int | None = None,
                 env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr_lines: int = STDERR_LINES, validate_results: bool = False) -> None:
        if not argv:
            raise EngineLoadError("the engine command line is empty")
        self.argv = list(argv)
        self.timeout = float(timeout) if timeout is not None else DEFAULT_TIMEOUT
        self.startup_timeout = float(startup_timeout) if startup_timeout is not None else DEFAULT_STARTUP_TIMEOUT
        self.max_restarts = DEFAULT_MAX_RESTARTS if max_restarts is None else int(max_restarts)
        self._restarts_in_a_row = 0
        self.isolate = bool(isolate)
        self.env, self.cwd, self.stderr_lines = env, cwd, stderr_lines
        self.validate_results = validate_results
        self.restarts = 0
        self.launches = 0
        self._seq = 0
        self._proc: EngineProcess | None = None
        self._broken = False          # the last process died or was killed on a failure
        self._retired: list[threading.Thread] = []
        try:
            hello = self._start()
        except EngineStartError as exc:
            tail = exc.diagnostics.splitlines()[-15:]
            shown = ("\n  engine stderr (last lines):\n" + "\n".join("    " + t for t in tail)) if tail else ""
            raise EngineStartError(f"{exc} [engine: {shlex.join(self.argv)}]{shown}", exc.diagnostics) from None
        engine = hello["engine"]
        self.name: str = engine["name"]
        self.version: str = engine.get("version", "")
        self.homepage: str = engine.get("homepage", "")
        self.features: frozenset[str] = frozenset(hello["features"])
        self.reasons: str = hello.get("reasons", "exact")   # how finely it reports why a step is illegal
        self.hello: dict = hello

    @classmethod
    def from_command_line(cls, command: str, **options: Any) -> "SubprocessEngine":
        try:
            argv = shlex.split(command, posix=os.name != "nt")
        except ValueError as exc:
            raise EngineLoadError(f"cannot split the engine command line {command!r}: {exc}") from exc
        return cls(argv, **options)

    def __repr__(self) -> str:
        return f"SubprocessEngine({shlex.join(self.argv)!r})"

    # -- lifecycle -------------------------------------------------------------------------
    def _start(self) -> dict:
        """Launch a process and complete the handshake; the reply on success."""
        self.launches += 1
        proc = EngineProcess(self.argv, self.env, self.cwd, self.stderr_lines)
        try:
            proc.send({"type": "hello", "protocol": PROTOCOL_VERSION, "suite_version": __version__})
            hello = self._handshake(proc)
        except EngineStartError as exc:
            proc.kill()
            exc.diagnostics = proc.stderr_tail()
            raise
        except BaseException:  # interrupted while it started: nothing is left running
            proc.kill()
            raise
        self._proc = proc
        self._broken = False
        return hello

    def _handshake(self, proc: EngineProcess) -> dict:
        limit = self.startup_timeout
        try:
            line = proc.receive(time.monotonic() + limit)
        except ReadTimeout:
            raise EngineStartError(f"the engine did not answer hello within {limit:g} s (startup timeout)") from None
        except EndOfOutput:
            status = proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            raise EngineStartError(f"the engine {how} before answering hello") from None
        try:
            reply = decode_line(line)
        except ValueError:
            raise EngineStartError(f"the engine's answer to hello is not JSON: {preview(line)}") from None
        if not isinstance(reply, dict):
            raise EngineStartError(f"the engine's answer to hello is not a JSON object: {preview(line)}")
        if reply.get("type") == "refuse":
            theirs = reply.get("protocol")
            speaks = f" (it speaks protocol {theirs})" if theirs is not None else ""
            raise EngineStartError(f"the engine refused protocol {PROTOCOL_VERSION}, the version this harness "
                                   f"(castrules {__version__}) speaks{speaks}: {reply.get('reason', 'no reason given')}")
        if reply.get("type") != "hello":
            raise EngineStartError(f"the engine answered hello with a message of type {reply.get('type')!r}, "
                                   f"expected 'hello': {preview(line)}")
        if reply.get("protocol") != PROTOCOL_VERSION:
            raise EngineStartError(f"protocol version mismatch: the engine speaks protocol {reply.get('protocol')!r}, "
                                   f"this harness (castrules {__version__}) speaks protocol {PROTOCOL_VERSION}")
        problems = schemas.def_errors("protocol", "hello_reply", reply)
        if problems:
            raise EngineStartError("the engine's hello reply breaks protocol v1: " + "; ".join(problems[:5]))
        return reply

    def _retire(self, proc: EngineProcess) -> None:
        """Stop a healthy process without waiting for it (isolate mode)."""
        thread = threading.Thread(target=proc.stop, name="engine-stop", daemon=True)
        thread.start()
        self._retired = [t for t in self._retired if t.is_alive()] + [thread]

    def _fail(self, proc: EngineProcess, kind: type[EngineFailure], message: str) -> EngineFailure:
        proc.kill()
        self._proc = None
        self._broken = True
        error = kind(message, proc.stderr_tail())
        error.engine_lost = True  # type: ignore[attr-defined]  # counted by the run's crash-loop guard
        return error

    def _ensure_process(self) -> EngineProcess:
        proc = self._proc
        if proc is not None and not proc.alive():
            proc.kill()   # died between cases: reap it and count a restart
            self._proc, self._broken, proc = None, True, None
        if proc is not None:
            return proc
        if self._broken:
            if self.max_restarts is not None and self._restarts_in_a_row >= self.max_restarts:
                raise TooManyRestarts(
                    f"engine {self.name!r} stopped: it had to be restarted {self._restarts_in_a_row} time(s) in a row "
                    f"(limit {self.max_restarts}) after crashing, hanging or breaking the protocol; "
                    f"see the errors above. Command: {shlex.join(self.argv)}")
            self.restarts += 1
            self._restarts_in_a_row += 1
        try:
            self._start()
        except EngineStartError as exc:
            self._broken = True
            error = EngineStartError(f"the engine could not be restarted: {exc}", exc.diagnostics)
            error.engine_lost = True  # type: ignore[attr-defined]
            raise error from None
        return self._proc

    # -- the Engine interface --------------------------------------------------------------
    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        proc = self._ensure_process()
        self._seq += 1
        seq = self._seq
        self.case_stderr = ""
        before = proc.stderr_total
        proc.send({"type": "run", "seq": seq, "request": request})
        try:
            line = proc.receive(time.monotonic() + self.timeout)
        except ReadTimeout:
            raise self._fail(proc, EngineTimeout, f"no answer within {self.timeout:g} s; the engine was killed "
                                                  "and will be restarted for the next case") from None
        except EndOfOutput:
            status = proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            raise self._fail(proc, EngineCrashed, f"the engine {how} while running the case (run seq {seq})") from None
        try:
            message = decode_line(line)
        except replies.ReplyError as exc:
            # JSON, but not data an observation may hold (NaN, a huge number): this case's error
            error = EngineProtocolError(f"the engine's answer is not strict JSON data ({exc}): {preview(line)}",
                                        proc.stderr_tail())
            self._after_case(proc)
            raise error from None
        except ValueError as exc:
            why = f" ({exc})" if "longer than" in str(exc) else ""
            raise self._fail(proc, EngineProtocolError, f"the engine wrote a line that is not JSON{why}: {preview(line)}") from None
        if not isinstance(message, dict) or message.get("type") != "result":
            what = f"a message of type {message.get('type')!r}" if isinstance(message, dict) else f"a JSON {type(message).__name__}"
            raise self._fail(proc, EngineProtocolError, f"the engine answered run seq {seq} with {what}, "
                                                        f"expected a result: {preview(line)}")
        if message.get("seq") != seq:
            raise self._fail(proc, EngineProtocolError, f"wrong sequence number: the engine answered seq "
                                                        f"{message.get('seq')!r} to run seq {seq}")
        problems = self._shape_problems(message)
        if problems:
            # In step with us (right type and seq): report the case, keep the process.
            error = EngineProtocolError("the engine's result breaks protocol v1: " + "; ".join(problems[:5]),
                                        proc.stderr_tail())
            self._after_case(proc)
            raise error
        self._after_case(proc)
        self._restarts_in_a_row = 0
        # what the engine wrote on stderr while running this case (read so far): its diagnostics
        count = min(proc.stderr_total - before, len(proc.stderr))
        self.case_stderr = "\n".join(list(proc.stderr)[len(proc.stderr) - count:]) if count > 0 else ""
        return message["result"]

    def _shape_problems(self, message: dict) -> list[str]:
        """Schema errors of a result message (``#/$defs/result_message``).

        The result inside is validated against ``#/$defs/result`` by ``harness.runner`` for
        every engine, so by default only the envelope is checked here (the whole message goes
        through the schema when the envelope looks wrong): validating every result twice
        would cost a third of the protocol's speed. ``validate_results=True`` checks all.
        """
        result = message.get("result")
        if (not self.validate_results and len(message) == 3 and type(message.get("seq")) is int
                and isinstance(result, dict) and result.get("status") in ("ok", "skipped", "errored")):
            return []
        return schemas.def_errors("protocol", "result_message", message)

    def _after_case(self, proc: EngineProcess) -> None:
        if self.isolate:
            self._proc = None
            self._retire(proc)

    def abort(self) -> None:
        """Kill the engine's processes now (the run was interrupted): a case waiting on it
        ends at once as a crash."""
        proc = self._proc
        if proc is not None:
            proc.kill_group()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.stop()
        for thread in self._retired:
            thread.join(timeout=STOP_GRACE + 3)
        self._retired.clear()

    def __enter__(self) -> "SubprocessEngine":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def stderr_tail(self) -> str:
        return self._proc.stderr_tail() if self._proc else ""


__all__ = ["SubprocessEngine", "EngineProcess", "EngineTimeout", "EngineCrashed", "EngineProtocolError",
           "EngineStartError", "EngineFailure", "TooManyRestarts", "PROTOCOL_VERSION"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: castrules run --engine 'COMMAND LINE'")
