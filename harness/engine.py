"""The engine interface, and loading an engine from its spec (``harness.engine_spec``).

An engine declares its name, version and features and answers one request per case (see
docs/case-format.md, "What an engine receives"). The oracle is one engine among others: it is
loaded through this interface, never imported by the harness, and recognised by what it
declares (``reference = True``), not by its name.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from typing import Any, Mapping, Protocol, runtime_checkable

from castrules.harness.contract import ReasonDetail
from castrules.harness.engine_errors import EngineGaveUp, EngineLoadError, EngineTimeout
from castrules.harness.engine_spec import ORACLE, ORACLE_TARGET, EngineKind, EngineSpec, parse_engine_spec

ORACLE_SPEC = ORACLE_TARGET

__all__ = ["Engine", "EngineGaveUp", "EngineLoadError", "EngineTimeout", "ORACLE_SPEC", "close", "is_reference",
           "load_engine", "oracle_explainer"]


@runtime_checkable
class Engine(Protocol):
    """What the harness needs from an engine, in process.

    Optional: ``close()``, called once at the end; ``reference``, true only for the reference
    oracle (its own trace explains its failures; its shipped known-failures file applies).
    """

    name: str
    version: str
    features: frozenset[str]
    # optional: ``reasons`` = "none" | "family" | "exact" (default): how finely run() reports why
    # a step is illegal; comparison checks only that much (harness.contract.ReasonDetail)

    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        """Run one case (without its expectations); return observations or a skip."""
        ...


def load_engine(spec: str | EngineSpec | None, **options: Any) -> Engine:
    """The engine a spec names (``oracle`` by default; see ``harness.engine_spec``).
    ``options`` (timeout, isolate, ...) are for protocol engines."""
    parsed = spec if isinstance(spec, EngineSpec) else parse_engine_spec(spec)
    if parsed.kind is EngineKind.IN_PROCESS:
        return _load_python(parsed)
    from castrules.harness.subprocess_engine import SubprocessEngine  # imported lazily: only external engines need it

    return SubprocessEngine.from_command_line(parsed.target, **options)


def _load_python(spec: EngineSpec) -> Engine:
    module_name, attr = spec.module, spec.attribute
    _current_directory_importable()
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineLoadError(f"cannot import engine module {module_name!r}: {exc} (looked in the current directory "
                              f"{os.getcwd()} and the installed packages)") from exc
    try:
        factory = getattr(module, attr)
    except AttributeError as exc:
        raise EngineLoadError(f"module {module_name!r} has no {attr!r}") from exc
    engine = factory() if isinstance(factory, type) or callable(factory) else factory
    missing = [a for a in ("name", "version", "features", "run") if not hasattr(engine, a)]
    if missing:
        raise EngineLoadError(f"engine {spec.target!r} lacks {', '.join(missing)}: see castrules.harness.engine.Engine")
    check_attributes(engine, spec.target)
    engine.features = frozenset(engine.features)
    try:
        ReasonDetail.parse(getattr(engine, "reasons", None))
    except ValueError as exc:
        raise EngineLoadError(f"engine {spec.target!r}: {exc}") from exc
    return engine


def check_attributes(engine: object, where: str) -> None:
    """An engine's declarations have the types the harness relies on, or a clear load error."""
    problems = [f"{a} is {type(getattr(engine, a)).__name__}, expected a string"
                for a in ("name", "version") if not isinstance(getattr(engine, a), str)]
    features = getattr(engine, "features")
    if isinstance(features, (str, bytes)) or not isinstance(features, (list, tuple, set, frozenset)):
        problems.append(f"features is {type(features).__name__}, expected a set or list of strings")
    elif not all(isinstance(f, str) for f in features):
        problems.append("features holds something that is not a string")
    if not callable(getattr(engine, "run")):
        problems.append("run is not callable")
    if problems:
        raise EngineLoadError(f"engine {where!r}: {'; '.join(problems)} (see castrules.harness.engine.Engine)")


def _current_directory_importable() -> None:
    """Put the current directory first on ``sys.path``, as ``python -m`` (and pytest's rootdir)
    do, so ``--engine mymod:Engine`` finds ``mymod.py`` beside the user (the console script's
    ``sys.path`` starts at its own folder instead)."""
    here = os.getcwd()
    if not any(os.path.abspath(entry or os.curdir) == here for entry in sys.path):
        sys.path.insert(0, here)


def close(engine: Engine) -> None:
    closer = getattr(engine, "close", None)
    if callable(closer):
        closer()


def is_reference(engine: object) -> bool:
    """Whether the engine declares itself the reference oracle (``reference`` is True)."""
    return getattr(engine, "reference", False) is True


def oracle_explainer(engine: Engine) -> Engine | None:
    """The oracle, to explain another engine's failures; None when the engine is the oracle
    itself (its own trace is the explanation). It is loaded when a failure first needs it, so
    a passing run never imports the oracle."""
    if is_reference(engine):
        return None
    return LazyOracle()


class LazyOracle:
    """The oracle, loaded at its first request (once, whichever ``-j`` lane asks first)."""

    name, version, features = "castrules-oracle (explainer)", "", frozenset()

    def __init__(self) -> None:
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        with self._lock:
            if self._engine is None:
                self._engine = load_engine(ORACLE)   # EngineLoadError: the case's note says why
            engine = self._engine
        return engine.run(request)
