"""Expectations files: the cases an engine is known to fail, with a reason and an issue URL.

A listed case that fails is a known failure; one that passes is an unexpected pass, which
turns the run red and asks for the file to be updated (strict, like toml-test and pytest's
strict xfail).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from castrules.harness import schemas
from castrules.harness.documents import DocumentError, dump_yaml, load_document
from castrules.harness.results import Result, Status


@dataclass(frozen=True)
class KnownFailure:
    status: str                 # the status the case is expected to have: fail / error / timeout / any
    reason: str
    issue: str | None = None


@dataclass(frozen=True)
class Expectations:
    entries: Mapping[str, KnownFailure]
    path: Path | None = None

    def apply(self, result: Result) -> Result:
        entry = self.entries.get(result.case_id)
        if entry is None:
            return result
        from dataclasses import replace

        if result.status in (Status.FAIL, Status.ERROR, Status.TIMEOUT):
            return replace(result, status=Status.KNOWN_FAILURE, raw_status=result.status,
                           message=f"known failure: {entry.reason}" + (f"\n{result.message}" if result.message else ""),
                           issue_url=entry.issue or result.issue_url)
        if result.status is Status.PASS:
            where = self.path or "the expectations file"
            return replace(result, status=Status.UNEXPECTED_PASS, raw_status=result.status,
                           message=f"passed, but {where} lists it as failing ({entry.reason}); remove it from the file "
                                   f"(or run with --update-expectations)")
        return result


class ExpectationsError(Exception):
    pass


def load_expectations(path: Path | None) -> Expectations:
    if path is None:
        return Expectations({})
    try:
        doc = load_document(path)
    except DocumentError as exc:
        raise ExpectationsError(f"{path}:{exc.line or '?'}: {exc.message}") from exc
    problems = list(schemas.errors("expectations", doc))
    if problems:
        pointer, message = problems[0]
        raise ExpectationsError(f"{path}: at {pointer or '/'}: {message}")
    entries = {case_id: KnownFailure(e.get("status", "fail"), e["reason"], e.get("issue"))
               for case_id, e in (doc.get("cases") or {}).items()}
    return Expectations(entries, path)


def updated(previous: Expectations, results: list[Result], engine_name: str) -> dict:
    """The expectations document after a run: failing cases listed, passing ones removed."""
    cases: dict[str, dict] = {}
    for result in sorted(results, key=lambda r: r.case_id):
        raw = result.raw_status or result.status
        if raw in (Status.FAIL, Status.ERROR, Status.TIMEOUT):
            old = previous.entries.get(result.case_id)
            entry = {"status": raw.value,
                     "reason": old.reason if old else _first_line(result)}
            if old and old.issue:
                entry["issue"] = old.issue
            cases[result.case_id] = entry
    return {"engine": engine_name, "cases": cases}


def write(path: Path, document: dict) -> None:
    text = "# castrules expectations: cases this engine is known to fail (see castrules run --help)\n"
    text += dump_yaml(document)
    path.write_text(text, encoding="utf-8")


def _first_line(result: Result) -> str:
    if result.mismatches:
        return str(result.mismatches[0])[:200]
    return (result.message.splitlines() or ["failing"])[0][:200]
