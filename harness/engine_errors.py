"""What can go wrong with an engine, as exception types the harness recognises by type.

Its own module so that the engine interface (``harness.engine``), the protocol client
(``harness.subprocess_engine``) and the runner share them without importing each other.
An in-process engine may raise ``EngineTimeout`` (or the built-in ``TimeoutError``) itself:
the runner reports TIMEOUT for either, ERROR for any other exception.
"""

from __future__ import annotations


class EngineLoadError(Exception):
    """The engine named on the command line cannot be loaded or breaks the interface."""


class EngineGaveUp(Exception):
    """An external engine failed too often to go on (too many restarts): the run stops here,
    keeping every result it already has."""


class EngineFailure(Exception):
    """One case went wrong in the engine; ``diagnostics`` is what the engine left behind
    (for a protocol engine, the tail of its stderr)."""

    def __init__(self, message: str, diagnostics: str = "") -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


class EngineTimeout(EngineFailure):
    """The engine did not answer in time (the runner reports TIMEOUT for this type)."""


class EngineCrashed(EngineFailure):
    """The engine exited or closed its stdout while running a case."""


class EngineProtocolError(EngineFailure):
    """The engine wrote something that is not a protocol v1 answer to the request sent."""


class EngineStartError(EngineLoadError):
    """The engine could not be started or did not complete the handshake."""

    def __init__(self, message: str, diagnostics: str = "") -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


class TooManyRestarts(EngineGaveUp):
    """The engine had to be restarted too often: the run stops here, keeping its results.

    ``harness.runner`` lets ``EngineGaveUp`` through (it turns every other exception raised
    by an engine into that case's result); the CLI reports it after the results.
    """


TIMEOUTS: tuple[type[BaseException], ...] = (EngineTimeout, TimeoutError)


def is_timeout(exc: BaseException) -> bool:
    """Whether an engine's exception means it ran out of time (by type, never by name)."""
    return isinstance(exc, TIMEOUTS)
