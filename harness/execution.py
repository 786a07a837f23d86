"""Opening the engines of a run and running its session, serially or in lanes (``-j``).

``open_engines`` decides where an engine runs: a protocol engine in its own process; an
in-process engine in a worker process (``harness.worker_engine``) unless it is castrules' own
(the oracle, its mutants) or ``in_process`` is asked; with ``-j N`` every lane gets an engine
of its own, all started at once, and there are never more lanes than cases. Each lane's engine
is in a process of its own (forked where possible: ``harness.forked_workers``), but for
castrules' own engine on POSIX, which keeps one lane in this process as a serial run does: the
lanes are driven from one thread (``parallel.Lanes``), which runs that lane's cases between
the workers' answers, so ``-j 2`` is two busy processes, not a harness beside two workers.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Iterator, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import Engine, close, load_engine, oracle_explainer
from castrules.harness.engine_spec import EngineKind, parse_engine_spec
from castrules.harness import pipelining
from castrules.harness.expectations import Expectations
from castrules.harness.parallel import Lanes, lanes_for
from castrules.harness.runner import run_case
from castrules.harness.session import Policy, Session


def open_engines(spec: str, jobs: int, cases: int, options: dict[str, Any], in_process: bool = False,
                 held: tuple[Sequence[Case], Catalog] | None = None) -> list[Engine]:
    """One engine per lane, started at once (``_open_together``: a load error is reported once).
    With ``held`` (the run's cases and catalog), an in-process engine's lanes are forked where
    that is possible (``forked_workers.fork_lanes``): started in milliseconds, each holding
    the cases and catalog, so a case is sent as its position."""
    from castrules.harness.forked_workers import fork_lanes
    from castrules.harness.worker_engine import is_trusted, worker_engine

    parsed = parse_engine_spec(spec)
    lanes = lanes_for(jobs, cases)
    trusted = parsed.kind is EngineKind.IN_PROCESS and is_trusted(parsed)
    contained = parsed.kind is EngineKind.IN_PROCESS and not in_process and (lanes > 1 or not trusted)
    # castrules' own engine runs in this process, as in a serial run: with -j, one lane here
    # (lanes driven from one thread, POSIX) and the others in workers
    here = [load_engine(parsed, **options)] if contained and trusted and os.name == "posix" else []

    def one() -> Engine:
        return worker_engine(parsed, **options) if contained else load_engine(parsed, **options)

    try:
        if contained and lanes > 1 and held is not None:
            forked = fork_lanes(parsed, lanes - len(here), held[0], held[1], **options)
            if forked is not None:
                return here + list(forked)
        if lanes == 1:
            return [one()]
        return here + (_open_together(one, lanes - len(here)) if lanes - len(here) > 1 else [one()])
    except BaseException:   # the workers could not be started: the lane here is closed too
        close_all(here)
        raise


def _open_together(one: Callable[[], Engine], count: int) -> list[Engine]:
    """``count`` engines started at once: each start is mostly a child process importing its
    code and answering hello, so the lanes' start-ups overlap instead of adding up (the serial
    part of ``-j`` before its first case). Any failure: the first lane's error (a load error is
    reported once), every engine that started closed; interrupted: each is closed once started."""
    outcomes: list[tuple[bool, Any] | None] = [None] * count

    def start(lane: int) -> None:
        try:
            outcomes[lane] = (True, one())
        except BaseException as exc:  # noqa: B036 - handed to the caller below
            outcomes[lane] = (False, exc)

    threads = [threading.Thread(target=start, args=(n,), name=f"castrules-open-{n}", daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.1)    # in slices: a signal is handled at once
    except BaseException:
        threading.Thread(target=_close_once_started, args=(threads, outcomes), daemon=True).start()
        raise
    engines = [value for ok, value in outcomes if ok]  # type: ignore[misc]
    failed = [value for ok, value in outcomes if not ok]  # type: ignore[misc]
    if failed:
        close_all(engines)
        raise failed[0]
    return engines


def _close_once_started(threads: list[threading.Thread], outcomes: list) -> None:
    for thread in threads:
        thread.join()
    close_all([value for ok, value in filter(None, outcomes) if ok])


def close_all(engines: Sequence[Engine], abort: bool = False) -> None:
    """Close every engine (after an interrupt, kill their processes first: no waiting)."""
    for engine in engines:
        if abort and callable(getattr(engine, "abort", None)):
            engine.abort()
        try:
            close(engine)
        except Exception:  # closing is best effort: one engine's trouble must not keep the others open
            pass


def session(engines: Sequence[Engine], cases: Sequence[Case], catalog: Catalog, expectations: Expectations | None,
            policy: Policy) -> Session:
    """The run of ``cases``: serial on one engine, in lanes on several."""
    for engine in engines:   # a worker keeps a passing case's trace only where an unexpected pass shows it
        if expectations is not None and hasattr(engine, "passing_traces"):
            engine.passing_traces = frozenset(expectations.entries)  # type: ignore[attr-defined]
    if len(engines) == 1:
        engine, explainer = engines[0], oracle_explainer(engines[0])
        return Session(cases, pipelining.results(engine, cases, catalog, expectations, explainer), policy)
    per_lane = {id(e): oracle_explainer(e) for e in engines}
    def steps(e: Engine, some: Iterator[Case]) -> Any:
        if pipelining.inline(e):
            return pipelining.Inline(e, iter(some), catalog, expectations, per_lane[id(e)])
        return pipelining.Pipeline(e, iter(some), catalog, expectations, per_lane[id(e)], pipelining.depth(e))

    # one thread drives every lane: each engine waited on with the others, but for one (at most)
    # run in this process between their answers
    inline = sum(pipelining.inline(e) for e in engines)
    polled = inline <= 1 and all(pipelining.inline(e) or pipelining.pollable(e) for e in engines) and inline < len(engines)
    lanes = Lanes(cases, engines, lambda e, case: run_case(e, case, catalog, expectations, per_lane[id(e)]),
                  lambda e, some: pipelining.results(e, some, catalog, expectations, per_lane[id(e)]),
                  steps if polled else None)
    return Session(cases, iter(lanes), policy, finished=lanes.finished, stop=lanes.stop)
