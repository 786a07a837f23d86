"""Protocol v1 messages (schema/protocol.schema.json): JSON lines between harness and engine."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping

from .build import Model
from .errors import ModelError, excerpt
from .observations import Result
from .request import Request

PROTOCOL_VERSION = 1
"""The protocol version this castrules speaks (the one place it is defined)."""


@dataclass(frozen=True)
class Message(Model):
    """Base of the messages; `type` is its tag on the wire."""

    type: ClassVar[str] = ""

    def wrap_document(self, body: dict) -> Any:
        return {"type": self.type, **body}

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        return {k: v for k, v in doc.items() if k != "type"} if isinstance(doc, Mapping) else doc


@dataclass(frozen=True)
class Hello(Message):
    """harness -> engine, first line: the version the harness speaks."""

    type: ClassVar[str] = "hello"
    protocol: int = PROTOCOL_VERSION
    suite_version: str | None = None


@dataclass(frozen=True)
class EngineInfo(Model):
    name: str
    version: str
    homepage: str | None = None


@dataclass(frozen=True)
class HelloReply(Message):
    """engine -> harness: who it is and the features it supports (cases/features.yaml)."""

    type: ClassVar[str] = "hello"
    protocol: int
    engine: EngineInfo
    features: tuple[str, ...]
    reasons: Literal["none", "family", "exact"] = "exact"   # how finely it reports why a step is illegal
    pipeline: int = 1      # how many runs it accepts before answering the first (protocol pipelining)


@dataclass(frozen=True)
class Refuse(Message):
    """engine -> harness: it cannot speak the version asked for."""

    type: ClassVar[str] = "refuse"
    reason: str
    protocol: int | None = None


@dataclass(frozen=True)
class Run(Message):
    """harness -> engine: run one case; the answer echoes `seq`."""

    type: ClassVar[str] = "run"
    seq: int
    request: Request


@dataclass(frozen=True)
class ResultMessage(Message):
    """engine -> harness: the result of run `seq`."""

    type: ClassVar[str] = "result"
    seq: int
    result: Result


@dataclass(frozen=True)
class Stop(Message):
    """harness -> engine: finish and exit."""

    type: ClassVar[str] = "stop"


MESSAGE_TYPES: tuple[type[Message], ...] = (Hello, HelloReply, Refuse, Run, ResultMessage, Stop)


def read_message(doc: Any, from_engine: bool, where: str = "") -> Message:
    """A message as its type; `from_engine` tells a hello reply from a hello request."""
    kind = doc.get("type") if isinstance(doc, Mapping) else None
    wanted = (HelloReply, Refuse, ResultMessage) if from_engine else (Hello, Run, Stop)
    for cls in wanted:
        if cls.type == kind:
            return cls.from_document(doc, where)
    raise ModelError(where, f"unexpected message type {excerpt(kind)}; expected one of {[c.type for c in wanted]}")
