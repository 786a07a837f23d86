"""Exit statuses of every castrules command (the run's verdict for CI)."""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    """0: every result as expected; 1: unexpected results; 2: a usage error or a broken suite file."""

    OK = 0
    UNEXPECTED = 1
    USAGE = 2


EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE = int(Exit.OK), int(Exit.UNEXPECTED), int(Exit.USAGE)
