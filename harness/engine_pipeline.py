"""The run messages a protocol engine has been sent and has not answered yet (pipelining).

An engine whose hello declares ``pipeline: N`` (docs/protocol.md) may be sent a run before it
has answered the one before, so that it never waits for the harness to judge an answer and
send the next request: the two processes work at once. ``harness.subprocess_engine`` sends
(``submit``) and reads the answers back in order (``collect``); this module keeps what was sent.

Every case still ends with exactly one answer or one error. When the engine is lost on a case
(it crashed, hung, broke the protocol), the cases sent after it were never answered: collecting
one would raise ``SentAhead`` (a crash, ``engine_lost``); the run sends each again, in order,
to the restarted engine (``harness.pipelining``), so each case gets what a serial run gives it. A case's time, its timeout
and the stderr lines kept with it start when the engine can start it: when it was sent, or when
the answer before it came, whichever is later.
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass

from castrules.harness.engine_errors import EngineCrashed, EngineFailure
from castrules.harness.engine_process import EngineProcess


MAX_PIPELINE = 2   # runs in flight the harness sends at most: one being run, one waiting behind it


def pipeline_depth(hello: dict, isolate: bool, most: int = MAX_PIPELINE) -> int:
    """How many runs to have in flight at once for an engine with this hello reply: 1 (one at a
    time, the protocol's default) unless it declares more, and at most ``most``; always 1 with
    ``--isolate``."""
    declared = hello.get("pipeline", 1)
    if isolate or type(declared) is not int or declared < 2:
        return 1
    return min(declared, most)


class SentAhead(EngineCrashed):
    """A run sent ahead of one the engine was lost on, never answered (the run sends it again)."""


@dataclass
class Sent:
    """One run message in flight: where it went, and from when its case counts."""

    seq: int
    proc: EngineProcess
    started: float = 0.0      # when the engine could start it (set once it is the oldest in flight)
    stderr_mark: int = 0      # the engine's stderr lines read by then


class InFlight:
    """Runs sent and not answered, oldest first; the errors of those lost with an earlier case."""

    def __init__(self) -> None:
        self.sent: collections.deque[Sent] = collections.deque()
        self.lost: dict[int, EngineFailure] = {}

    def __len__(self) -> int:
        return len(self.sent)

    def process(self) -> EngineProcess | None:
        """The process the runs in flight went to (the next run goes there too), if any."""
        return self.sent[-1].proc if self.sent else None

    def add(self, seq: int, proc: EngineProcess) -> None:
        sent = Sent(seq, proc)
        if not self.sent:
            self._starts(sent)
        self.sent.append(sent)

    def answer_ready(self, timeout: float) -> bool:
        """Whether collecting the oldest run would not wait: its answer (or the engine's end) is
        read, its ``timeout`` is up, or it was lost with an earlier run. For a caller waiting on
        several engines at once (``harness.parallel``); see ``wait_on``."""
        if self.lost or not self.sent:
            return True
        oldest = self.sent[0]
        return oldest.proc.line_ready() is not False or time.monotonic() >= oldest.started + timeout

    def wait_on(self, timeout: float) -> tuple[int, float] | None:
        """The descriptor to wait on for the oldest run's answer and when its ``timeout`` is up;
        None when there is nothing to wait for (or no descriptor: a reader thread reads it)."""
        if self.lost or not self.sent:
            return None
        oldest = self.sent[0]
        fd = oldest.proc.stdout_fd()
        return None if fd is None else (fd, oldest.started + timeout)

    def lost_with_earlier(self, seq: int) -> bool:
        """Whether run ``seq`` was lost with an earlier one (forgotten here: it is sent again)."""
        return self.lost.pop(seq, None) is not None

    def oldest(self, seq: int) -> Sent:
        """The oldest run in flight, which must be ``seq``: its lost error if an earlier case lost it."""
        failure = self.lost.pop(seq, None)
        if failure is not None:
            raise failure
        if not self.sent or self.sent[0].seq != seq:
            raise RuntimeError(f"run seq {seq} collected out of order")   # the harness's own bug
        return self.sent[0]

    def answered(self) -> None:
        """The oldest got its answer: the next one starts now."""
        self.sent.popleft()
        if self.sent:
            self._starts(self.sent[0])

    def lose_rest(self, cause: EngineFailure, seq: int) -> None:
        """The engine was lost on run ``seq`` (``cause``), already taken off: every run still in
        flight gets a crash error of its own."""
        for sent in self.sent:
            error = SentAhead(f"the engine was lost while running an earlier case (run seq {seq}: "
                                  f"{cause}); this case had been sent ahead (pipelining) and got no answer",
                                  cause.diagnostics)
            error.engine_lost = True  # type: ignore[attr-defined]  # the run's crash-loop guard counts it
            self.lost[sent.seq] = error
        self.sent.clear()

    @staticmethod
    def _starts(sent: Sent) -> None:
        sent.started = time.monotonic()
        sent.stderr_mark = sent.proc.stderr_total
