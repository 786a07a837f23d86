"""What a run checks around its cases, shared by ``castrules run`` and the pytest route:
stale entries of the expectations file, features an engine declares that the suite does not
know, and the expectations update once the run is over.

Each check is a warning naming the closest real names, or an error under ``--strict``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from castrules.harness.expectations import (ExpectationsError, Expectations, changes, load_expectations, updated,
                                            write)
from castrules.harness.names import UnknownNameError, describe_unknown
from castrules.harness.results import Result
from castrules.harness.selection import unknown_engine_features
from castrules.harness.suite import Suite


def expectations_to_apply(given: Path | None, update_target: Path | None) -> Path | None:
    """The expectations a run applies: the file given, else an existing file to be updated."""
    if given is not None:
        return given
    return update_target if update_target is not None and update_target.is_file() else None


def stale_message(expectations: Expectations, suite: Suite) -> str | None:
    """Entries for ids of no case, with the closest ids; None when there are none."""
    ids = [c.id for c in suite.cases]
    stale = expectations.stale_ids(ids)
    if not stale:
        return None
    text = f"{expectations.path}: " + describe_unknown("case id(s) listed", stale, ids) + "; remove or rename those entries"
    if suite.problems:
        text += " (some case files did not load: their ids may be among them)"
    return text


def warnings_before_a_run(expectations: Expectations, engine, suite: Suite) -> list[tuple[type[Exception], str]]:
    """Each problem found before a run, with the error it becomes under --strict."""
    found: list[tuple[type[Exception], str]] = []
    stale = stale_message(expectations, suite)
    if stale:
        found.append((ExpectationsError, stale))
    features = unknown_engine_features(engine.features, suite)
    if features:
        found.append((UnknownNameError, features))
    return found


def check_before_a_run(expectations: Expectations, engine, suite: Suite, strict: bool) -> None:
    """Print the warnings (``castrules: warning: ...``), or raise the first under --strict."""
    for error, text in warnings_before_a_run(expectations, engine, suite):
        if strict:
            raise error(text)
        print(f"castrules: warning: {text} (an error under --strict)", file=sys.stderr)


def update_expectations(target: Path, applied: Expectations, results: Iterable[Result], engine_name: str) -> None:
    """Merge the run into ``target`` (its own entries when it exists, else those applied)."""
    same = applied.path is not None and target.is_file() and applied.path.resolve() == target.resolve()
    base = applied if same or not target.is_file() else load_expectations(target)
    document = updated(base, results, engine_name)
    write(target, document)
    added, removed, kept = changes(base, document)
    print(f"wrote {target}: {added} added, {removed} removed, {kept} kept")
