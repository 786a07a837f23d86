"""Problems found in the suite's files: where (file, JSON pointer, line) and what was expected.

A problem is data, so that one bad file never stops the others: loaders collect problems
and carry on, and the CLI and the pytest plugin decide how to show them.
"""

from __future__ import annotations

from dataclasses import dataclass

from castrules.harness.excerpts import quoted, shorten


@dataclass(frozen=True, slots=True)
class Problem:
    file: str          # path relative to the suite root when possible
    pointer: str       # JSON pointer into the document ("" for the whole file)
    message: str       # what is wrong and what was expected
    line: int | None = None
    code: str = "invalid"

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        pointer = shorten(self.pointer) or "/"   # a key of the file's own: quoted short too
        return f"{where}: at {pointer}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "pointer": self.pointer,
                "code": self.code, "message": self.message}


def duplicate_id(file: str, case_id: str, first: str, line: int | None) -> Problem:
    """A case id used a second time (the suite's and an engine project's own cases alike)."""
    return Problem(file, "/id", f"duplicate id {quoted(case_id)}: already used by {first}; ids are unique", line,
                   "duplicate_id")


def pointer_of(path: tuple | list) -> str:
    """RFC 6901 pointer for a sequence of keys and indexes."""
    if not path:
        return ""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)
