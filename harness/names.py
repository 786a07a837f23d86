"""Names a user typed that name nothing: found, and answered with the closest real names.

A misspelt feature, an empty selection or a stale id in an expectations file must never pass
quietly (a CI job that selects nothing is green for ever); each message names what was given,
where, and what exists nearby (difflib).
"""

from __future__ import annotations

import difflib
from typing import Iterable
from castrules.harness.excerpts import quoted


class UnknownNameError(ValueError):
    """A name given on the command line or in a file names nothing the suite knows."""


def closest(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The nearest real names (difflib ratio), best first; also those that contain ``name``."""
    pool = sorted(set(candidates))
    near = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)
    if len(near) < n:
        near += [c for c in pool if name and name in c and c not in near][: n - len(near)]
    return near


def suggestion(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean a, b?)`` or nothing."""
    near = closest(name, candidates)
    return f" (did you mean {', '.join(near)}?)" if near else ""


def unknown(names: Iterable[str], known: Iterable[str]) -> list[str]:
    known = set(known)
    return [n for n in names if n not in known]


def describe_unknown(what: str, names: Iterable[str], known: Iterable[str], limit: int = 5) -> str:
    """``unknown feature(s): prowel (did you mean prowl?)``, for at most ``limit`` names."""
    known = sorted(set(known))
    names = list(names)
    shown = [f"{quoted(n)}{suggestion(n, known)}" for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"unknown {what}: {', '.join(shown)}{more}"
