"""The one error the model raises: a document that does not have the shape of the format."""
from __future__ import annotations


class ModelError(ValueError):
    """A document (or part of one) is not what the format says; `pointer` is its JSON pointer."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.message = message


def excerpt(value: object, limit: int = 60) -> str:
    """A short quotation of a bad value (errors quote at most a short excerpt)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
