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
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_JOBS}, got {text!r}")
    return value


def positive(text: str) -> int:
    """A whole number of at least 1 (--maxfail)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def count(text: str) -> int:
    """A whole number of at least 0 (--max-consecutive-failures, where 0 means never)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return value


def csv(text: str) -> list[str]:
    """A comma-separated list of names, blanks dropped (--features-include)."""
    return [part.strip() for part in text.split(",") if part.strip()]
