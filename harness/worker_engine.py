"""An in-process engine run in a worker process of its own, so that it can be contained.

Running an engine's Python code inside the harness means trusting it: a ``sys.exit``, an
endless loop or a mutated global would be the run's problem. ``worker_engine`` starts the
engine under ``castrules serve`` in a child process (a session of its own) and speaks
protocol v1 to it, so the per-case timeout kills it, a crash is that case's error and the
worker is restarted, and nothing it does reaches the harness but its JSON answers. The cost
is the protocol's: a persistent worker runs at the speed ``castrules bench`` reports for
``serve`` (about 0.8 of in process on the oracle), plus one Python start per restart.

``castrules run`` uses a worker for every in-process engine but the oracle and its mutants
(castrules' own code), and for every engine with ``-j``; ``--in-process`` opts out.
"""

from __future__ import annotations

import sys
from typing import Any

from castrules.harness.child_python import child_env, python_argv
from castrules.harness.engine_spec import ORACLE_TARGET, EngineSpec
from castrules.harness.subprocess_engine import SubprocessEngine

TRUSTED_PREFIX = "castrules."   # castrules' own engines (the oracle, its mutants) need no worker


def is_trusted(spec: EngineSpec) -> bool:
    """Whether an in-process engine is castrules' own code (run in process by default)."""
    return spec.target == ORACLE_TARGET or spec.module.startswith(TRUSTED_PREFIX)


def worker_engine(spec: EngineSpec, **options: Any) -> SubprocessEngine:
    """The in-process engine ``spec``, served in a worker process of its own."""
    argv = python_argv("castrules.harness.protocol_server", f"py:{spec.target}")
    # the worker imports what this process can import (the current directory first), and the
    # same castrules (castrules.harness.child_python)
    engine = SubprocessEngine(argv, env=child_env(), **options)
    engine.reference = spec.target == ORACLE_TARGET  # type: ignore[attr-defined]  # served oracle: its known failures apply
    return engine
