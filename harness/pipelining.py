"""A serial run's results, with the next requests sent before the answer to the last one comes.

A protocol engine answering one request at a time waits, after each answer, while the harness
reads it, judges it and sends the next request; the harness then waits while the engine runs
the case: each process's work adds up. An engine whose hello declares ``pipeline``
(docs/protocol.md; ``castrules serve`` does) is sent the next request(s) first
(``SubprocessEngine.pipeline`` in flight at most), so it runs a case while the harness judges
the one before, and the two processes work at once.

The results are the serial run's (``runner.run_case``, case by case: the same checks, in the
same order, the same explanation of a failure and expectations applied): only when requests
are sent changes. A case the engine lacks a feature for is never sent, as ever; an engine that
cannot be restarted, or gives up, is that case's outcome when its turn comes, after the cases
before it. A case sent ahead of one the engine was lost on (crashed, hung, broke the protocol)
was never answered: it is sent again, in order, to the restarted engine, so it gets the answer
(or the error) a serial run gives it (``harness.engine_pipeline``). A run
that stops early (maxfail, the crash-loop guard, an interrupt) kills the engine with what is
still in flight.
"""

from __future__ import annotations

import collections
import os
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import Engine
from castrules.harness.engine_errors import EngineGaveUp
from castrules.harness.expectations import Expectations
from castrules.harness.results import Result
from castrules.harness.runner import answered, case_base, failed, finished, run_case, unsupported


def depth(engine: Engine) -> int:
    """Runs the engine takes in flight at once: 1 but for a protocol engine (or castrules' own
    worker, which judges whole cases) that declared more."""
    declared = getattr(engine, "pipeline", 1)
    sends = "submit_case" if getattr(engine, "judges_cases", False) is True else "submit"
    if type(declared) is not int or not callable(getattr(engine, sends, None)):
        return 1
    return declared


def inline(engine: Engine) -> bool:
    """Whether the engine runs in this process (a lane of its own is ``Inline``)."""
    return getattr(engine, "out_of_process", False) is not True and depth(engine) == 1


def pollable(engine: Engine) -> bool:
    """Whether the engine's answers can be waited for together with other engines' (a pipelined
    engine whose output this process reads itself: ``SubprocessEngine.answer_ready``, POSIX)."""
    return os.name == "posix" and depth(engine) > 1 and callable(getattr(engine, "answer_ready", None))


def results(engine: Engine, cases: Iterable[Case], catalog: Catalog, expectations: Expectations | None = None,
            explainer: Engine | None = None) -> Iterator[Result]:
    """One result per case, in order: pipelined when the engine allows it, else case by case."""
    limit = depth(engine)
    if limit < 2:
        for case in cases:
            yield run_case(engine, case, catalog, expectations, explainer)
        return
    yield from _pipelined(engine, iter(cases), catalog, expectations, explainer, limit)


@dataclass
class _Ahead:
    """A case taken from the run: its result already (never sent), its ticket, or why it was not sent."""

    case: Case
    base: Result
    result: Result | None = None
    request: Mapping[str, Any] | None = None
    ticket: int | None = None
    error: BaseException | None = None


def _pipelined(engine: Engine, cases: Iterator[Case], catalog: Catalog, expectations: Expectations | None,
               explainer: Engine | None, limit: int) -> Iterator[Result]:
    pipeline = Pipeline(engine, cases, catalog, expectations, explainer, limit)
    try:
        while pipeline.fill():
            yield pipeline.take()
    finally:
        pipeline.close()


class Pipeline:
    """One engine's runs in flight, as steps a caller drives: ``fill`` sends cases up to the
    limit, ``ready`` says whether ``take`` would not wait, ``take`` gives the oldest case's
    finished result. ``_pipelined`` drives it case by case; ``harness.parallel`` drives every
    lane's from one thread, taking from whichever engine has answered (``answer_ready``)."""

    def __init__(self, engine: Engine, cases: Iterator[Case], catalog: Catalog, expectations: Expectations | None,
                 explainer: Engine | None, limit: int) -> None:
        self.engine, self.cases, self.catalog = engine, cases, catalog
        self.expectations, self.explainer, self.limit = expectations, explainer, limit
        self.ahead: collections.deque[_Ahead] = collections.deque()
        self.exhausted = False

    def fill(self) -> bool:
        """Send cases until ``limit`` are in flight; whether a result is still to come."""
        while not self.exhausted and self.in_flight() < self.limit:
            case = next(self.cases, None)
            if case is None:
                self.exhausted = True
                break
            self.ahead.append(_send(self.engine, case, self.catalog))
        return bool(self.ahead)

    def in_flight(self) -> int:
        """Cases sent to the engine and not taken yet."""
        return sum(item.ticket is not None for item in self.ahead)

    def ready(self) -> bool:
        """Whether ``take`` gives its result without waiting for the engine."""
        if not self.ahead:
            return False
        item = self.ahead[0]
        return item.ticket is None or self.engine.answer_ready()  # type: ignore[attr-defined]

    def take(self) -> Result:
        """The oldest case's result (waiting for it if need be); cases lost with it are sent again."""
        item = self.ahead.popleft()
        result = _collect(self.engine, item)
        if result.engine_lost:
            _send_again(self.engine, self.ahead, self.catalog)
        return finished(result, item.case, self.catalog, self.expectations, self.explainer)

    def close(self) -> None:
        """The run stopped early: nobody waits for the runs still in flight."""
        if any(item.ticket is not None for item in self.ahead):
            self.ahead.clear()
            self.engine.abandon()  # type: ignore[attr-defined]


class Inline:
    """An engine in this process as a lane's steps (``Pipeline``'s): ``fill`` takes the next
    case, ``take`` runs it here. ``harness.parallel`` drives it between the workers' answers:
    castrules' own engine, run in process as a serial run runs it, is one of ``-j``'s lanes."""

    def __init__(self, engine: Engine, cases: Iterator[Case], catalog: Catalog, expectations: Expectations | None,
                 explainer: Engine | None) -> None:
        self.engine, self.cases, self.catalog = engine, cases, catalog
        self.expectations, self.explainer = expectations, explainer
        self.next: Case | None = None

    def fill(self) -> bool:
        if self.next is None:
            self.next = next(self.cases, None)
        return self.next is not None

    def in_flight(self) -> int:
        return 0

    def ready(self) -> bool:
        return self.next is not None

    def take(self) -> Result:
        case, self.next = self.next, None
        assert case is not None
        return run_case(self.engine, case, self.catalog, self.expectations, self.explainer)

    def close(self) -> None:
        self.next = None


def _send_again(engine: Engine, ahead: collections.deque[_Ahead], catalog: Catalog) -> None:
    """The cases sent ahead of one the engine was lost on were never answered: each is sent
    again, in order, to the restarted engine, so it gets what a serial run gives it."""
    for index, item in enumerate(ahead):
        if item.ticket is not None and engine.lost_with_earlier(item.ticket):  # type: ignore[attr-defined]
            ahead[index] = _send(engine, item.case, catalog)


def _send(engine: Engine, case: Case, catalog: Catalog) -> _Ahead:
    base = case_base(case)
    refused = unsupported(engine, base, case)
    if refused is not None:
        return _Ahead(case, base, result=refused)
    try:
        if getattr(engine, "judges_cases", False) is True:   # castrules' own worker runs and judges it
            return _Ahead(case, base, ticket=engine.submit_case(case, catalog))  # type: ignore[attr-defined]
        request = case.request(catalog.subset(case.card_names()))
        return _Ahead(case, base, request=request, ticket=engine.submit(request))  # type: ignore[attr-defined]
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: B036 - the engine could not be (re)started: this case's outcome, in turn
        return _Ahead(case, base, error=exc)


def _collect(engine: Engine, item: _Ahead) -> Result:
    if item.result is not None:
        return item.result
    started = time.perf_counter()
    if item.error is not None:
        if isinstance(item.error, EngineGaveUp):
            raise item.error
        return failed(item.base, item.error, started)
    try:
        if item.request is None:
            return engine.collect_case(item.ticket, item.base)  # type: ignore[attr-defined]
        reply = engine.collect(item.ticket)  # type: ignore[attr-defined]
    except (EngineGaveUp, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: B036 - as in runner._run: an engine's failure is this case's result
        return failed(item.base, exc, started)
    # the case's time from when the engine could start it (the wait here is shorter: it ran meanwhile)
    seconds = getattr(engine, "case_seconds", None)
    duration = seconds if isinstance(seconds, float) else time.perf_counter() - started
    return answered(engine, item.case, item.request, reply, duration)
