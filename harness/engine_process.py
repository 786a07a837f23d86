"""One engine child process and its pipes: the plumbing under protocol v1.

``EngineProcess`` starts a command line as an argument vector (never through a shell) in a
session of its own, feeds its stdin from a writer thread (``StdinWriter``), reads its stdout
line by line into a small bounded queue (``LineReader``) and keeps a ring buffer of its stderr
(``StderrRing``). It knows nothing of the protocol's
messages: ``harness.subprocess_engine`` holds that conversation (handshake, runs, restarts) and
``harness.smoke`` checks an engine's side of it through the same process.

Why threads and a bounded queue: an engine can write a line without end, flood blank lines,
fork a child that keeps stdout open, or stop reading stdin. None of that may block the harness
or grow its memory: lines are read up to ``MAX_LINE_BYTES`` with at most ``QUEUED_LINES``
waiting, the end of output is also the engine's own exit, and ``kill`` takes the whole process
group down.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import signal
import subprocess
import threading
import time
from typing import IO, Any, Mapping, Sequence

from castrules.harness import replies
from castrules.harness.engine_errors import EngineStartError

STOP_GRACE = 2.0                 # seconds an engine has to exit after "stop"
MAX_LINE_BYTES = 16 * 1024 * 1024
EXIT_POLL = 0.1                  # seconds between checks that the engine process still lives
QUEUED_LINES = 4                 # lines read ahead of the harness: memory stays under a few MAX_LINE_BYTES
STDERR_LINES = 200               # ring buffer of the engine's stderr, per process
STDERR_LINE_CHARS = 500
DIAGNOSTIC_LINES = 40            # how much of that tail is attached to an error


class ReadTimeout(Exception):
    """No line came before the deadline."""


class EndOfOutput(Exception):
    """The engine closed its stdout or exited."""


_EOF = object()


class LineReader:
    """The engine's stdout, read by a thread into a small bounded queue, one line at a time."""

    def __init__(self, popen: subprocess.Popen) -> None:
        self.popen = popen
        self.lines: queue.Queue = queue.Queue(maxsize=QUEUED_LINES)
        self.closed = threading.Event()
        self.thread = threading.Thread(target=self._read, name="engine-stdout", daemon=True)
        self.thread.start()

    def _read(self) -> None:
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
        while not self.closed.is_set():
            try:
                self.lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def receive(self, deadline: float) -> bytes:
        """The next non-blank line; ``ReadTimeout`` or ``EndOfOutput`` otherwise.

        The end of output is also the engine's own exit: a child it forked may hold stdout
        open, and waiting for that pipe to close would wait out the whole timeout."""
        exited_at: float | None = None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ReadTimeout()
            try:
                line = self.lines.get(timeout=min(remaining, EXIT_POLL))
            except queue.Empty:
                if self.popen.poll() is None:
                    continue
                if exited_at is None:
                    exited_at = time.monotonic()   # let the reader pass on what it wrote last
                elif time.monotonic() - exited_at >= EXIT_POLL:
                    raise EndOfOutput() from None
                continue
            if line is _EOF:
                self.lines.put_nowait(_EOF)  # stays at end of output (the queue has room: it was just taken)
                raise EndOfOutput()
            if line.strip():
                return line


class StderrRing:
    """The engine's stderr, read by a thread into a ring buffer of its last lines (diagnostics)."""

    def __init__(self, stream: IO[bytes], size: int) -> None:
        self.lines: collections.deque[str] = collections.deque(maxlen=size)
        self.dropped = 0
        self.total = 0            # lines read so far (a case's own lines are those read while it ran)
        self.thread = threading.Thread(target=self._read, args=(stream,), name="engine-stderr", daemon=True)
        self.thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(lambda: stream.readline(STDERR_LINE_CHARS * 4), b""):
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if len(text) > STDERR_LINE_CHARS:
                    text = text[:STDERR_LINE_CHARS] + " [...]"
                if len(self.lines) == self.lines.maxlen:
                    self.dropped += 1
                self.lines.append(text)
                self.total += 1
        except (OSError, ValueError):
            pass

    def tail(self, lines: int = DIAGNOSTIC_LINES) -> str:
        tail = list(self.lines)[-lines:]
        skipped = len(self.lines) - len(tail) + self.dropped
        if skipped and tail:
            tail.insert(0, f"[... {skipped} earlier stderr line(s) not shown]")
        return "\n".join(tail)


class StdinWriter:
    """The engine's stdin, fed by a thread: a harness never blocks on an engine that stops reading."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._write, args=(stream,), name="engine-stdin", daemon=True)
        self.thread.start()

    def _write(self, stream: IO[bytes]) -> None:
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

    def send(self, message: Mapping[str, Any]) -> None:
        # ASCII only (non-ASCII escaped): safe whatever the engine's default charset is.
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n")

    def close(self) -> None:
        self._outbox.put(None)


class EngineProcess:
    """One child process in a session of its own, with its three pipes (a reader, a ring
    buffer, a writer); it is started, stopped politely or killed with everything it started."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr_lines: int = STDERR_LINES) -> None:
        self.popen = _launch(argv, env, cwd)
        self.argv = list(argv)
        self.stdout = LineReader(self.popen)
        self.stderr_ring = StderrRing(self.popen.stderr, stderr_lines)
        self.stdin = StdinWriter(self.popen.stdin)

    # -- the pipes -----------------------------------------------------------------------
    def send(self, message: Mapping[str, Any]) -> None:
        self.stdin.send(message)

    def close_stdin(self) -> None:
        self.stdin.close()

    def receive(self, deadline: float) -> bytes:
        return self.stdout.receive(deadline)

    @property
    def stderr(self) -> collections.deque[str]:
        return self.stderr_ring.lines

    @property
    def stderr_total(self) -> int:
        return self.stderr_ring.total

    def stderr_tail(self, lines: int = DIAGNOSTIC_LINES) -> str:
        return self.stderr_ring.tail(lines)

    # -- the process ---------------------------------------------------------------------
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
        self.stdout.closed.set()
        self.close_stdin()
        for thread in (self.stdout.thread, self.stderr_ring.thread):   # let the readers drain what it wrote last
            thread.join(timeout=0.5)
        for stream in (self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


def _launch(argv: Sequence[str], env: Mapping[str, str] | None, cwd: str | None) -> subprocess.Popen:
    """Start the command line as an argument vector in a session (process group) of its own, so
    that a wrapper script's children die with it; a program that can't start is a start error."""
    kwargs: dict[str, Any] = {}
    if os.name == "posix":
        kwargs["start_new_session"] = True
    elif os.name == "nt":
        kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    try:
        return subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=None if env is None else dict(env), cwd=cwd, **kwargs)
    except FileNotFoundError as exc:
        raise EngineStartError(f"cannot start the engine: no such program {argv[0]!r} ({exc.strerror})") from exc
    except PermissionError as exc:
        raise EngineStartError(f"cannot start the engine: {argv[0]!r} is not executable ({exc.strerror})") from exc
    except OSError as exc:
        raise EngineStartError(f"cannot start the engine {argv[0]!r}: {exc}") from exc


def preview(line: bytes, limit: int = 120) -> str:
    """The start of a line, quoted, for a message about it."""
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def decode_line(line: bytes) -> Any:
    """One reply line as strict JSON data; ``ValueError`` (a ``replies.ReplyError`` for data no
    observation may hold) otherwise. A line cut at ``MAX_LINE_BYTES`` is an error, not JSON."""
    if len(line) >= MAX_LINE_BYTES and not line.endswith(b"\n"):
        raise ValueError(f"a line longer than {MAX_LINE_BYTES} bytes")
    return replies.loads(line)
