"""The engine spec grammar: how ``--engine`` names an engine.

    oracle                  the reference oracle (the default)
    py:MODULE:NAME          in process: NAME (a class, a factory or an object) from MODULE
    cmd:COMMAND LINE        a protocol v1 engine: the command line, split with shlex and run
                            as an argument vector, never through a shell
    MODULE:NAME             no prefix: guessed as in process when it reads as a dotted module
    COMMAND LINE            and an identifier with no spaces or slashes, else as a command line

The prefixes make a spec mean one thing whatever files exist; the guess keeps the short forms
of earlier releases working. ``py:`` and ``cmd:`` are reserved words here: an engine module
named ``py`` or ``cmd`` is written ``py:py:Engine``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from castrules.harness.engine_errors import EngineLoadError

ORACLE = "oracle"
ORACLE_TARGET = "castrules.oracle:OracleEngine"


class EngineKind(enum.Enum):
    """Where the engine runs."""

    IN_PROCESS = "py"
    COMMAND = "cmd"


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``--engine`` value: its kind, its target and whether the kind was written."""

    kind: EngineKind
    target: str            # "module:Name" in process; the command line otherwise
    explicit: bool = True

    @property
    def module(self) -> str:
        return self.target.partition(":")[0] if self.kind is EngineKind.IN_PROCESS else ""

    @property
    def attribute(self) -> str:
        return self.target.partition(":")[2] if self.kind is EngineKind.IN_PROCESS else ""

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.target}"


def parse_engine_spec(text: str | None) -> EngineSpec:
    """Read an ``--engine`` value (see the module docstring); ``EngineLoadError`` if malformed."""
    spec = (text if text is not None else ORACLE).strip()
    if not spec:
        raise EngineLoadError("the engine spec is empty: give oracle, py:MODULE:NAME or cmd:COMMAND")
    if spec == ORACLE:
        return EngineSpec(EngineKind.IN_PROCESS, ORACLE_TARGET, explicit=False)
    prefix, sep, rest = spec.partition(":")
    if sep and prefix == EngineKind.IN_PROCESS.value:
        if not _is_python_target(rest.strip()):
            raise EngineLoadError(f"engine spec {spec!r}: expected py:MODULE:NAME (a dotted module and an identifier)")
        return EngineSpec(EngineKind.IN_PROCESS, rest.strip())
    if sep and prefix == EngineKind.COMMAND.value:
        if not rest.strip():
            raise EngineLoadError(f"engine spec {spec!r}: expected cmd:COMMAND LINE")
        return EngineSpec(EngineKind.COMMAND, rest.strip())
    kind = EngineKind.IN_PROCESS if _is_python_target(spec) else EngineKind.COMMAND
    return EngineSpec(kind, spec, explicit=False)


def _is_python_target(spec: str) -> bool:
    module, sep, attr = spec.partition(":")
    parts = module.split(".")
    return bool(sep) and all(part.isidentifier() for part in parts) and attr.isidentifier()
