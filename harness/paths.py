"""Where the suite's data lives: a source checkout, an editable install or a wheel.

A wheel carries the top-level ``cases/`` and ``schema/`` folders as ``castrules/suite/``; a
checkout has them beside ``harness/``. Everything else asks this module, never guesses.
``CASTRULES_SUITE`` points at another root holding ``cases/`` and ``schema/``: it replaces the whole
suite (the project's tests build small suites with it; the README documents it). An engine
project adds its own cases with ``--cases DIR`` instead (harness.local_cases).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent


@cache
def suite_root() -> Path:
    """The folder that holds ``cases/`` and ``schema/``."""
    override = os.environ.get("CASTRULES_SUITE")
    if override:
        return Path(override).resolve()
    installed = _HERE.parent / "suite"
    if (installed / "cases").is_dir():
        return installed
    return _HERE.parent


def cases_dir() -> Path:
    return suite_root() / "cases"


def schema_dir() -> Path:
    return suite_root() / "schema"


def catalog_dir() -> Path:
    return cases_dir() / "catalog"


def relative(path: Path, root: Path) -> str:
    """``path`` as problems and reports name it: relative to the suite root when inside it.

    Named as found (a symlink by its own name, not its target's)."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        pass
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
