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

The engine runs in a session of its own; its whole process group is killed on a timeout, a
restart, an interrupt and at the end, so no child it forked can hold its stdout open or live
on. Lines are read up to ``MAX_LINE_BYTES`` with at most ``QUEUED_LINES`` waiting (blank lines
are dropped), and parsed as strict JSON (``harness.replies``: no NaN, bounded numbers).
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Mapping, Sequence

from castrules.harness import __version__, replies, schemas
from castrules.harness.engine_errors import (EngineCrashed, EngineFailure, EngineLoadError, EngineProtocolError,
                                            EngineStartError, EngineTimeout, TooManyRestarts)

from castrules.model.protocol import PROTOCOL_VERSION  # defined once, in the model
DEFAULT_TIMEOUT = 10.0           # seconds per case
DEFAULT_STARTUP_TIMEOUT = 30.0   # seconds from launch to the hello reply (a JVM may be slow)
DEFAULT_MAX_RESTARTS = None      # restarts in a row before the engine gives up itself (None: the run decides)
STOP_GRACE = 2.0                 # seconds an engine has to exit after "stop"
MAX_LINE_BYTES = 16 * 1024 * 1024
EXIT_POLL = 0.1                  # seconds between checks that the engine process still lives
QUEUED_LINES = 4                 # lines read ahead of the harness: memory stays under a few MAX_LINE_BYTES
STDERR_LINES = 200               # ring buffer of the engine's stderr, per process
STDERR_LINE_CHARS = 500
DIAGNOSTIC_LINES = 40            # how much of that tail is attached to an error


class _Timeout(Exception):
    pass


class _EndOfOutput(Exception):
    pass


_EOF = object()


class EngineProcess:
    """One child process: a writer thread, a stdout reader thread, a stderr ring buffer."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr_lines: int = STDERR_LINES) -> None:
        kwargs: dict[str, Any] = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True   # so that a wrapper script's children die with it
        elif os.name == "nt":
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        try:
            self.popen = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, env=None if env is None else dict(env),
                                          cwd=cwd, **kwargs)
        except FileNotFoundError as exc:
            raise EngineStartError(f"cannot start the engine: no such program {argv[0]!r} ({exc.strerror})") from exc
        except PermissionError as exc:
            raise EngineStartError(f"cannot start the engine: {argv[0]!r} is not executable ({exc.strerror})") from exc
        except OSError as exc:
            raise EngineStartError(f"cannot start the engine {argv[0]!r}: {exc}") from exc
        self.argv = list(argv)
        self.lines: queue.Queue = queue.Queue(maxsize=QUEUED_LINES)
        self._closed = threading.Event()
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=stderr_lines)
        self.stderr_dropped = 0
        self.stderr_total = 0            # lines read so far (a case's own lines are those read while it ran)
        self._threads = [
            threading.Thread(target=self._read_stdout, name="engine-stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name="engine-stderr", daemon=True),
            threading.Thread(target=self._write_stdin, name="engine-stdin", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # -- threads -------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        try:
            while True:
                line = stream.readline(MAX_LINE_BYTES)
                if not line:
                    break
                if line.strip() and not self._put(line):
                    return
        except (OSError, ValueError):
            pass
        self._put(_EOF)

    def _put(self, item: object) -> bool:
        """Queue a line, waiting while the queue is full; False once the process is finished."""
        while not self._closed.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        try:
            for raw in iter(lambda: stream.readline(STDERR_LINE_CHARS * 4), b""):
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if len(text) > STDERR_LINE_CHARS:
                    text = text[:STDERR_LINE_CHARS] + " [...]"
                if len(self.stderr) == self.stderr.maxlen:
                    self.stderr_dropped += 1
                self.stderr.append(text)
                self.stderr_total += 1
        except (OSError, ValueError):
            pass

    def _write_stdin(self) -> None:
        stream = self.popen.stdin
        while True:
            data = self._outbox.get()
            if data is None:
                break
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                break
        try:
            stream.close()
        except (OSError, ValueError):
            pass

    # -- use -----------------------------------------------------------------------------
    def send(self, message: Mapping[str, Any]) -> None:
        # ASCII only (non-ASCII escaped): safe whatever the engine's default charset is.
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n")

    def close_stdin(self) -> None:
        self._outbox.put(None)

    def receive(self, deadline: float) -> bytes:
        """The next non-blank line from stdout; ``_Timeout`` or ``_EndOfOutput`` otherwise.

        The end of output is also the engine's own exit: a child it forked may hold stdout
        open, and waiting for that pipe to close would wait out the whole timeout."""
        exited_at: float | None = None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Timeout()
            try:
                line = self.lines.get(timeout=min(remaining, EXIT_POLL))
            except queue.Empty:
                if self.popen.poll() is None:
                    continue
                if exited_at is None:
                    exited_at = time.monotonic()   # let the reader pass on what it wrote last
                elif time.monotonic() - exited_at >= EXIT_POLL:
                    raise _EndOfOutput() from None
                continue
            if line is _EOF:
                self.lines.put_nowait(_EOF)  # stays at end of output (the queue has room: it was just taken)
                raise _EndOfOutput()
            if line.strip():
                return line

    def alive(self) -> bool:
        return self.popen.poll() is None

    def exit_status(self, wait: float = 0.5) -> int | None:
        try:
            return self.popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the whole process group now (a child that outlived the engine included)."""
        self.kill_group()
        if self.popen.poll() is None:
            try:
                self.popen.kill()
            except OSError:
                pass
        self.exit_status(wait=2.0)
        self._finish()

    def kill_group(self) -> None:
        """SIGKILL to every process of the engine's session, whether or not its leader lives."""
        if os.name != "posix":
            return
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Ask politely (``stop``, then end of input), then kill."""
        if self.popen.poll() is None:
            self.send({"type": "stop"})
            self.close_stdin()
            if self.exit_status(wait=grace) is None:
                self.kill()
                return
        self.kill_group()  # the engine exited: nothing it started lives on
        self._finish()

    def _finish(self) -> None:
        self._closed.set()
        self.close_stdin()
        for thread in self._threads[:2]:   # let the readers drain what the process wrote last
            thread.join(timeout=0.5)
        for stream in (self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    def stderr_tail(self, lines: int = DIAGNOSTIC_LINES) -> str:
        tail = list(self.stderr)[-lines:]
        skipped = len(self.stderr) - len(tail) + self.stderr_dropped
        if skipped and tail:
            tail.insert(0, f"[... {skipped} earlier stderr line(s) not shown]")
        return "\n".join(tail)


def _preview(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _decode(line: bytes) -> Any:
    if len(line) >= MAX_LINE_BYTES and not line.endswith(b"\n"):
        raise ValueError(f"a line longer than {MAX_LINE_BYTES} bytes")
    return replies.loads(line)


class SubprocessEngine:
    """An engine speaking protocol v1 in a child process; see the module docstring."""

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
        except _Timeout:
            raise EngineStartError(f"the engine did not answer hello within {limit:g} s (startup timeout)") from None
        except _EndOfOutput:
            status = proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            raise EngineStartError(f"the engine {how} before answering hello") from None
        try:
            reply = _decode(line)
        except ValueError:
            raise EngineStartError(f"the engine's answer to hello is not JSON: {_preview(line)}") from None
        if not isinstance(reply, dict):
            raise EngineStartError(f"the engine's answer to hello is not a JSON object: {_preview(line)}")
        if reply.get("type") == "refuse":
            theirs = reply.get("protocol")
            speaks = f" (it speaks protocol {theirs})" if theirs is not None else ""
            raise EngineStartError(f"the engine refused protocol {PROTOCOL_VERSION}, the version this harness "
                                   f"(castrules {__version__}) speaks{speaks}: {reply.get('reason', 'no reason given')}")
        if reply.get("type") != "hello":
            raise EngineStartError(f"the engine answered hello with a message of type {reply.get('type')!r}, "
                                   f"expected 'hello': {_preview(line)}")
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
        except _Timeout:
            raise self._fail(proc, EngineTimeout, f"no answer within {self.timeout:g} s; the engine was killed "
                                                  "and will be restarted for the next case") from None
        except _EndOfOutput:
            status = proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            raise self._fail(proc, EngineCrashed, f"the engine {how} while running the case (run seq {seq})") from None
        try:
            message = _decode(line)
        except replies.ReplyError as exc:
            # JSON, but not data an observation may hold (NaN, a huge number): this case's error
            error = EngineProtocolError(f"the engine's answer is not strict JSON data ({exc}): {_preview(line)}",
                                        proc.stderr_tail())
            self._after_case(proc)
            raise error from None
        except ValueError as exc:
            why = f" ({exc})" if "longer than" in str(exc) else ""
            raise self._fail(proc, EngineProtocolError, f"the engine wrote a line that is not JSON{why}: {_preview(line)}") from None
        if not isinstance(message, dict) or message.get("type") != "result":
            what = f"a message of type {message.get('type')!r}" if isinstance(message, dict) else f"a JSON {type(message).__name__}"
            raise self._fail(proc, EngineProtocolError, f"the engine answered run seq {seq} with {what}, "
                                                        f"expected a result: {_preview(line)}")
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
