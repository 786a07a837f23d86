"""Keeping a protocol engine's child process there: launched with the handshake, restarted after
a failure (giving up after ``max_restarts`` in a row), one per case in isolate mode, stopped.

``harness.subprocess_engine`` speaks the protocol over the process this supervisor hands it;
``harness.engine_process`` is the process and its pipes.
"""

from __future__ import annotations

import shlex
import threading
import time
from typing import Any, Mapping, Sequence

from castrules.harness import __version__, schemas
from castrules.harness.engine_errors import EngineFailure, EngineStartError, TooManyRestarts
from castrules.harness.engine_process import (STOP_GRACE, EndOfOutput, EngineProcess, ReadTimeout, decode_line,
                                              preview)
from castrules.model.protocol import PROTOCOL_VERSION  # defined once, in the model


def handshake(proc: EngineProcess, limit: float) -> dict:
    """Say hello (protocol v1) and check the engine's reply; ``EngineStartError`` says what is wrong."""
    proc.send({"type": "hello", "protocol": PROTOCOL_VERSION, "suite_version": __version__})
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


class Supervisor:
    """One engine process at a time: started on demand, counted, replaced after a failure."""

    def __init__(self, argv: Sequence[str], *, startup_timeout: float, max_restarts: int | None, isolate: bool,
                 env: Mapping[str, str] | None, cwd: str | None, stderr_lines: int, launched: Any = None) -> None:
        self.argv = list(argv)
        self._launched = launched        # the first process, already started (a forked worker); later ones from argv
        self.startup_timeout, self.max_restarts, self.isolate = startup_timeout, max_restarts, isolate
        self.env, self.cwd, self.stderr_lines = env, cwd, stderr_lines
        self.engine_name = ""            # for messages, once the first hello named it
        self.restarts = 0
        self.launches = 0
        self._restarts_in_a_row = 0
        self._proc: EngineProcess | None = None
        self._broken = False             # the last process died or was killed on a failure
        self._retired: list[threading.Thread] = []

    def start(self) -> dict:
        """Launch a process and complete the handshake; the hello reply on success."""
        self.launches += 1
        launched, self._launched = self._launched, None
        proc = EngineProcess(self.argv, self.env, self.cwd, self.stderr_lines, launched)
        try:
            hello = handshake(proc, self.startup_timeout)
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

    def current(self) -> EngineProcess | None:
        """The live process, if one is started (none restarted here)."""
        return self._proc

    def process(self) -> EngineProcess:
        """The live process for the next case: restarted (and counted) if the last one failed or died."""
        proc = self._proc
        if proc is not None and not proc.alive():
            proc.kill()   # died between cases: reap it and count a restart
            self._proc, self._broken, proc = None, True, None
        if proc is not None:
            return proc
        if self._broken:
            if self.max_restarts is not None and self._restarts_in_a_row >= self.max_restarts:
                raise TooManyRestarts(
                    f"engine {self.engine_name!r} stopped: it had to be restarted {self._restarts_in_a_row} time(s) "
                    f"in a row (limit {self.max_restarts}) after crashing, hanging or breaking the protocol; "
                    f"see the errors above. Command: {shlex.join(self.argv)}")
            self.restarts += 1
            self._restarts_in_a_row += 1
        try:
            self.start()
        except EngineStartError as exc:
            self._broken = True
            error = EngineStartError(f"the engine could not be restarted: {exc}", exc.diagnostics)
            error.engine_lost = True  # type: ignore[attr-defined]
            raise error from None
        assert self._proc is not None
        return self._proc

    def lose(self, proc: EngineProcess, kind: type[EngineFailure], message: str) -> EngineFailure:
        """Kill a process that failed the case; the error to raise (the next case restarts it)."""
        proc.kill()
        self._proc = None
        self._broken = True
        error = kind(message, proc.stderr_tail())
        error.engine_lost = True  # type: ignore[attr-defined]  # counted by the run's crash-loop guard
        return error

    def discard(self, proc: EngineProcess) -> None:
        """Kill a process whose answers are no longer wanted (runs in flight when a run stopped
        early); the next case starts a new one, not counted as a restart."""
        proc.kill()
        if self._proc is proc:
            self._proc = None

    def case_done(self, proc: EngineProcess, answered: bool) -> None:
        """The case got an answer in step (``answered``: a good one, which ends a run of restarts);
        in isolate mode the process is retired without waiting for it."""
        if answered:
            self._restarts_in_a_row = 0
        if self.isolate:
            self._proc = None
            thread = threading.Thread(target=proc.stop, name="engine-stop", daemon=True)
            thread.start()
            self._retired = [t for t in self._retired if t.is_alive()] + [thread]

    def abort(self) -> None:
        """Kill the engine's processes now: a case waiting on it ends at once as a crash."""
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

    def stderr_tail(self) -> str:
        return self._proc.stderr_tail() if self._proc else ""
