"""castrules.model: the typed format of castrules, below both the oracle and the harness.

Frozen values for a case (`Case`, `Setup`, the step types, `Expectation`), the request an
engine receives (`Request`), the observations it returns (`Observations`, `StepResult`,
`Snapshot`), the protocol messages, and the catalog's cards with one type per ability and
effect kind. Each is built from a schema-valid document with `from_document`; a bad document
raises `ModelError` naming the JSON pointer. Pure and stdlib only: engine adapters written in
Python may build on it (docs/model.md).
"""
from __future__ import annotations

from . import abilities, effects, steps
from .abilities import ABILITY_TYPES, Ability
from .build import Model, to_document
from .cards import Card, Face, read_catalog
from .case import (HIDDEN_FIELDS, STATE_FIELDS, STEP_FIELDS, UNSET, Case, Expectation, ObjectExpectation,
                   PlayerExpectation, PublicCase, Setup, SetupObject, public_document)
from .effects import EFFECT_TYPES, Effect, read_effect, read_effects
from .errors import ModelError
from .observations import Errored, Observations, Result, Skipped, Snapshot, StepResult
from .parts import AbilityCost, Filter, TargetSpec
from .protocol import PROTOCOL_VERSION, Hello, HelloReply, Message, Refuse, ResultMessage, Run, Stop, read_message
from .request import Request, card_names, observe_points, request_document
from .steps import STEP_TYPES, Cast, ManaActivation, Step, read_step
from .vocab import Zone, is_player

__all__ = [
    "ABILITY_TYPES", "EFFECT_TYPES", "HIDDEN_FIELDS", "PROTOCOL_VERSION", "STATE_FIELDS", "STEP_FIELDS",
    "STEP_TYPES", "UNSET", "Ability", "AbilityCost", "Card", "Case", "Cast", "Effect", "Errored", "Expectation",
    "Face", "Filter", "Hello", "HelloReply", "ManaActivation", "Message", "Model", "ModelError",
    "ObjectExpectation", "Observations", "PlayerExpectation", "PublicCase", "Refuse", "Request", "Result",
    "ResultMessage", "Run", "Setup", "SetupObject", "Skipped", "Snapshot", "Step", "StepResult", "Stop",
    "TargetSpec", "Zone", "abilities", "card_names", "effects", "is_player", "observe_points", "public_document",
    "read_catalog", "read_effect", "read_effects", "read_message", "read_step", "request_document", "steps", "to_document",
]
