"""Is a mutant sound? It must replace seams the oracle has, and fail each case built for it.

A mutant whose seam is gone, or that no longer changes the outcome of its own witness cases
(its seam is no longer reached, or no longer applies the rule it replaces), would otherwise
look like a survivor and send the developer to write a case, the wrong fix: it is reported
as broken instead.
"""
from __future__ import annotations

import importlib
from typing import Mapping

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.results import Status
from castrules.harness.runner import run_case

from .base import BrokenMutant, Mutant, check_seams


def mutant_class(module: str, name: str) -> type[Mutant] | None:
    """The mutant class `name` of `module`, or None if it is not a `Mutant` (a foreign engine)."""
    cls = getattr(importlib.import_module(module), name, None)
    return cls if isinstance(cls, type) and issubclass(cls, Mutant) else None


def broken_reason(cls: type[Mutant], passing: Mapping[str, Case], catalog: Catalog) -> str | None:
    """Why the mutant `cls` is broken, or None. `passing`: the cases the oracle passes, by id."""
    try:
        check_seams(cls)
    except BrokenMutant as exc:
        return str(exc)
    engine = cls()
    for case_id in cls.witnesses:
        case = passing.get(case_id)
        if case is None:
            return f"its witness case {case_id} is not among the cases the oracle passes"
        status = run_case(engine, case, catalog).status
        if status is not Status.FAIL:
            return (f"it changes nothing on {case_id}, a case built for its bug (the case is {status.value} on "
                    "it): its seams are no longer reached, or no longer apply the rule they replace")
    return None
