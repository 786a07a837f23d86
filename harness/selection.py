"""Choosing cases from the command line, where a typo is an error and never an empty green run.

``--features-include prowel``, an ``--id`` glob that matches nothing, or a ``-k`` expression
that selects no case would otherwise give "0 cases" and exit 0: a CI job that tests nothing
and stays green. Each is a usage error naming the closest real names. An engine declaring a
feature the suite does not know (``prowll``) is a loud warning, an error under ``--strict``: a
warning by default because an engine written against a newer suite may rightly declare
features this version does not have yet.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Iterable, Sequence

from castrules.harness.cases import Case
from castrules.harness.names import UnknownNameError, closest, describe_unknown, unknown
from castrules.harness.suite import Suite, select
from castrules.harness.excerpts import quoted


def select_checked(suite: Suite, keyword: str | None = None, include: Sequence[str] = (),
                   exclude: Sequence[str] = (), ids: Sequence[str] = ()) -> list[Case]:
    """``select``, refusing unknown feature names, globs that match no case and empty results."""
    features = set(suite.vocabulary.features) | {f for c in suite.cases for f in c.features}
    for option, names in (("--features-include", include), ("--features-exclude", exclude)):
        wrong = unknown(names, features)
        if wrong:
            raise UnknownNameError(f"{option}: " + describe_unknown("feature(s)", wrong, features))
    all_ids = [c.id for c in suite.cases]
    for pattern in ids:
        if not any(fnmatch.fnmatchcase(i, pattern) for i in all_ids):
            raise UnknownNameError(f"--id {quoted(pattern)} matches no case" + _near(pattern, all_ids))
    chosen = select(suite.cases, keyword, include, exclude, ids)
    if not chosen and suite.cases:
        given = _describe_selection(keyword, include, exclude, ids)
        hint = _near_words(keyword, suite.cases) if keyword else ""
        raise UnknownNameError(f"the selection {given} selects no case{hint}")
    return chosen


def unknown_engine_features(declared: Iterable[str], suite: Suite) -> str | None:
    """A message for the features an engine declares that the suite does not know, or None."""
    known = set(suite.vocabulary.features)
    if not known:
        return None
    wrong = sorted(unknown(declared, known))
    if not wrong:
        return None
    return ("the engine declares " + describe_unknown("feature(s)", wrong, known)
            + "; the cases needing the feature it meant will be reported as unsupported")


def _near(name: str, candidates: Sequence[str]) -> str:
    near = closest(name, candidates)
    return f" (closest: {', '.join(near)})" if near else ""


def _near_words(keyword: str, cases: Iterable[Case]) -> str:
    """Closest words of ids, features and titles for each word of a -k expression."""
    cases = list(cases)
    words = {w for c in cases for w in re.split(r"[/\s,.:;()-]+", " ".join([c.id, c.title, *c.features]).lower()) if w}
    words |= {c.id for c in cases}
    hints = []
    for token in keyword.replace("(", " ").replace(")", " ").split():
        if token.lower() in ("and", "or", "not"):
            continue
        near = closest(token.lower(), words)
        if near and token.lower() not in near:
            hints.append(f"{quoted(token)}: {', '.join(near)}")
    return f" (closest words: {'; '.join(hints)})" if hints else ""


def _describe_selection(keyword, include, exclude, ids) -> str:
    parts = []
    if keyword:
        parts.append(f"-k {keyword!r}")
    if include:
        parts.append(f"--features-include {','.join(include)}")
    if exclude:
        parts.append(f"--features-exclude {','.join(exclude)}")
    parts.extend(f"--id {quoted(pattern)}" for pattern in ids)
    return " ".join(parts) or "(everything)"
