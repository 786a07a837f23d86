"""Expectations files: the cases an engine is known to fail, with a reason and an issue link (``issue_url``).

A listed case that fails is a known failure; one that passes is an unexpected pass, which
turns the run red and asks for the file to be updated (strict, like toml-test and pytest's
strict xfail).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Mapping

from castrules.harness import paths, schemas
from castrules.harness.documents import DocumentError, dump_yaml, load_document
from castrules.harness.engine import is_reference
from castrules.harness.results import Result, Status


FAILING = (Status.FAIL, Status.ERROR, Status.TIMEOUT)
ISSUE_FIELD = "issue_url"   # the one name of the issue link: expectations, skip answers, reports


@dataclass(frozen=True)
class KnownFailure:
    status: str                 # the status the case is expected to have: fail / error / timeout ("fail" if unnamed)
    reason: str
    issue_url: str | None = None


@dataclass(frozen=True)
class Expectations:
    entries: Mapping[str, KnownFailure]
    path: Path | None = None
    # the file as read: an update starts from it, so hand-written fields are never lost
    document: Mapping | None = field(default=None, compare=False)

    def apply(self, result: Result) -> Result:
        entry = self.entries.get(result.case_id)
        if entry is None:
            return result
        if result.status in FAILING and result.status.value != entry.status:
            # a different bad status is news: an error or a timeout is not the failure the file knows
            where = self.path or "the expectations file"
            return replace(result, message=f"{where} expects {entry.status} ({entry.reason}), but the case gave "
                                           f"{result.status.value}; fix the engine or update the file"
                                           + (f"\n{result.message}" if result.message else ""))
        if result.status in FAILING:
            return replace(result, status=Status.KNOWN_FAILURE, raw_status=result.status,
                           message=f"known failure: {entry.reason}" + (f"\n{result.message}" if result.message else ""),
                           issue_url=entry.issue_url or result.issue_url)
        if result.status is Status.PASS:
            where = self.path or "the expectations file"
            return replace(result, status=Status.UNEXPECTED_PASS, raw_status=result.status,
                           message=f"passed, but {where} lists it as failing ({entry.reason}); remove it from the file "
                                   f"(or run with --update-expectations)")
        return result

    def stale_ids(self, known_ids: Iterable[str]) -> list[str]:
        """Listed ids that name no case of the suite (misspelt, retired or from another suite)."""
        known = set(known_ids)
        return sorted(i for i in self.entries if i not in known)


class ExpectationsError(Exception):
    pass


def load_expectations(path: Path | None) -> Expectations:
    """Read and check an expectations file; a missing or bad file is an error, never "no file"."""
    if path is None:
        return Expectations({})
    if not path.is_file():
        raise ExpectationsError(f"{path}: no such expectations file (to start one from a run: "
                                f"castrules run --update-expectations {path})")
    try:
        doc = load_document(path)
    except DocumentError as exc:
        raise ExpectationsError(str(exc)) from exc
    for case_id, entry in ((doc.get("cases") or {}) if isinstance(doc, dict) else {}).items():
        if isinstance(entry, dict) and "issue" in entry:
            raise ExpectationsError(f"{path}: at /cases/{_escape(str(case_id))}/issue: the issue link is named "
                                    f"{ISSUE_FIELD!r} (as in skip answers and reports); rename the field")
    problems = list(schemas.errors("expectations", doc))
    if problems:
        pointer, message = problems[0]
        raise ExpectationsError(f"{path}: at {pointer or '/'}: {message}")
    entries = {case_id: KnownFailure(e.get("status", "fail"), e["reason"], e.get(ISSUE_FIELD))
               for case_id, e in (doc.get("cases") or {}).items()}
    return Expectations(entries, path, doc)


def updated(previous: Expectations, results: Iterable[Result], engine_name: str) -> dict:
    """The expectations document after a run, merged into the previous one.

    Only what the run saw changes: a case that failed is listed (a new entry gets a generated
    reason; an old one keeps its reason, issue link and any other field, with its status
    refreshed); a case that passed is removed. Cases not selected, not run, in other shards,
    unsupported or skipped keep their entries as they were."""
    document = dict(previous.document or {})
    cases: dict[str, dict] = {k: dict(v) for k, v in (document.get("cases") or {}).items()}
    if not document and previous.entries:  # built in code rather than read from a file
        cases = {k: _entry_of(e) for k, e in previous.entries.items()}
    for result in results:
        raw = result.raw_status or result.status
        if raw in FAILING:
            old = cases.get(result.case_id, {})
            entry = {"status": raw.value, "reason": old.get("reason") or _first_line(result)}
            entry.update((k, v) for k, v in old.items() if k not in entry)
            cases[result.case_id] = entry
        elif raw is Status.PASS:
            cases.pop(result.case_id, None)
    document.setdefault("engine", engine_name)
    document["cases"] = dict(sorted(cases.items()))
    return document


def changes(before: Expectations, after: Mapping) -> tuple[int, int, int]:
    """(added, removed, kept) entries between a file and its update, for the run's last words."""
    old, new = set(before.entries), set(after.get("cases") or {})
    return len(new - old), len(old - new), len(new & old)


def write(path: Path, document: dict) -> None:
    text = "# castrules expectations: cases this engine is known to fail (see castrules run --help)\n"
    text += dump_yaml(document)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _entry_of(entry: KnownFailure) -> dict:
    out = {"status": entry.status, "reason": entry.reason}
    if entry.issue_url:
        out[ISSUE_FIELD] = entry.issue_url
    return out


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _first_line(result: Result) -> str:
    if result.mismatches:
        return str(result.mismatches[0])[:200]
    return (result.message.splitlines() or ["failing"])[0][:200]


ORACLE_EXPECTATIONS = "oracle-known-failures.yaml"


def default_expectations(engine: object, given: Path | None) -> Expectations:
    """The expectations of a run: the file given, else the oracle's shipped known failures when
    the engine is the reference oracle (recognised by ``reference``), else none."""
    if given is not None:
        return load_expectations(given)
    if is_reference(engine):
        shipped = paths.cases_dir() / ORACLE_EXPECTATIONS
        if shipped.exists():
            return load_expectations(shipped)
    return Expectations({})
