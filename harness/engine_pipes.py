"""An engine's stdout read by the thread that waits for the reply (POSIX), without a reader thread.

``harness.engine_process`` first read every engine's stdout in a thread of its own, which
handed each line over through a queue: two thread wake-ups per case for the reply alone,
which under ``-j`` (one harness process serving every lane) cost more than the harness's own
work on the case. On POSIX the pipe is made non-blocking and the caller reads it itself,
waiting in ``poll`` until its deadline, so a reply costs one wake-up. The guarantees are the
same as the threaded reader's (``LineReader``, kept where ``poll`` cannot wait on a pipe):
lines bounded by ``MAX_LINE_BYTES`` (a longer one is handed back cut, and is that case's
error), blank lines dropped, at most one read's worth buffered beyond a line, the end of output
also the engine's own exit (a forked child may hold the pipe open), and what the engine wrote
before it exited still read.
"""

from __future__ import annotations

import math
import os
import select
import subprocess
import threading
import time

READ_CHUNK = 64 * 1024
EXIT_POLL = 0.1                  # seconds between checks that the engine process still lives


class ReadTimeout(Exception):
    """No line came before the deadline."""


class EndOfOutput(Exception):
    """The engine closed its stdout or exited."""


class DirectLineReader:
    """The engine's stdout, read in ``receive`` by the waiting thread (``poll`` on the pipe)."""

    thread = None   # no thread of its own (``EngineProcess`` joins the readers that have one)

    def __init__(self, popen: subprocess.Popen, limit: int) -> None:
        self.popen = popen
        self.limit = limit       # the longest line read whole (``engine_process.MAX_LINE_BYTES``)
        self.fd = popen.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = bytearray()
        self.start = 0           # where the unread part of the buffer begins
        self.eof = False
        self.closed = threading.Event()   # set when the process is finished (nothing waits on it here)

    def receive(self, deadline: float) -> bytes:
        """The next non-blank line; ``ReadTimeout`` or ``EndOfOutput`` otherwise."""
        exited_at: float | None = None
        late = 0
        while True:
            line = self._line()
            if line is not None:
                return line
            if self.eof:
                raise EndOfOutput()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                # the harness came late: what the engine wrote in time is still its answer (read
                # up to a longest line's worth, so a flood of blank lines still ends in the timeout)
                if late * READ_CHUNK <= self.limit and self._fill():
                    late += 1
                    continue
                raise ReadTimeout()
            try:
                ready = ready_for(self.fd, select.POLLIN, min(remaining, EXIT_POLL))
            except (OSError, ValueError):   # the pipe was closed under us (the process was killed)
                raise EndOfOutput() from None
            if ready:
                self._fill()
            elif self.popen.poll() is not None:
                if exited_at is None:
                    exited_at = time.monotonic()   # one more look for what it wrote last
                elif time.monotonic() - exited_at >= EXIT_POLL:
                    raise EndOfOutput()

    def line_ready(self) -> bool:
        """Whether ``receive`` would return (or raise) without waiting: a whole line is read, or
        the output ended. What the pipe holds now is read first; nothing here blocks."""
        if self._has_line():
            return True
        self._fill()
        return self._has_line()

    def _has_line(self) -> bool:
        unread = len(self.buffer) - self.start
        return self.eof or unread >= self.limit or (unread > 0 and self.buffer.find(b"\n", self.start) >= 0)

    def _fill(self) -> bool:
        """Read what the pipe holds now, without waiting; whether that read anything (or the end)."""
        try:
            data = os.read(self.fd, READ_CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return True
        if self.start:
            del self.buffer[:self.start]
            self.start = 0
        self.buffer += data
        return True

    def _line(self) -> bytes | None:
        """The next whole non-blank line of the buffer (a line over the limit cut at it; the last
        line without its newline at the end of output), or None."""
        buffer, limit = self.buffer, self.limit
        while True:
            end = buffer.find(b"\n", self.start)
            if end < 0 or end - self.start >= limit:
                unread = len(buffer) - self.start
                if unread >= limit:
                    line = bytes(buffer[self.start:self.start + limit])
                    self.start += limit
                    return line
                if self.eof and unread:
                    line = bytes(buffer[self.start:])
                    self.start = len(buffer)
                    return line if line.strip() else None
                return None
            line = bytes(buffer[self.start:end + 1])
            self.start = end + 1
            if line.strip():
                return line


def ready_for(fd: int, events: int, seconds: float) -> bool:
    """Whether ``fd`` is ready (readable: ``POLLIN``, writable: ``POLLOUT``; or closed at the
    other end) within ``seconds``. ``poll``, not ``select``: a harness process with many files
    open (``-j``, a pytest session) has descriptors past ``select``'s limit of 1024."""
    poller = select.poll()
    poller.register(fd, events)
    return bool(poller.poll(max(0, math.ceil(seconds * 1000))))
