"""Command-line values checked as they are read: a bad one is a usage error (exit 2) that says
what was expected, before anything runs (argparse ``type=`` functions)."""

from __future__ import annotations

import argparse

MAX_JOBS = 64            # worker processes; more only thrash a machine
MAX_SECONDS = 86_400.0   # a day: anything longer is a typo, not a timeout


def seconds(text: str) -> float:
    """A timeout: a finite number of seconds above 0 (at most a day)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value <= MAX_SECONDS):  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most {MAX_SECONDS:.0f}, got {text!r}")
    return value


def jobs(text: str) -> int:
    """-j: worker processes, from 1 to MAX_JOBS."""
    return _whole(text, 1, MAX_JOBS)


def positive(text: str) -> int:
    """A whole number of at least 1 (--maxfail)."""
    return _whole(text, 1)


def count(text: str) -> int:
    """A whole number of at least 0 (--max-consecutive-failures, where 0 means never)."""
    return _whole(text, 0)


def _whole(text: str, low: int, high: int | None = None) -> int:
    """A whole number from `low` (to `high`, if any); anything else is a usage error saying so."""
    try:
        value: int | None = int(text)
    except ValueError:   # also a number too long to read
        value = None
    if value is None or value < low or (high is not None and value > high):
        wanted = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise argparse.ArgumentTypeError(f"expected a whole number {wanted}, got {text!r}")
    return value


def csv(text: str) -> list[str]:
    """A comma-separated list of names, blanks dropped (--features-include)."""
    return [part.strip() for part in text.split(",") if part.strip()]
