"""Mutation testing of the suite: running it against each mutant (``castrules mutants``).

Each mutant is an engine: the oracle with one realistic bug injected (``castrules.mutation``,
loaded by spec string like any other engine, ``castrules.mutation:<Name>``). The suite runs
against each; a mutant is *killed* when a case the unmutated oracle passes fails (or errors)
on it. A mutant no case kills is a hole in the suite: write a case that catches its bug. A
mutant that does not fail the cases built for it, or whose seam is gone, is *broken*: fix the
mutant, not the suite (``castrules.mutation.check``).
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import close, load_engine
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.mutation.check import broken_reason, mutant_class

MUTANTS_MODULE = "castrules.mutation"


@dataclass
class MutantReport:
    name: str
    description: str
    killed_by: list[str] = field(default_factory=list)      # cases that fail on the mutant
    errored_on: list[str] = field(default_factory=list)     # cases on which the mutant raised or broke its contract
    cases_run: int = 0
    seconds: float = 0.0
    broken: str | None = None                               # why the mutant cannot be trusted

    @property
    def killed(self) -> bool:
        return self.broken is None and bool(self.killed_by or self.errored_on)

    @property
    def status(self) -> str:
        return "broken" if self.broken is not None else ("killed" if self.killed else "survived")

    def to_json(self) -> dict:
        out = {"name": self.name, "description": self.description, "status": self.status,
               "killed_by": self.killed_by, "errored_on": self.errored_on, "cases_run": self.cases_run,
               "seconds": round(self.seconds, 3)}
        if self.broken is not None:
            out["broken"] = self.broken
        return out


def registry(module: str = MUTANTS_MODULE) -> dict[str, str]:
    """Mutant name -> description, from the mutants module's ``MUTANTS``."""
    try:
        found = importlib.import_module(module).MUTANTS
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot read the mutants of {module!r}: {exc}") from exc
    return dict(found)


def baseline(cases: Iterable[Case], catalog: Catalog, reference: str = "oracle") -> list[Case]:
    """The cases the unmutated reference engine passes: only these can kill a mutant."""
    engine = load_engine(reference)
    try:
        return [c for c in cases if run_case(engine, c, catalog).status is Status.PASS]
    finally:
        close(engine)


def run_mutant(name: str, description: str, cases: Sequence[Case], catalog: Catalog,
               module: str = MUTANTS_MODULE, max_kills: int = 3) -> MutantReport:
    """Run the cases (those the reference passes) on one mutant, its witness cases first; stop
    after `max_kills` killing cases (0: run them all)."""
    report = MutantReport(name, description)
    started = time.perf_counter()
    cls = mutant_class(module, name)
    if cls is not None:
        report.broken = broken_reason(cls, {c.id: c for c in cases}, catalog)
        if report.broken is not None:
            report.seconds = time.perf_counter() - started
            return report
    engine = load_engine(f"{module}:{name}")
    try:
        for case in _witnesses_first(cases, cls.witnesses if cls is not None else ()):
            result = run_case(engine, case, catalog)
            report.cases_run += 1
            if result.status is Status.FAIL:
                report.killed_by.append(case.id)
            elif result.status.is_unexpected or result.status is Status.SKIPPED:
                report.errored_on.append(case.id)
            if max_kills and len(report.killed_by) + len(report.errored_on) >= max_kills:
                break
    finally:
        close(engine)
    report.seconds = time.perf_counter() - started
    return report


def _witnesses_first(cases: Sequence[Case], witnesses: Iterable[str]) -> list[Case]:
    """The cases built for the mutant's bug first (they kill a sound mutant at once, so a run
    stopping after ``max_kills`` is short), then the others in suite order."""
    named = set(witnesses)
    return [c for c in cases if c.id in named] + [c for c in cases if c.id not in named]


def run_all(names: Sequence[str] | None = None, module: str = MUTANTS_MODULE, max_kills: int = 3,
            suite=None) -> list[MutantReport]:
    from castrules.harness.suite import load_suite

    suite = suite or load_suite()
    known = registry(module)
    chosen = list(names) if names else list(known)
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"unknown mutant(s): {', '.join(unknown)}; known: {', '.join(known)}")
    cases = baseline(suite.cases, suite.catalog)
    return [run_mutant(n, known[n], cases, suite.catalog, module, max_kills) for n in chosen]
