"""The project's tests never measure time: on a busy shared CI machine a timed assertion goes red
at random. Speed figures live in ``castrules bench`` only (see the README's Speed section).

Fake engines may sleep (that is how they hang or start slowly); tests may pass timeouts; no
test module reads a clock.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = re.compile(r"\b(?:time\.(?:monotonic|perf_counter|process_time|time)(?:_ns)?\s*\(|timeit\b|"
                    r"from time import [^\n]*\b(?:monotonic|perf_counter|process_time|time)\b)")


def test_no_test_module_reads_a_clock():
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if "fake_engines" in path.parts or path.name == Path(__file__).name:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if CLOCKS.search(line):
                offenders.append(f"{path.relative_to(TESTS)}:{number}: {line.strip()[:80]}")
    assert offenders == [], "timed code in the tests (speed belongs in castrules bench):\n" + "\n".join(offenders)


DEADLINE = re.compile(r"\bdeadline\s*=\s*(?!None\b)")


def test_hypothesis_never_times_a_test():
    """A deadline or the too_slow health check fails a test for being slow on a busy machine:
    both are timed assertions made by hypothesis (tests/conftest.py switches them off)."""
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    offenders = [f"{path.relative_to(TESTS)}:{number}" for path in sorted(TESTS.rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if DEADLINE.search(line) and path.name != Path(__file__).name]
    assert offenders == [], f"a hypothesis deadline other than None: {offenders}"
