"""How castrules starts a Python process of its own (an engine's worker, `serve` for bench, the
solver benchmark) so that the child imports the same castrules as the parent.

`python -m` puts the current directory first on the child's path, so a folder named `castrules`
there (a source checkout of castrules itself, with the package installed from it) would shadow
the installed package, and `castrules.harness` would not be found. The child is started with
`-P` (no implicit current directory) and a PYTHONPATH that lists the current directory (engines
beside the user stay importable) and the parent's path, with the parent's own copy of castrules
first only when the current directory holds another one.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import castrules


def python_argv(module: str, *args: str) -> list[str]:
    """`python -P -m module args...` with the interpreter running castrules now."""
    return [sys.executable, "-P", "-m", module, *args]


def child_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child started with `python_argv`: PYTHONPATH as described above."""
    here = os.getcwd()
    entries = [entry or here for entry in [here, *sys.path]]
    ours = Path(castrules.__file__).resolve().parent
    theirs = Path(here, "castrules")
    if theirs.is_dir() and theirs.resolve() != ours:
        entries.insert(0, str(ours.parent))
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(entries)
    return env
