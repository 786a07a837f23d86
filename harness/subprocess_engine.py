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
killing the whole process group) are ``harness.engine_process``; keeping one there (the
handshake, restarts and their limit, isolate mode) is ``harness.engine_supervisor``; this module
is the conversation for each case: one ``run`` message, its reply read and checked.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from typing import Any, Callable, Mapping, Sequence

from castrules.harness import replies, schemas
from castrules.harness.engine_errors import (EngineCrashed, EngineFailure, EngineLoadError, EngineProtocolError,
                                            EngineStartError, EngineTimeout, TooManyRestarts)
from castrules.harness.engine_process import (STDERR_LINES, EndOfOutput, EngineProcess, ReadTimeout, decode_line,
                                              preview)
from castrules.harness.engine_pipeline import InFlight, pipeline_depth
from castrules.harness.engine_supervisor import Supervisor
from castrules.model.protocol import PROTOCOL_VERSION  # defined once, in the model

DEFAULT_TIMEOUT = 10.0           # seconds per case
DEFAULT_STARTUP_TIMEOUT = 30.0   # seconds from launch to the hello reply (a JVM may be slow)
DEFAULT_MAX_RESTARTS = None      # restarts in a row before the engine gives up itself (None: the run decides)


class SubprocessEngine:
    """An engine speaking protocol v1 in a child process; see the module docstring."""

    out_of_process = True   # it cannot print in the harness's process (harness.runner captures nothing)
    replies_checked = True  # every result it returns was parsed by replies.loads: plain bounded data

    def __init__(self, argv: Sequence[str], *, timeout: float | None = None, isolate: bool = False,
                 startup_timeout: float | None = None, max_restarts: int | None = None,
                 env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr_lines: int = STDERR_LINES, validate_results: bool = False, launched: Any = None) -> None:
        if not argv:
            raise EngineLoadError("the engine command line is empty")
        self.argv = list(argv)
        self.timeout = float(timeout) if timeout is not None else DEFAULT_TIMEOUT
        self.isolate = bool(isolate)
        self.validate_results = validate_results
        self.case_stderr = ""
        self.case_seconds = 0.0     # the last case's time, from when the engine could start it to its answer
        self._seq = 0
        self._flight = InFlight()
        self._supervisor = Supervisor(
            self.argv, startup_timeout=float(startup_timeout) if startup_timeout is not None else DEFAULT_STARTUP_TIMEOUT,
            max_restarts=DEFAULT_MAX_RESTARTS if max_restarts is None else int(max_restarts), isolate=self.isolate,
            env=env, cwd=cwd, stderr_lines=stderr_lines, launched=launched)
        hello = _first_start(self._supervisor, self.argv)
        engine = hello["engine"]
        self.name: str = engine["name"]
        self._supervisor.engine_name = self.name
        self.version: str = engine.get("version", "")
        self.homepage: str = engine.get("homepage", "")
        self.features: frozenset[str] = frozenset(hello["features"])
        self.reasons: str = hello.get("reasons", "exact")   # how finely it reports why a step is illegal
        self.hello: dict = hello
        self.pipeline: int = pipeline_depth(hello, self.isolate)   # runs in flight at once (1: one at a time)

    @classmethod
    def from_command_line(cls, command: str, **options: Any) -> "SubprocessEngine":
        try:
            argv = shlex.split(command, posix=os.name != "nt")
        except ValueError as exc:
            raise EngineLoadError(f"cannot split the engine command line {command!r}: {exc}") from exc
        return cls(argv, **options)

    def __repr__(self) -> str:
        return f"SubprocessEngine({shlex.join(self.argv)!r})"

    @property
    def restarts(self) -> int:
        """Processes started again after one failed or died."""
        return self._supervisor.restarts

    @property
    def launches(self) -> int:
        """Processes started in all (the first included)."""
        return self._supervisor.launches

    # -- the Engine interface --------------------------------------------------------------
    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        return self.collect(self.submit(request))

    def submit(self, request: Mapping[str, Any]) -> int:
        """Send a run message; its ticket (the seq) for ``collect``."""
        return self._send(lambda proc, seq: {"type": "run", "seq": seq, "request": request})

    def collect(self, seq: int) -> Mapping[str, Any]:
        """The result of run ``seq``, the oldest not collected (``harness.engine_pipeline``)."""
        message, proc = self._answer(seq)
        problems = result_problems(message, self.validate_results)
        if problems:
            # In step with us (right type and seq): report the case, keep the process.
            error = EngineProtocolError("the engine's result breaks protocol v1: " + "; ".join(problems[:5]),
                                        proc.stderr_tail())
            self._supervisor.case_done(proc, answered=False)
            raise error
        self._supervisor.case_done(proc, answered=True)
        return message["result"]

    def _send(self, build: Callable[[EngineProcess, int], dict]) -> int:
        """Send the message ``build`` makes for a new seq. With runs still in flight (``pipeline``)
        it goes to the same process, whatever became of it: reading the answers in order finds out."""
        proc = self._flight.process() or self._supervisor.process()
        self._seq += 1
        self._flight.add(self._seq, proc)
        proc.send(build(proc, self._seq))
        return self._seq

    def _answer(self, seq: int) -> tuple[dict, EngineProcess]:
        """The answer to ``seq`` (the oldest in flight), its envelope checked, and its process; the
        case's stderr and time are kept. A loss there is also the loss of every run after it."""
        self.case_stderr = ""
        sent = self._flight.oldest(seq)
        try:
            message = self._reply(sent.proc, seq, sent.started + self.timeout)
        except EngineFailure as exc:
            self._flight.answered()
            if getattr(exc, "engine_lost", False):
                self._flight.lose_rest(exc, seq)
            raise
        self._flight.answered()
        self.case_seconds = time.monotonic() - sent.started
        self.case_stderr = self._stderr_since(sent.proc, sent.stderr_mark)
        return message, sent.proc

    def answer_ready(self) -> bool:
        """Whether collecting the oldest run would not wait (``InFlight.answer_ready``)."""
        return self._flight.answer_ready(self.timeout)

    def wait_on(self) -> tuple[int, float] | None:
        """What to wait on for the oldest run's answer, and until when (``InFlight.wait_on``)."""
        return self._flight.wait_on(self.timeout)

    def lost_with_earlier(self, seq: int) -> bool:
        """Whether run ``seq`` was sent ahead of one the engine was lost on, never answered (the
        caller sends it again: it is forgotten here)."""
        return self._flight.lost_with_earlier(seq)

    def abandon(self) -> None:
        """Forget the runs in flight (a run that stops early): their process is killed, not
        waited for, and the next run starts a new one, not counted as a restart."""
        proc = self._flight.process()
        self._flight = InFlight()
        if proc is not None:
            self._supervisor.discard(proc)

    @staticmethod
    def _stderr_since(proc: EngineProcess, before: int) -> str:
        """What the engine wrote on stderr while running this case (read so far): its diagnostics."""
        count = min(proc.stderr_total - before, len(proc.stderr))
        return "\n".join(list(proc.stderr)[len(proc.stderr) - count:]) if count > 0 else ""

    def _reply(self, proc: EngineProcess, seq: int, deadline: float) -> dict:
        return reply_message(self._supervisor, proc, seq, deadline, self.timeout)

    def abort(self) -> None:
        """Kill the engine's processes now (the run was interrupted): a case waiting on it
        ends at once as a crash."""
        self._supervisor.abort()

    def close(self) -> None:
        self._supervisor.close()

    def __enter__(self) -> "SubprocessEngine":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def stderr_tail(self) -> str:
        return self._supervisor.stderr_tail()


def _first_start(supervisor: Supervisor, argv: Sequence[str]) -> dict:
    """The engine's first process started and its hello; a start error names the command line
    and shows the end of what the engine wrote on stderr."""
    try:
        return supervisor.start()
    except EngineStartError as exc:
        tail = exc.diagnostics.splitlines()[-15:]
        shown = ("\n  engine stderr (last lines):\n" + "\n".join("    " + t for t in tail)) if tail else ""
        raise EngineStartError(f"{exc} [engine: {shlex.join(argv)}]{shown}", exc.diagnostics) from None


def reply_message(supervisor: Supervisor, proc: EngineProcess, seq: int, deadline: float, timeout: float) -> dict:
    """The result message answering run ``seq``, its envelope checked. An engine out of step
    (no answer by ``deadline``, a crash, not JSON, another message or seq) loses its process."""
    lose = supervisor.lose
    try:
        line = proc.receive(deadline)
    except ReadTimeout:
        raise lose(proc, EngineTimeout, f"no answer within {timeout:g} s; the engine was killed "
                                        "and will be restarted for the next case") from None
    except EndOfOutput:
        status = proc.exit_status()
        how = f"exited with status {status}" if status is not None else "closed its stdout"
        raise lose(proc, EngineCrashed, f"the engine {how} while running the case (run seq {seq})") from None
    try:
        message = decode_line(line)
    except replies.ReplyError as exc:
        # JSON, but not data an observation may hold (NaN, a huge number): this case's error
        error = EngineProtocolError(f"the engine's answer is not strict JSON data ({exc}): {preview(line)}",
                                    proc.stderr_tail())
        supervisor.case_done(proc, answered=False)
        raise error from None
    except ValueError as exc:
        why = f" ({exc})" if "longer than" in str(exc) else ""
        raise lose(proc, EngineProtocolError, f"the engine wrote a line that is not JSON{why}: {preview(line)}") from None
    if not isinstance(message, dict) or message.get("type") != "result":
        what = f"a message of type {message.get('type')!r}" if isinstance(message, dict) else f"a JSON {type(message).__name__}"
        raise lose(proc, EngineProtocolError, f"the engine answered run seq {seq} with {what}, "
                                              f"expected a result: {preview(line)}")
    if message.get("seq") != seq:
        raise lose(proc, EngineProtocolError, f"wrong sequence number: the engine answered seq "
                                              f"{message.get('seq')!r} to run seq {seq}")
    return message


def result_problems(message: dict, validate_results: bool = False) -> list[str]:
    """Schema errors of a result message (``#/$defs/result_message``).

    The result inside is validated against ``#/$defs/result`` by ``harness.runner`` for every
    engine, so by default only the envelope is checked here (the whole message goes through the
    schema when the envelope looks wrong): validating every result twice would cost a third of
    the protocol's speed. ``validate_results=True`` checks all.
    """
    result = message.get("result")
    if (not validate_results and len(message) == 3 and type(message.get("seq")) is int
            and isinstance(result, dict) and result.get("status") in ("ok", "skipped", "errored")):
        return []
    return schemas.def_errors("protocol", "result_message", message)


__all__ = ["SubprocessEngine", "EngineProcess", "EngineTimeout", "EngineCrashed", "EngineProtocolError",
           "EngineStartError", "EngineFailure", "TooManyRestarts", "PROTOCOL_VERSION"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: castrules run --engine 'COMMAND LINE'")
