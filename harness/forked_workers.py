"""Worker processes forked from the harness: ``-j`` lanes that start warm, in milliseconds.

A worker started as a new interpreter (``python -m castrules.harness.worker_server``) spends
about 0.2 s importing castrules before its first case, is then sent every case's document and
the catalog as JSON, and parses them again. On Linux, when the harness has no thread but its
main one, ``fork_child`` forks it instead: the child has castrules imported and the run's cases
and catalog in memory already, so a lane's case is sent as a number (``worker_engine``).

Why only then: a thread of the parent may hold a lock at the moment of the fork, and the child
would wait for it forever; with one thread nothing is held. A worker started later (after a
crash or a timeout, when the lanes' threads run) is spawned as before. Everywhere else (macOS,
Windows, a harness with threads) ``can_fork`` says no and nothing changes.

The child is what a spawned worker is: a session of its own (a group ``kill`` takes down), its
three pipes on descriptors 0-2 and no other descriptor of the harness open, default signal
handlers, and the collector blind to the parent's objects (``gc.freeze``: the parent's objects
are never walked or touched). It never returns into the harness's stack: whatever happens it
ends with ``os._exit``, so no ``finally``, ``atexit`` or buffered output of the parent runs twice.
``ForkedProcess`` is the parent's handle, shaped as ``subprocess.Popen`` is where
``harness.engine_process`` uses one.
"""

from __future__ import annotations

import gc
import importlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
from typing import IO, Any, Callable, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine_spec import EngineSpec
from castrules.harness.worker_engine import Inherited, WorkerEngine, is_trusted, worker_engine
from castrules.harness.worker_server import serve_inherited

DISABLE_VARIABLE = "CASTRULES_NO_FORK"   # set (to anything but empty): every worker is spawned
CHILD_FAILED = 70                       # the child's exit status when its main raised


def can_fork() -> bool:
    """Whether a worker may be forked now: Linux, fork not disabled, one thread in this process."""
    return (sys.platform.startswith("linux") and hasattr(os, "fork") and not os.environ.get(DISABLE_VARIABLE)
            and threading.active_count() == 1)


def fork_lanes(spec: EngineSpec, count: int, cases: Sequence[Case], catalog: Catalog,
               **options: Any) -> list[WorkerEngine] | None:
    """``count`` workers of the in-process engine ``spec`` forked from this process, each holding
    ``cases`` and ``catalog``; None where forking is not possible (``can_fork``).
    Every child is forked before any engine's threads start: the last fork, too, is from a
    process with one thread. castrules' own engine is imported first, so the children share it."""
    if not can_fork():
        return None
    if is_trusted(spec):
        importlib.import_module(spec.module)
    inherited = Inherited.of(cases, catalog)
    launched = []
    try:
        for _ in range(count):
            launched.append(fork_child(lambda: serve_inherited(spec.target, inherited), inherited))
    except BaseException as exc:  # noqa: B036 - out of processes or pipes (every worker spawned), or interrupted
        for child in launched:
            child.discard()
        if isinstance(exc, OSError):
            return None
        raise
    engines: list[WorkerEngine] = []
    try:
        for child in launched:
            engines.append(worker_engine(spec, launched=child, **options))   # restarted from its command line
    except BaseException:
        for engine in engines:
            engine.close()
        for child in launched[len(engines):]:
            child.discard()
        raise
    return engines


class ForkedProcess:
    """A forked child as ``subprocess.Popen`` presents one: ``pid``, the three pipes' parent
    ends, ``poll``, ``wait``, ``kill`` and ``returncode``. ``inherited`` is what the child was
    given at the fork (``worker_engine.Inherited``)."""

    def __init__(self, pid: int, stdin: IO[bytes], stdout: IO[bytes], stderr: IO[bytes], inherited: object) -> None:
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.inherited = inherited
        self.args = [f"<forked worker {pid}>"]
        self.returncode: int | None = None
        self._lock = threading.Lock()   # one waitpid at a time (the reader's thread and the lane's)

    def poll(self) -> int | None:
        with self._lock:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:   # reaped by someone else: it is gone, its status unknown
                    pid, status = self.pid, 255 << 8
                if pid == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        pause = 0.0005
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        return code

    def kill(self) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def discard(self) -> None:
        """A child no engine took over: killed, reaped, its pipes closed."""
        self.kill()
        self.wait()
        for stream in (self.stdin, self.stdout, self.stderr):
            stream.close()


def fork_child(child_main: Callable[[], int], inherited: object) -> ForkedProcess:
    """Fork a child that runs ``child_main`` on its three new pipes and exits with its status.
    The caller checked ``can_fork``."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    for stream in (sys.stdout, sys.stderr):   # nothing the parent buffered is written twice
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    # no signal handler of this process may run in the child before its guard (``_child``): a
    # Ctrl-C reaches the child too until it has a session of its own; blocked here, it waits
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        pid = os.fork()
    except BaseException:  # noqa: B036 - not forked: nothing is left open
        for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
            os.close(fd)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    if pid == 0:   # the child: never returns
        _child(child_main, in_r, out_w, err_w, mask)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    child = ForkedProcess(pid, open(in_w, "wb"), open(out_r, "rb"), open(err_r, "rb"), inherited)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)   # a signal that came meanwhile is handled here
    except BaseException:  # noqa: B036 - interrupted: the child is nobody's, so it ends here
        child.discard()
        raise
    return child


def _child(child_main: Callable[[], int], stdin: int, stdout: int, stderr: int, mask: set) -> None:
    code = CHILD_FAILED
    try:
        gc.freeze()   # the parent's objects: never walked, never collected, pages not written
        os.setsid()
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(fd, target)
        os.closerange(3, _max_fd())
        for signum in signal.valid_signals():   # the parent's handlers: not the child's
            handler = signal.getsignal(signum)
            if callable(handler) and handler is not signal.default_int_handler:
                signal.signal(signum, signal.SIG_DFL)
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)   # what came meanwhile is handled now, here
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)), line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)), line_buffering=True,
                                      errors="backslashreplace")
        code = child_main()
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1   # as an interpreter exits
    except BaseException:  # noqa: B036 - the child's last words, on its stderr; then it ends
        try:
            os.write(2, traceback.format_exc().encode("utf-8", "replace"))
        except OSError:
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: B036 - nothing may keep the child from ending here
            pass
        os._exit(code)


def _max_fd() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (OSError, ValueError):
        return 4096


def in_child(work: Callable[[], object]) -> object:
    """``work()`` run in a child forked from this process, its JSON value returned here: a
    measurement that must find this process's state as it is now, and leave it so (``castrules
    bench``: every repetition of a first pass). The caller checked ``can_fork``; a child that
    fails raises ``RuntimeError`` with what it wrote on stderr."""
    import json

    def child_main() -> int:
        value = work()
        sys.stdout.write(json.dumps(value))
        return 0

    child = fork_child(child_main, None)
    child.stdin.close()
    errors = bytearray()   # read meanwhile: a child with more to say there than a pipe holds would wait
    reader = threading.Thread(target=lambda: errors.extend(child.stderr.read()), name="castrules-child-stderr")
    reader.start()
    output = child.stdout.read()
    reader.join()
    code = child.wait()
    for stream in (child.stdout, child.stderr):
        stream.close()
    if code != 0:
        raise RuntimeError(f"the forked child failed (status {code}): {errors.decode('utf-8', 'replace')[-2000:]}")
    return json.loads(output)
