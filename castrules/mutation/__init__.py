"""castrules.mutation: the oracle with one realistic bug each, to measure the suite.

Each mutant is an engine (``--engine castrules.mutation:NoLockIn``) that runs the unchanged
oracle with one or a few of its seams (``castrules.oracle.seams``) replaced: see `base`.
``MUTANTS`` maps each mutant's name to a one-line description of its bug; ``castrules mutants``
runs the suite against every one of them.
"""
from __future__ import annotations

from . import continuous, copies, costs, keywords, mana, modes, permissions, prototype, prowl
from .base import BrokenMutant, Mutant, check_seams

_MODULES = (costs, prowl, prototype, mana, copies, continuous, keywords, permissions, modes)

MUTANT_CLASSES: dict[str, type[Mutant]] = {
    name: cls for module in _MODULES for name, cls in vars(module).items()
    if isinstance(cls, type) and issubclass(cls, Mutant) and cls is not Mutant and cls.__module__ == module.__name__
}
MUTANTS: dict[str, str] = {name: cls.description for name, cls in MUTANT_CLASSES.items()}

globals().update(MUTANT_CLASSES)

__all__ = ["BrokenMutant", "MUTANTS", "MUTANT_CLASSES", "Mutant", "check_seams", *MUTANT_CLASSES]
