"""The case a check of `castrules.harness.checks` looks at: the document and the suite's data its
names are checked against, and how a check reports a problem in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from castrules.harness.catalog import Catalog
from castrules.harness.problems import Problem
from castrules.harness.vocabulary import Vocabulary


@dataclass(frozen=True)
class CaseCheck:
    """One case document and what its names are checked against."""

    file: str
    doc: Mapping[str, Any]
    catalog: Catalog
    vocab: Vocabulary
    invented: bool = True   # held to the invented_cards rule (the suite's cases, not a project's own)

    def problem(self, pointer: str, message: str, code: str) -> Problem:
        return Problem(self.file, pointer, message, None, code)

    @property
    def players(self) -> list[str]:
        return list(self.doc["setup"]["players"])

    @property
    def setup_ids(self) -> set[str]:
        return {obj["id"] for obj in self.doc["setup"].get("objects", [])}
