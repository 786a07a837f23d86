"""The engine interface, and choosing an engine from the command line.

An engine declares its name, version and features and answers one request per case (see
docs/case-format.md, "What an engine receives"). The oracle is one engine among others: it is
loaded by name through this interface, never imported by the harness.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping, Protocol, runtime_checkable

ORACLE_SPEC = "castrules.oracle:OracleEngine"


@runtime_checkable
class Engine(Protocol):
    """What the harness needs from an engine, in process."""

    name: str
    version: str
    features: frozenset[str]

    def run(self, request: Mapping[str, Any]) -> Mapping[str, Any]:
        """Run one case (without its expectations); return observations or a skip."""
        ...


class EngineLoadError(Exception):
    """The engine named on the command line cannot be loaded or breaks the interface."""


class EngineGaveUp(Exception):
    """An external engine failed too often to go on (too many restarts): the run stops here,
    keeping every result it already has."""


def load_engine(spec: str | None, **options: Any) -> Engine:
    """``oracle`` (default), ``module:Class`` (in process) or a command line (subprocess)."""
    spec = (spec or "oracle").strip()
    if spec == "oracle":
        spec = ORACLE_SPEC
    if _looks_like_python(spec):
        return _load_python(spec)
    from castrules.harness.subprocess_engine import SubprocessEngine  # imported lazily: only external engines need it

    return SubprocessEngine.from_command_line(spec, **options)


def _looks_like_python(spec: str) -> bool:
    module, sep, attr = spec.partition(":")
    return bool(sep) and " " not in spec and "/" not in module and module.replace(".", "").replace("_", "").isalnum() and attr.isidentifier()


def _load_python(spec: str) -> Engine:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineLoadError(f"cannot import engine module {module_name!r}: {exc}") from exc
    try:
        factory = getattr(module, attr)
    except AttributeError as exc:
        raise EngineLoadError(f"module {module_name!r} has no {attr!r}") from exc
    engine = factory() if isinstance(factory, type) or callable(factory) else factory
    missing = [a for a in ("name", "version", "features", "run") if not hasattr(engine, a)]
    if missing:
        raise EngineLoadError(f"engine {spec!r} lacks {', '.join(missing)}: see harness.engine.Engine")
    engine.features = frozenset(engine.features)
    return engine


def close(engine: Engine) -> None:
    closer = getattr(engine, "close", None)
    if callable(closer):
        closer()


def oracle_explainer(engine: Engine) -> Engine | None:
    """The oracle, to explain another engine's failures; None when the engine is the oracle
    itself (its own trace is the explanation) or the oracle cannot be loaded."""
    if getattr(engine, "name", None) == "castrules-oracle":
        return None
    try:
        return load_engine("oracle")
    except EngineLoadError:
        return None
