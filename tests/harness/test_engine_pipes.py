"""Reading an engine's stdout (harness.engine_pipes, harness.engine_process): a line the engine
wrote before its deadline is its answer even when the harness looks for it only afterwards."""

from __future__ import annotations

import subprocess
import sys

import pytest

from castrules.harness.engine_pipes import DirectLineReader, ReadTimeout
from castrules.harness.engine_process import MAX_LINE_BYTES, LineReader

PAST = float("-inf")     # a deadline long gone, whatever the clock says (no test reads a clock)


def _wrote(text: str) -> subprocess.Popen:
    """A process that has written ``text`` to stdout and exited (so the pipe holds it all)."""
    popen = subprocess.Popen([sys.executable, "-c", f"import sys; sys.stdout.write({text!r})"],
                             stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    popen.wait()
    return popen


def _readers(popen: subprocess.Popen):
    return {"direct": lambda: DirectLineReader(popen, MAX_LINE_BYTES), "threaded": lambda: LineReader(popen)}


@pytest.mark.parametrize("kind", ["direct", "threaded"])
def test_a_line_written_in_time_is_read_after_the_deadline(kind):
    popen = _wrote('{"seq": 1}\n')
    reader = _readers(popen)[kind]()
    if kind == "threaded":
        reader.thread.join(5)        # the reader thread has queued the line: only the harness is late
    try:
        assert reader.receive(PAST) == b'{"seq": 1}\n'
    finally:
        popen.stdout.close()


@pytest.mark.parametrize("kind", ["direct", "threaded"])
def test_nothing_written_is_still_a_timeout(kind):
    popen = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                             stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        with pytest.raises(ReadTimeout):
            _readers(popen)[kind]().receive(PAST)
    finally:
        popen.kill()
        popen.wait()
        popen.stdout.close()


def test_a_flood_of_blank_lines_after_the_deadline_still_times_out():
    """The late look reads at most a longest line's worth: a stream of blank lines cannot keep it reading."""
    popen = subprocess.Popen([sys.executable, "-c", "import sys\nwhile True: sys.stdout.write('\\n' * 65536); sys.stdout.flush()"],
                             stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        with pytest.raises(ReadTimeout):
            DirectLineReader(popen, 4 * 65536).receive(PAST)
    finally:
        popen.kill()
        popen.wait()
        popen.stdout.close()
