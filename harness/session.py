"""One run of a selection of cases: every selected case gets exactly one result, whatever happens.

A run ends early when the engine is lost (crashed, hung, broke the protocol) on N cases in a
row with no answered case between them — a crash loop, not a crashy engine — when the engine
gives up, when the user interrupts it (Ctrl-C, SIGTERM), or after ``maxfail`` unexpected
results. The cases it did not reach are reported as NOT_RUN with the reason, so a report
always accounts for the whole selection, and ``ending`` says why the run ended.
"""

from __future__ import annotations

import enum
import signal
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from castrules.harness.cases import Case
from castrules.harness.engine import EngineGaveUp
from castrules.harness.results import Result, Status

DEFAULT_MAX_CONSECUTIVE_FAILURES = 5


class Ending(enum.Enum):
    """Why a run ended; written in the report's footer."""

    COMPLETED = "completed"
    ENGINE_GAVE_UP = "engine_gave_up"
    INTERRUPTED = "interrupted"
    MAXFAIL = "maxfail"


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop by a signal; ``exit_status`` is 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def interrupt_status(exc: BaseException) -> int:
    """The exit status of a run stopped by ``exc``: 130 for Ctrl-C, 143 for SIGTERM."""
    return exc.exit_status if isinstance(exc, Interrupted) else 128 + signal.SIGINT


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` in the main thread (once: a second signal
    while the run winds down is ignored, so the results are still written)."""
    fired = []

    def handler(signum: int, frame: object) -> None:
        if not fired:
            fired.append(signum)
            raise Interrupted(signum)

    try:
        saved = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for s, old in saved.items():
            signal.signal(s, old)


@dataclass(frozen=True)
class Policy:
    """When a run gives up early. 0 means never."""

    max_consecutive_failures: int = DEFAULT_MAX_CONSECUTIVE_FAILURES
    maxfail: int = 0


class CrashLoop:
    """Counts the cases in a row on which the engine was lost; any answered case resets it."""

    def __init__(self, limit: int) -> None:
        self.limit, self.streak = limit, 0

    def see(self, result: Result) -> str | None:
        """The reason to give up, once ``limit`` cases in a row lost the engine."""
        if result.engine_lost:
            self.streak += 1
        elif result.status not in (Status.UNSUPPORTED, Status.NOT_RUN):
            self.streak = 0
        if self.limit and self.streak >= self.limit:
            return (f"the engine was lost (crashed, hung or broke the protocol) on {self.streak} cases in a row "
                    f"with no answered case between them (--max-consecutive-failures {self.limit}); "
                    f"last: {result.message.splitlines()[0] if result.message else result.status.value}")
        return None


def not_run(case: Case, reason: str) -> Result:
    return Result(case.id, Status.NOT_RUN, case.file, case.rules, case.features, message=f"not run: {reason}")


class Session:
    """Iterate to run the cases: each yields one result, in suite order, every case exactly once.

    ``source`` yields the results of ``cases`` in order (serially or from workers);
    ``finished`` (optional) returns the results a source finished beyond the ones it yielded,
    kept when the run is interrupted.
    """

    def __init__(self, cases: Sequence[Case], source: Iterator[Result], policy: Policy = Policy(),
                 finished: Callable[[], dict[int, Result]] | None = None, stop: Callable[[], None] | None = None) -> None:
        self.cases = list(cases)
        self._source, self._finished, self._stop = source, finished, stop
        self.policy = policy
        self.ending, self.reason = Ending.COMPLETED, ""
        self.cause: BaseException | None = None
        self._yielded = 0
        self._unexpected = 0
        self._loop = CrashLoop(policy.max_consecutive_failures)

    def __iter__(self) -> Iterator[Result]:
        try:
            for result in self._source:
                self._yielded += 1
                yield result
                if self._judge(result):
                    break
        except KeyboardInterrupt as exc:
            self.end(Ending.INTERRUPTED, f"interrupted ({exc or 'SIGINT'})", exc)
        except EngineGaveUp as exc:
            self.end(Ending.ENGINE_GAVE_UP, str(exc))
        finally:
            self._close_source()
        yield from self.leftovers()

    def _judge(self, result: Result) -> bool:
        reason = self._loop.see(result)
        if reason:
            self.end(Ending.ENGINE_GAVE_UP, reason)
            return True
        self._unexpected += result.status.is_unexpected
        if self.policy.maxfail and self._unexpected >= self.policy.maxfail:
            self.end(Ending.MAXFAIL, f"stopped after {self._unexpected} unexpected result(s) (--maxfail)")
            return True
        return False

    def end(self, ending: Ending, reason: str, cause: BaseException | None = None) -> None:
        """Stop the run (from the consumer too, e.g. on an interrupt while writing a result)."""
        if self.ending is Ending.COMPLETED:
            self.ending, self.reason, self.cause = ending, reason, cause

    def leftovers(self) -> Iterator[Result]:
        """The cases not yielded yet: results finished by workers when interrupted, else NOT_RUN."""
        self._close_source()
        kept = self._finished() if self._finished and self.ending is Ending.INTERRUPTED else {}
        while self._yielded < len(self.cases):
            index = self._yielded
            self._yielded += 1
            yield kept.get(index) or not_run(self.cases[index], self.reason)

    def _close_source(self) -> None:
        if self._stop is not None:
            stop, self._stop = self._stop, None
            stop()
        close = getattr(self._source, "close", None)
        if callable(close):
            close()


def serial(cases: Sequence[Case], run_one: Callable[[Case], Result]) -> Iterator[Result]:
    """The results of ``cases`` one after the other, in this process."""
    for case in cases:
        yield run_one(case)
