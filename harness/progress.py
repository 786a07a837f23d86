"""What ``castrules run`` prints while cases run, and the run's last line.

Three ways to show progress, because a person at a terminal, a CI log and a script reading
``-q`` output want different things: on a terminal one line redrawn in place with the count,
the total and an estimate of the time left; elsewhere plain lines of marks, each ending with
``count/total`` (no carriage returns in a CI log); with ``-q`` nothing but one line per
unexpected result, as it arrives. The last line always has the counts and the unexpected ids,
so the tail of a log says what to look at.
"""

from __future__ import annotations

import enum
import sys
import time
from typing import Callable, TextIO

from castrules.harness.results import Result, Status
from castrules.harness.summary import format_totals, totals
from castrules.harness.textsafe import safe_line

MARKS = {Status.PASS: ".", Status.FAIL: "F", Status.ERROR: "E", Status.TIMEOUT: "T", Status.UNSUPPORTED: "u",
         Status.SKIPPED: "s", Status.KNOWN_FAILURE: "x", Status.UNEXPECTED_PASS: "X", Status.NOT_RUN: "-"}
LINE_WIDTH = 80          # marks per plain progress line
IDS_ON_LAST_LINE = 20    # beyond this, the last line says how many more (all are listed above it)


class Mode(enum.Enum):
    QUIET = "quiet"      # one line per unexpected result, nothing else
    VERBOSE = "verbose"  # one line per case
    TTY = "tty"          # one line redrawn in place: count, total, unexpected so far, time left
    PLAIN = "plain"      # lines of marks ending with count/total


def choose_mode(quiet: bool, verbose: bool, stream: TextIO) -> Mode:
    if quiet:
        return Mode.QUIET
    if verbose:
        return Mode.VERBOSE
    isatty = getattr(stream, "isatty", None)
    return Mode.TTY if isatty is not None and isatty() else Mode.PLAIN


def one_line(result: Result) -> str:
    """An unexpected result on one line: status, id, file and the first thing that differs."""
    what = ""
    if result.mismatches:
        what = str(result.mismatches[0])
        if len(result.mismatches) > 1:
            what += f" (+{len(result.mismatches) - 1} more)"
    elif result.message:
        what = result.message.strip().splitlines()[0] if result.message.strip() else ""
    line = f"{result.status.value.upper()} {result.case_id} ({result.file})"
    return safe_line(f"{line}: {' '.join(what.split())}" if what else line)


def last_line(results: list[Result], engine_name: str, engine_version: str, selected: int | None = None) -> str:
    """The run's last line: counts, then the unexpected ids (the first IDS_ON_LAST_LINE of them)."""
    done = sum(r.status is not Status.NOT_RUN for r in results)   # a run ended early reports the rest as not run
    selected = len(results) if selected is None else selected
    ran = f"{done} cases" if selected == done else f"{done} of {selected} cases"
    line = f"{engine_name} {engine_version}: {ran}: {format_totals(totals(results))}"
    unexpected = [r.case_id for r in results if r.status.is_unexpected and r.status is not Status.NOT_RUN]
    if unexpected:
        shown = ", ".join(unexpected[:IDS_ON_LAST_LINE])
        more = f" and {len(unexpected) - IDS_ON_LAST_LINE} more (listed above)" if len(unexpected) > IDS_ON_LAST_LINE else ""
        line += f"; unexpected: {shown}{more}"
    return line


def format_eta(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Progress:
    """Shows progress in one of the modes; ``clock`` is injectable so tests never wait."""

    def __init__(self, total: int, mode: Mode, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.mode, self.stream, self.clock = total, mode, stream or sys.stdout, clock
        self.count = self.unexpected = 0
        self.started = clock()
        self._drawn = 0

    def update(self, result: Result) -> None:
        if result.status is Status.NOT_RUN:
            return  # the cases a run ended before: counted in the last line, not one by one
        self.count += 1
        self.unexpected += result.status.is_unexpected
        if self.mode is Mode.QUIET:
            if result.status.is_unexpected:
                self._write(one_line(result) + "\n")
        elif self.mode is Mode.VERBOSE:
            self._write(f"{result.status.value.upper():16} {result.case_id}\n")
        elif self.mode is Mode.TTY:
            self._redraw()
        else:
            self._write(MARKS[result.status])
            if self.count % LINE_WIDTH == 0:
                self._write(f" {self.count}/{self.total}\n")

    def _redraw(self) -> None:
        elapsed = self.clock() - self.started
        left = elapsed / self.count * (self.total - self.count) if self.count else 0.0
        share = 100 * self.count // self.total if self.total else 100
        text = f"[{self.count}/{self.total} {share:3d}%] {self.unexpected} unexpected, elapsed {format_eta(elapsed)}, ETA {format_eta(left)}"
        self._write("\r" + text.ljust(self._drawn))
        self._drawn = len(text)

    def finish(self) -> None:
        if self.mode is Mode.TTY and self._drawn:
            self._write("\n")
        elif self.mode is Mode.PLAIN and self.count % LINE_WIDTH:
            self._write(f" {self.count}/{self.total}\n")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()
