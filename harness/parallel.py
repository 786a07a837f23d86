"""Running cases on several engines at once (``castrules run -j N``) and sharding (``--shard K/N``).

Each lane drives an engine of its own: a protocol engine or an in-process engine in its worker
process, so the work itself runs in parallel processes. When every engine can be waited on
with the others (``pipelining.pollable``; at most one, castrules' own, runs in this process:
``pipelining.Inline``), one thread drives all lanes (``Lanes._polled``): it takes whatever
answers have come, sends each worker its next cases, runs a case of the lane in this process
if there is one, and otherwise waits on every worker's pipe at once. Otherwise each lane is a
thread of its own, blocked on its engine. Results come back in suite order and
the run's decisions (giving up on a crash loop, maxfail) are taken on that ordered stream by
``harness.session``, so a parallel run reports exactly what a serial run does, in every fault
mode. A lane whose engine dies reports that case's error and restarts its engine; the lanes
never outnumber the cases. A lane sends its worker the next case before the last result comes
(``harness.pipelining``: a worker declares ``pipeline``), so a worker never waits for this
process between cases.
"""

from __future__ import annotations

import collections
import select
import threading
import time
from typing import Any, Callable, Iterator, Sequence

from castrules.harness.cases import Case
from castrules.harness.results import Result, Status

RunOne = Callable[[object, Case], Result]
RunMany = Callable[[object, Iterator[Case]], Iterator[Result]]   # one result per case, in order
# an engine's cases as steps one thread drives (pipelining.Pipeline: fill, ready, take, close)
MakePipeline = Callable[[object, Iterator[Case]], Any]
WAIT_SLICE = 0.1   # seconds: the main thread wakes this often, so signals are handled at once
# a polled run waits this long for answers to gather when every engine has this many cases in
# flight (castrules' own workers, worker_engine.WORKER_PIPELINE): a wake-up per answer took a
# core from the workers for each case; an engine sent a case or two at a time is never kept waiting
COALESCE, COALESCE_AHEAD = 0.002, 4


def shard(cases: Sequence[Case], spec: str) -> list[Case]:
    """Cases of shard K of N ("K/N", 1-based): every N-th case of the id-sorted suite."""
    try:
        k, n = (int(part) for part in spec.split("/"))
    except ValueError as exc:
        raise ValueError(f"--shard expects K/N with 1 <= K <= N, got {spec!r}") from exc
    if not 1 <= k <= n:
        raise ValueError(f"--shard expects K/N with 1 <= K <= N, got {spec!r}")
    ordered = sorted(cases, key=lambda c: c.id)
    return [c for i, c in enumerate(ordered) if i % n == k - 1]


def lanes_for(jobs: int, cases: int) -> int:
    """How many lanes to open: never more than there are cases, at least one."""
    return max(1, min(jobs, cases))


class Lanes:
    """``engines`` (one per lane, already started) run ``cases``; iterate for ordered results."""

    def __init__(self, cases: Sequence[Case], engines: Sequence[object], run_one: RunOne,
                 run_many: RunMany | None = None, pipeline: MakePipeline | None = None) -> None:
        self.cases, self.engines, self.run_one = list(cases), list(engines), run_one
        # every engine can be waited on (pipeline): this thread drives all lanes, no lane thread
        self.pipeline = pipeline
        # a lane's cases in one stream (pipelining.results: the next case sent before the last
        # answer comes, so a lane's worker never waits for this process between cases)
        self.run_many: RunMany = run_many or (lambda engine, cases: (self.run_one(engine, c) for c in cases))
        self._next = 0
        self._done: dict[int, Result] = {}
        self._cond = threading.Condition()
        self._stopping = threading.Event()
        self._threads = [] if pipeline is not None else [
            threading.Thread(target=self._lane, args=(e,), name=f"castrules-lane-{n}", daemon=True)
            for n, e in enumerate(self.engines)]
        self._started = False

    def _take(self) -> int | None:
        with self._cond:
            if self._stopping.is_set() or self._next >= len(self.cases):
                return None
            index, self._next = self._next, self._next + 1
            return index

    def _lane(self, engine: object) -> None:
        taken: collections.deque[int] = collections.deque()   # cases handed to run_many, no result yet
        while True:
            try:
                for result in self.run_many(engine, self._lane_cases(taken)):
                    self._keep(taken.popleft(), result)
                return
            except BaseException as exc:  # a lane never dies silently: its cases get the error, it goes on
                if not taken:
                    return
                self._fail(taken, exc)

    def _lane_cases(self, taken: collections.deque[int]) -> Iterator[Case]:
        """The cases a lane takes from the run, one at a time, each position noted in ``taken``."""
        while (index := self._take()) is not None:
            taken.append(index)
            yield self.cases[index]

    def _fail(self, taken: collections.deque[int], exc: BaseException) -> None:
        """Every case a lane had taken and not finished gets ``exc`` as its error."""
        while taken:
            index = taken.popleft()
            case = self.cases[index]
            self._keep(index, Result(case.id, Status.ERROR, case.file, case.rules, case.features, engine_lost=True,
                                     message=f"the worker running this case failed: {type(exc).__name__}: {exc}"))

    def _keep(self, index: int, result: Result) -> None:
        if self._stopping.is_set() and result.status in (Status.ERROR, Status.TIMEOUT) and result.engine_lost:
            return  # killed by the stop itself: the case was not really run
        with self._cond:
            self._done[index] = result
            self._cond.notify_all()

    def __iter__(self) -> Iterator[Result]:
        if self.pipeline is not None:
            yield from self._polled()
            return
        if not self._started:
            self._started = True
            for thread in self._threads:
                thread.start()
        for index in range(len(self.cases)):
            with self._cond:
                while index not in self._done and any(t.is_alive() for t in self._threads):
                    self._cond.wait(WAIT_SLICE)
                result = self._done.pop(index, None)
            if result is None:  # every lane ended early (stopped): the session reports the rest
                return
            yield result

    def _polled(self) -> Iterator[Result]:
        """The results in order, every lane driven from this thread: whichever engine has answered
        gives its result and is sent its next case; when none has, one ``poll`` waits on all.
        Why not a thread per lane: waking a lane's thread, then this one, for every result cost
        a context switch or two per case, taken from the workers' cores."""
        lanes = [_PolledLane(self, engine) for engine in self.engines]
        try:
            for index in range(len(self.cases)):
                while index not in self._done:
                    if not _advance(lanes):
                        return   # every lane ended early (stopped): the session reports the rest
                with self._cond:
                    result = self._done.pop(index)
                yield result
        finally:
            for lane in lanes:
                lane.close()

    def finished(self) -> dict[int, Result]:
        """Results finished beyond those yielded (kept when the run is interrupted)."""
        with self._cond:
            return dict(self._done)

    def stop(self) -> None:
        """No more cases; kill what the engines are running now; wait briefly for the lanes."""
        self._stopping.set()
        for engine in self.engines:
            abort = getattr(engine, "abort", None)
            if callable(abort):
                abort()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=2.0)


class _PolledLane:
    """One lane of ``Lanes._polled``: its engine's pipeline and the suite positions it took."""

    def __init__(self, lanes: Lanes, engine: object) -> None:
        self.lanes, self.engine = lanes, engine
        self.taken: collections.deque[int] = collections.deque()
        self.pipeline = self._new_pipeline()
        self.live = True

    def _new_pipeline(self) -> Any:
        assert self.lanes.pipeline is not None
        return self.lanes.pipeline(self.engine, self.lanes._lane_cases(self.taken))

    def ready(self) -> bool:
        """Whether a result can be taken now; a lane with nothing left to run is no longer live."""
        if self.live and not self.pipeline.fill():
            self.live = False
        return self.live and self.pipeline.ready()

    def take(self) -> None:
        try:
            result = self.pipeline.take()
        except Exception as exc:  # as a lane's thread does: its cases get the error, it goes on
            self.pipeline.close()
            if not self.taken:
                self.live = False
                return
            self.lanes._fail(self.taken, exc)
            self.pipeline = self._new_pipeline()
            return
        self.lanes._keep(self.taken.popleft(), result)

    def close(self) -> None:
        self.pipeline.close()


def _advance(lanes: list[_PolledLane]) -> bool:
    """One step of ``Lanes._polled``: every lane with an answer gives it, or, if none has, a wait
    for the first answer or time-out (at most ``WAIT_SLICE``: signals are handled meanwhile).
    False once no lane has anything left to run."""
    live = [lane for lane in lanes if lane.live]
    if not live:
        return False
    moved = False
    for lane in live:
        if lane.ready():   # an engine in this process: one case; a worker: every answer it has
            lane.take()
            moved = True
            while lane.pipeline.in_flight() and lane.ready():
                lane.take()
    if moved or not any(lane.live for lane in live):
        return True
    if all(lane.pipeline.in_flight() >= COALESCE_AHEAD for lane in live if lane.live):
        # every engine has cases queued: let answers gather instead of waking for each one
        time.sleep(COALESCE)
        if any(lane.ready() for lane in live):
            return True
    poller, until = select.poll(), time.monotonic() + WAIT_SLICE
    for lane in live:
        target = lane.engine.wait_on() if lane.live else None   # type: ignore[attr-defined]
        if target is not None:
            poller.register(target[0], select.POLLIN)
            until = min(until, target[1])
    poller.poll(max(0, int((until - time.monotonic()) * 1000) + 1))
    return True
