"""One engine child process and its pipes: the plumbing under protocol v1.

``EngineProcess`` starts a command line as an argument vector (never through a shell) in a
session of its own, feeds its stdin (``StdinWriter``: on POSIX written at once when the pipe
takes a message whole, else by a writer thread), reads its stdout line by line (on POSIX in the
thread waiting for the reply, ``harness.engine_pipes``; elsewhere by a thread into a small
bounded queue, ``LineReader``) and keeps a ring buffer of its stderr (``StderrRing``). It
knows nothing of the protocol's
messages: ``harness.subprocess_engine`` holds that conversation (handshake, runs, restarts) and
``harness.smoke`` checks an engine's side of it through the same process.

Why non-blocking pipes, threads and bounds: an engine can write a line without end, flood
blank lines, fork a child that keeps stdout open, or stop reading stdin. None of that may
block the harness or grow its memory: lines are read up to ``MAX_LINE_BYTES`` (with at most
``QUEUED_LINES`` waiting, or one read of ``engine_pipes.READ_CHUNK`` beyond a line), the end of
output is also the engine's own exit, and ``kill`` takes the whole process group down.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import select
import signal
import subprocess
import threading
import time
from typing import IO, Any, Mapping, Sequence

from castrules.harness import replies
from castrules.harness.engine_pipes import EXIT_POLL, DirectLineReader, EndOfOutput, ReadTimeout, ready_for
from castrules.harness.engine_errors import EngineStartError

STOP_GRACE = 2.0                 # seconds an engine has to exit after "stop"
MAX_LINE_BYTES = 16 * 1024 * 1024
QUEUED_LINES = 4                 # lines read ahead of the harness: memory stays under a few MAX_LINE_BYTES
STDERR_LINES = 200               # ring buffer of the engine's stderr, per process
STDERR_LINE_CHARS = 500
DIAGNOSTIC_LINES = 40            # how much of that tail is attached to an error


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
            try:
                # past the deadline, a line already read is still taken: the harness came late, not the engine
                line = self.lines.get(timeout=min(remaining, EXIT_POLL)) if remaining > 0 else self.lines.get_nowait()
            except queue.Empty:
                if remaining <= 0:
                    raise ReadTimeout() from None
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
    """The engine's stdin: a harness never blocks on an engine that stops reading.

    On POSIX the pipe is non-blocking and a message is written at once by the caller when the
    pipe takes it whole (a thread wake-up per message cost more than the message); what it does
    not take, and everything after it until that is written, goes to a thread that waits for
    the pipe. Elsewhere the thread writes everything."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending = 0           # messages handed to the thread and not written yet
        self._closed = False
        self._fd = stream.fileno() if os.name == "posix" else None
        if self._fd is not None:
            os.set_blocking(self._fd, False)
        self.thread = threading.Thread(target=self._write, args=(stream,), name="engine-stdin", daemon=True)
        self.thread.start()

    def _write(self, stream: IO[bytes]) -> None:
        while True:
            data = self._outbox.get()
            if data is None or not self._write_all(stream, data):
                break
            with self._lock:
                self._pending -= 1
        try:
            stream.close()
        except (OSError, ValueError):
            pass

    def _write_all(self, stream: IO[bytes], data: bytes) -> bool:
        """Write ``data`` whole, waiting for the pipe; False once the engine is gone."""
        if self._fd is None:
            try:
                stream.write(data)
                stream.flush()
                return True
            except (OSError, ValueError):
                return False
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._fd, view):]
            except BlockingIOError:
                ready_for(self._fd, select.POLLOUT, EXIT_POLL)
            except (OSError, ValueError):
                return False
        return True

    def send(self, message: Mapping[str, Any]) -> None:
        # ASCII only (non-ASCII escaped): safe whatever the engine's default charset is.
        data = json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"
        with self._lock:
            if self._closed:
                return
            if self._fd is not None and not self._pending:
                try:
                    written = os.write(self._fd, data)
                except BlockingIOError:
                    written = 0
                except (OSError, ValueError):   # the engine is gone: the reply it cannot give says so
                    return
                if written == len(data):
                    return
                data = data[written:]
            self._pending += 1
        self._outbox.put(data)

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._outbox.put(None)


class EngineProcess:
    """One child process in a session of its own, with its three pipes (a reader, a ring
    buffer, a writer); it is started, stopped politely or killed with everything it started."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None = None, cwd: str | None = None,
                 stderr_lines: int = STDERR_LINES, launched: Any = None) -> None:
        # launched: a child already started (``forked_workers.ForkedProcess``), else ``argv`` is
        self.popen = launched if launched is not None else _launch(argv, env, cwd)
        self.inherited = getattr(launched, "inherited", None)   # what a forked child holds already
        self._exit_checked = 0.0
        self.argv = list(argv)
        self.stdout = _reader(self.popen)
        self.stderr_ring = StderrRing(self.popen.stderr, stderr_lines)
        self.stdin = StdinWriter(self.popen.stdin)

    # -- the pipes -----------------------------------------------------------------------
    def send(self, message: Mapping[str, Any]) -> None:
        self.stdin.send(message)

    def close_stdin(self) -> None:
        self.stdin.close()

    def receive(self, deadline: float) -> bytes:
        return self.stdout.receive(deadline)

    def line_ready(self) -> bool | None:
        """Whether ``receive`` would not wait (a line is read, the output ended, the process
        exited); None where that can't be known without a thread (``LineReader``)."""
        check = getattr(self.stdout, "line_ready", None)
        if check is None:
            return None
        if check():
            return True
        now = time.monotonic()   # has it exited (a child of its own may hold stdout open)? not at every look
        if now - self._exit_checked < EXIT_POLL:
            return False
        self._exit_checked = now
        return self.popen.poll() is not None

    def stdout_fd(self) -> int | None:
        """The descriptor to wait on for the next line (None where a thread reads it)."""
        return getattr(self.stdout, "fd", None)

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
        # the readers drain what it wrote last; the writer ends too (a process down to one thread forks)
        for thread in (self.stdout.thread, self.stderr_ring.thread, self.stdin.thread):
            if thread is not None:
                thread.join(timeout=0.5)
        for stream in (self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


def _reader(popen: subprocess.Popen) -> Any:
    """The engine's stdout reader: read by the waiting thread on POSIX (``harness.engine_pipes``),
    by a thread of its own elsewhere."""
    if os.name == "posix":
        return DirectLineReader(popen, MAX_LINE_BYTES)
    return LineReader(popen)


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
