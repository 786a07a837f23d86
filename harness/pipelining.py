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
    ahead: collections.deque[_Ahead] = collections.deque()
    exhausted = False
    try:
        while True:
            while not exhausted and sum(item.ticket is not None for item in ahead) < limit:
                case = next(cases, None)
                if case is None:
                    exhausted = True
                    break
                ahead.append(_send(engine, case, catalog))
            if not ahead:
                return
            item = ahead.popleft()
            result = _collect(engine, item)
            if result.engine_lost:
                _send_again(engine, ahead, catalog)
            yield finished(result, item.case, catalog, expectations, explainer)
    finally:
        if any(item.ticket is not None for item in ahead):   # the run stopped early: nobody waits for those
            engine.abandon()  # type: ignore[attr-defined]


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
