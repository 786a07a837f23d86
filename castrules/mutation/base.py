"""What a mutant is: the oracle run with one or a few of its seams (`castrules.oracle.seams`)
replaced by a realistic wrong rule.

A mutant never patches a module: it builds a `Rules` table from the real one with its own
entries and runs the unchanged oracle under it (`seams.using`, a context variable, so no lock
and nothing leaks to other engines or threads). A mutant whose seam does not exist cannot be
built (`BrokenMutant`); one that changes nothing on the cases built for it (`witnesses`) is
reported as broken by ``castrules mutants``, not as a hole in the suite.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, ClassVar, Mapping

from castrules.oracle.engine import OracleEngine
from castrules.oracle.seams import SEAMS, Rules, rules, using

# A seam's replacement: factory(real rule, ctx) -> wrong rule. `ctx` is a dict made fresh for
# each run, shared by the replacements of one mutant.
Factory = Callable[[Callable[..., Any], dict], Callable[..., Any]]


class BrokenMutant(Exception):
    """A mutant that cannot mean what it says: its seam is gone, or it changes nothing."""


class Mutant(OracleEngine):
    """The oracle with the seams of `seams` replaced while it runs."""

    description: ClassVar[str] = ""
    seams: ClassVar[Mapping[str, Factory]] = {}
    witnesses: ClassVar[tuple[str, ...]] = ()      # case ids built for this bug: each must fail on it

    def __init__(self) -> None:
        self.name = f"castrules-mutant-{type(self).__name__}"
        check_seams(type(self))

    def table(self) -> Rules:
        """The rules this mutant runs with: the table in effect, with its entries replaced."""
        ctx: dict = {}
        current = rules()
        return replace(current, **{name: make(getattr(current, name), ctx) for name, make in self.seams.items()})

    def run(self, request: Mapping[str, Any]) -> dict:
        with using(self.table()):
            return super().run(request)


def check_seams(cls: type[Mutant]) -> None:
    """Raise BrokenMutant unless `cls` replaces at least one seam, and only seams that exist."""
    if not cls.seams:
        raise BrokenMutant(f"mutant {cls.__name__} replaces no seam")
    unknown = sorted(set(cls.seams) - set(SEAMS))
    if unknown:
        raise BrokenMutant(f"mutant {cls.__name__} replaces {', '.join(unknown)}, which the oracle no longer has "
                           f"as seams (castrules.oracle.seams.Rules: {', '.join(SEAMS)})")
    if not cls.witnesses:
        raise BrokenMutant(f"mutant {cls.__name__} names no case built for its bug (witnesses)")


def substitute(fn: Callable[..., Any]) -> Factory:
    """A factory for a replacement that ignores the real rule."""
    return lambda real, ctx: fn


def with_rules(**entries: Callable[..., Any]):
    """`using` the table in effect with some entries replaced (inside a mutant's own rule)."""
    return using(replace(rules(), **entries))


def remember_proposal(real, ctx):
    """pay_spell wrapper: keep the proposal being paid (X, alternative cost) in `ctx`."""
    def pay_spell(prop, spec, hybrid, phyrexian, trace):
        ctx["prop"] = prop
        try:
            return real(prop, spec, hybrid, phyrexian, trace)
        finally:
            ctx.pop("prop", None)
    return pay_spell
